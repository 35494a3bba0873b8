import { Secret, TOTP } from 'otpauth';

/** The demo accounts of the reference panel, and how their second factor is checked. */

export interface DemoUser {
  id: string;
  email: string;
  password: string;
  name: string;
  role: string;
  /**
   * When set, this user logs in with a second factor: this fixed code (tests need no clock).
   * Without a code the panel answers like Easypanel 2.33+ (`ReferencePanelOptions.twoFactorPrompt`).
   */
  twoFactorCode?: string;
  /**
   * When set, this user logs in with a second factor checked as an authenticator app makes it:
   * TOTP over this base32 secret (SHA-1, 6 digits, 30 s, one step either side). It wins over `twoFactorCode`.
   */
  totpSecret?: string;
}

export const DEMO_USER: DemoUser = {
  id: 'usr_1001',
  email: 'demo@paneldeck.test',
  password: 'demo-password',
  name: 'Demo Operator',
  role: 'admin',
};

/** A user with two-factor log in, whose code is always 246810. */
export const TWO_FACTOR_USER: DemoUser = {
  id: 'usr_1002',
  email: 'guarded@paneldeck.test',
  password: 'guarded-password',
  name: 'Guarded Operator',
  role: 'admin',
  twoFactorCode: '246810',
};

/** A new random TOTP secret in base32 (20 bytes, as authenticator apps expect). */
export function newTotpSecret(): string {
  return new Secret({ size: 20 }).base32;
}

/**
 * The TOTP a `DemoUser.totpSecret` is checked with: `.generate()` is the current code,
 * `.toString()` the `otpauth://` URI for an authenticator app.
 */
export function demoTotp(secret: string, account = 'demo'): TOTP {
  return new TOTP({
    issuer: 'Paneldeck demo panel',
    label: account,
    secret: Secret.fromBase32(secret),
    algorithm: 'SHA1',
    digits: 6,
    period: 30,
  });
}

export function isTwoFactor(user: DemoUser): boolean {
  return user.totpSecret !== undefined || user.twoFactorCode !== undefined;
}

export function codeAccepted(user: DemoUser, code: unknown): boolean {
  if (user.totpSecret !== undefined) {
    return typeof code === 'string' && demoTotp(user.totpSecret).validate({ token: code, window: 1 }) !== null;
  }
  return code === user.twoFactorCode;
}
