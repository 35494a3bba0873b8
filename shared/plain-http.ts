/**
 * True for a panel the operator chose to reach over plain http:// (a loopback panel needs no such
 * choice): its password and token cross the network readable. One rule for main and the window.
 */
export function isUnencrypted(panel: { allowPlainHttp: boolean; baseUrl: string }): boolean {
  return panel.allowPlainHttp && panel.baseUrl.startsWith('http://');
}
