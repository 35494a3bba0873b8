/** The tokens the service must never send again: those of sign-ins that ended, were replaced, or were dropped. */
export class TokenBook {
  /** Token → why it is dead (`P2's sign-in ended in step 7`). */
  readonly dead = new Map<string, string>();

  kill(tokens: Iterable<string>, why: string): string[] {
    const killed: string[] = [];
    for (const token of tokens) {
      if (this.dead.has(token)) continue;
      this.dead.set(token, why);
      killed.push(token);
    }
    return killed;
  }
}
