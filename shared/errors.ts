/** Every failure the contract can report, as a stable code the UI and tests can rely on. */
export const errorCodes = [
  'INVALID_INPUT',
  'DUPLICATE_PANEL',
  'NOT_FOUND',
  'NOT_SIGNED_IN',
  'INVALID_CREDENTIALS',
  /** The panel wants a second factor: log in again with `code` from the authenticator app. */
  'TWO_FACTOR_REQUIRED',
  'UNAUTHORIZED',
  'LOGIN_ENDPOINT_NOT_FOUND',
  'NO_TOKEN_IN_RESPONSE',
  'RATE_LIMITED',
  'SERVER_ERROR',
  'BAD_RESPONSE',
  'RESPONSE_TOO_LARGE',
  'TIMEOUT',
  'NETWORK',
  'TLS',
  'REDIRECT_REFUSED',
  'ENCRYPTION_UNAVAILABLE',
  'TOKEN_UNREADABLE',
  'STORAGE',
  'FORBIDDEN',
  /** A check or read stopped by the operator (Cancel) or by the system going to sleep. */
  'CANCELLED',
  'INTERNAL',
] as const;

export type ErrorCode = (typeof errorCodes)[number];

/** TWO_FACTOR_REQUIRED's message. */
export const TWO_FACTOR_REQUIRED_MESSAGE = 'Enter the code from your authenticator app.';
/**
 * The INVALID_CREDENTIALS message when the panel refused the code rather than the password: the
 * window compares against it to show the error at the code field.
 */
export const CODE_REFUSED_MESSAGE = 'The panel refused the code. Codes change every 30 seconds: enter the current one.';

/** The plain-data form of an error: what crosses IPC and what is kept on a panel. */
export interface ErrorInfo {
  code: ErrorCode;
  message: string;
}

/**
 * The one error type the core throws. Its message is written for an operator (what happened,
 * what to do) and never contains a token or a password.
 */
export class PanelError extends Error {
  readonly code: ErrorCode;

  constructor(code: ErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'PanelError';
    this.code = code;
  }

  toInfo(): ErrorInfo {
    return { code: this.code, message: this.message };
  }
}

export function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === 'string' && (errorCodes as readonly string[]).includes(value);
}
