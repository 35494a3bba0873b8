/** What a model run did, counted: printed at its end, to show the sequences reached what they were meant to. */

export interface Stats {
  sequences: number;
  commands: number;
  calls: number;
  /** Promises the scheduler held and released in an order of its choosing. */
  tasks: number;
  restarts: number;
  shadowRestarts: number;
  faultsFired: number;
  /** Starts that failed because the disk was full, and were made again. */
  failedStarts: number;
  /** Log ins that raced a move of their panel and carried the old address's password to the new one. */
  passwordsToMovedPanel: number;
  /** Passwords and tokens a TLS server received (over a certificate trusted there). */
  tlsSecrets: number;
  /** Answers CERTIFICATE_UNTRUSTED or CERTIFICATE_CHANGED (to calls and check entries). */
  certificateRefusals: number;
  /** Certificates the operator trusted; fingerprints never presented that trustCertificate refused. */
  trusted: number;
  refusedTrusts: number;
  /** Imports applied; of them, ones carrying a certificate for a panel already in the list. */
  imports: number;
  pinsIgnored: number;
  swaps: number;
  /** Sign-ins ended (log out, removal) while signed in, and of those, ones checked at the panel. */
  endedSignIns: number;
  endedAtPanelChecked: number;
  /** Steps in which a panel logged in and ended signed out, checked at its reachable panel. */
  droppedLogInsChecked: number;
  /** Tokens the core dropped or ended whose session the panel still accepted afterwards (see the report). */
  sessionsLeftOpen: Record<string, number>;
}

export function emptyStats(): Stats {
  return {
    sequences: 0,
    commands: 0,
    calls: 0,
    tasks: 0,
    restarts: 0,
    shadowRestarts: 0,
    faultsFired: 0,
    failedStarts: 0,
    passwordsToMovedPanel: 0,
    tlsSecrets: 0,
    certificateRefusals: 0,
    trusted: 0,
    refusedTrusts: 0,
    imports: 0,
    pinsIgnored: 0,
    swaps: 0,
    endedSignIns: 0,
    endedAtPanelChecked: 0,
    droppedLogInsChecked: 0,
    sessionsLeftOpen: {},
  };
}
