/** The tokens the core must never send again: those of sign-ins that ended, were replaced, or were dropped. */
export class TokenBook {
  /** Token → why it is dead (`P2's sign-in ended in step 7`). */
  readonly dead = new Map<string, string>();
  /**
   * Dead tokens their own panel was asked once to end: a log in again ends the session it replaced
   * at the panel without waiting, so that one request may land after the step that killed the token.
   */
  readonly endedAtPanel = new Set<string>();

  /** Whether a dead token's request is the one allowed: the first asking the panel that issued it to end it. */
  takeEnding(token: string, toIssuerLogOut: boolean): boolean {
    if (!toIssuerLogOut || this.endedAtPanel.has(token)) return false;
    this.endedAtPanel.add(token);
    return true;
  }

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
