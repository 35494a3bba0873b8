/**
 * Every token a sequence's servers issued, with the panel it was issued to, and those the service
 * must never send again: tokens of sign-ins that ended, were replaced, or were dropped.
 */
export class TokenBook {
  /** Token → the label of the panel it was issued to. */
  readonly owner = new Map<string, string>();
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
