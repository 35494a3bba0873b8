/**
 * Copies text on a click; false when the Clipboard API refuses. Main grants the app's page this
 * one permission (clipboard-sanitized-write) and no other.
 */
export async function copyText(text: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    return false;
  }
}
