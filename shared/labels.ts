/**
 * How an operator organises panels: a group (a client, a region), tags, a colour and a
 * favourite mark. Zod-free, so the panel list's loader and the window share the rules.
 */

/** The named colours a panel can wear; red is the one for production. */
export const PANEL_COLOURS = ['red', 'orange', 'yellow', 'green', 'blue', 'purple', 'grey'] as const;
export type PanelColour = (typeof PANEL_COLOURS)[number];

export const COLOUR_NAMES: Readonly<Record<PanelColour, string>> = {
  red: 'Red (production)',
  orange: 'Orange',
  yellow: 'Yellow',
  green: 'Green',
  blue: 'Blue',
  purple: 'Purple',
  grey: 'Grey',
};

export const LABEL_LIMITS = { groupLength: 60, tagLength: 32, tags: 20 } as const;

/** The longest panel name, in UTF-16 units as the schemas count. */
export const PANEL_NAME_MAX = 100;

/**
 * `name` trimmed and cut to `max` units, ending in "…" where it was cut (never inside a
 * character): names Paneldeck makes itself (after a long address, a copy's) stay within the limit,
 * so that every panel it exports imports back.
 */
export function fitPanelName(name: string, max = PANEL_NAME_MAX): string {
  const trimmed = name.trim();
  if (trimmed.length <= max) return trimmed;
  const points = [...trimmed];
  let cut = '';
  for (const point of points) {
    if (cut.length + point.length > max - 1) break;
    cut += point;
  }
  return `${cut.trimEnd()}…`;
}

/** The name of a copy: the source's name, cut where needed, then " (copy)". */
export function copyName(name: string): string {
  const suffix = ' (copy)';
  return `${fitPanelName(name, PANEL_NAME_MAX - suffix.length)}${suffix}`;
}

const CONTROL = /\p{Cc}/u;

/** A group name as stored: trimmed, inner runs of spaces kept as one; `null` for none. */
export function cleanGroup(value: string | null): string | null {
  const group = value?.trim().replace(/\s+/g, ' ') ?? '';
  return group === '' ? null : group;
}

/**
 * Tags as stored: trimmed, without empties and repeats (a repeat in another letter case is the
 * same tag), in the order given. Commas separate tags where the operator types them.
 */
export function cleanTags(values: readonly string[]): string[] {
  const seen = new Set<string>();
  const tags: string[] = [];
  for (const value of values) {
    const tag = value.trim().replace(/\s+/g, ' ');
    if (tag === '' || seen.has(tag.toLowerCase())) continue;
    seen.add(tag.toLowerCase());
    tags.push(tag);
  }
  return tags;
}

/** Why a group is refused, or null when it is fine. */
export function groupProblem(group: string): string | null {
  if (group.length > LABEL_LIMITS.groupLength) return `Group is too long (${LABEL_LIMITS.groupLength} characters at most).`;
  if (CONTROL.test(group)) return 'Group cannot contain control characters.';
  return null;
}

/** Why a tag is refused, or null when it is fine. */
export function tagProblem(tag: string): string | null {
  if (tag.length > LABEL_LIMITS.tagLength) return `Tag "${tag.slice(0, 40)}…" is too long (${LABEL_LIMITS.tagLength} characters at most).`;
  if (tag.includes(',')) return 'A tag cannot contain a comma: commas separate tags.';
  if (CONTROL.test(tag)) return 'A tag cannot contain control characters.';
  return null;
}

export function isPanelColour(value: unknown): value is PanelColour {
  return typeof value === 'string' && (PANEL_COLOURS as readonly string[]).includes(value);
}
