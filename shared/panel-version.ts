/**
 * A panel's Easypanel version as Paneldeck keeps and shows it (`"2.32.2"`), in one place for main
 * (reading the answer, the check history) and the window (search, the Version sort).
 */

/** Digits and dots first, an optional short pre-release or build suffix: nothing else is kept or shown. */
const VERSION_TEXT = /^\d{1,4}(\.\d{1,4}){1,3}([-+][0-9A-Za-z.-]{1,40})?$/;

export function isPanelVersion(value: unknown): value is string {
  return typeof value === 'string' && VERSION_TEXT.test(value);
}

/**
 * A number that orders versions as they are numbered ("2.9" before "2.30"), a pre-release just
 * before its release; unknown (null or not a version) is Infinity, after every version.
 */
export function versionSortKey(version: string | null): number {
  if (!isPanelVersion(version)) return Infinity;
  const [numbers = '', suffix] = version.split(/(?=[-+])/, 2);
  const [major = 0, minor = 0, patch = 0, fourth = 0] = numbers.split('.').map(Number);
  // Four places of at most 4 digits: exact below 2^53 for any major version under 4500.
  const key = ((major * 1e4 + minor) * 1e4 + patch) * 1e4 + fourth;
  return suffix?.startsWith('-') ? key - 0.5 : key;
}

/** How the window names the version: "Easypanel 2.32.2". */
export function versionLabel(version: string): string {
  return `Easypanel ${version}`;
}
