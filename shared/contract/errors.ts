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
  /** The system does not trust the panel's certificate; `certificate` says which one, to trust it or not. */
  'CERTIFICATE_UNTRUSTED',
  /** The panel presents another certificate than the one trusted for it; `certificate` is the new one. */
  'CERTIFICATE_CHANGED',
  'REDIRECT_REFUSED',
  'ENCRYPTION_UNAVAILABLE',
  'TOKEN_UNREADABLE',
  'STORAGE',
  'FORBIDDEN',
  /** A check or read stopped by the operator (Cancel) or by the system going to sleep. */
  'CANCELLED',
  /** A write main did not send: the operator did not confirm it in main's own confirmation, or main could not ask. */
  'NOT_CONFIRMED',
  /** A write main did not send: between its confirmation and its request the panel's address, sign-in, generation or catalogue changed. */
  'CHANGED_BEFORE_SENDING',
  /** A write asked of a panel marked read-only: Paneldeck planned nothing for it. */
  'READ_ONLY',
  /** A write was sent and its answer did not come (a timeout, a dropped connection, a gateway's 5xx): the panel may have done it. */
  'OUTCOME_UNKNOWN',
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
/**
 * The note a log out leaves on a panel that was signed in with an API token (code NOT_SIGNED_IN):
 * the window compares against it to title it. A log out does not end an API token.
 */
export const API_TOKEN_KEPT_MESSAGE =
  'Logged out here: Paneldeck forgot the API token. The token itself stays valid until it is revoked in Easypanel ' +
  '(Settings, Users, API token); a log out cannot end it.';
/** INTERNAL's message, for a bug: the bug's own message may quote anything (a path, a token), so none of it is shown. */
export const INTERNAL_MESSAGE =
  'Paneldeck hit an unexpected error and did not finish this action. Try again; if it keeps happening, restart Paneldeck.';

/** A server certificate as the operator compares it before trusting it. Not a secret. */
export interface CertificateInfo {
  /** SHA-256 of the DER certificate, as uppercase hex pairs joined by colons. */
  sha256: string;
  subject: string;
  issuer: string;
  /** ISO 8601. */
  validFrom: string;
  validTo: string;
}

/** The plain-data form of an error: what crosses IPC and what is kept on a panel. */
export interface ErrorInfo {
  code: ErrorCode;
  message: string;
  /** With CERTIFICATE_UNTRUSTED and CERTIFICATE_CHANGED: the certificate the panel presented. */
  certificate?: CertificateInfo;
}

/**
 * The one error type the core throws. Its message is written for an operator (what happened,
 * what to do) and never contains a token or a password.
 */
export class PanelError extends Error {
  readonly code: ErrorCode;
  readonly certificate: CertificateInfo | undefined;

  constructor(code: ErrorCode, message: string, options?: { cause?: unknown; certificate?: CertificateInfo }) {
    super(message, options);
    this.name = 'PanelError';
    this.code = code;
    this.certificate = options?.certificate;
  }

  toInfo(): ErrorInfo {
    return this.certificate
      ? { code: this.code, message: this.message, certificate: this.certificate }
      : { code: this.code, message: this.message };
  }
}

export function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === 'string' && (errorCodes as readonly string[]).includes(value);
}

const SHA256_FINGERPRINT = /^(?:[0-9A-F]{2}:){31}[0-9A-F]{2}$/;

export function isSha256Fingerprint(value: unknown): value is string {
  return typeof value === 'string' && SHA256_FINGERPRINT.test(value);
}

/** A certificate description read from outside (IPC, a file), or undefined when it is not one. */
export function readCertificateInfo(value: unknown): CertificateInfo | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const { sha256, subject, issuer, validFrom, validTo } = value as Record<string, unknown>;
  if (!isSha256Fingerprint(sha256)) return undefined;
  const texts = [subject, issuer, validFrom, validTo];
  if (!texts.every((text): text is string => typeof text === 'string' && text.length <= 1024)) return undefined;
  return { sha256, subject: subject as string, issuer: issuer as string, validFrom: validFrom as string, validTo: validTo as string };
}
