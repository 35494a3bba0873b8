import type { TokenKind } from './types.ts';

/** An account in the operator's words, in main's plans and the window alike: its email, or an API token (with its user's email when known). */
export function accountLabel(kind: TokenKind | null, email: string | null): string | null {
  if (kind === 'api-token') return email ? `an API token of ${email}` : 'an API token';
  return email;
}
