/** Finding an operation in a catalogue of hundreds: every word typed must start a word of its name or summary; names first. */

export interface Searchable {
  name: string;
  summary: string | null;
}

/** "projects.listProjectsAndServices" → "projects list projects and services". */
const words = (text: string) =>
  text
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);

const searchText = new WeakMap<Searchable, { name: string[]; summary: string[]; whole: string }>();

function textOf(operation: Searchable) {
  let text = searchText.get(operation);
  if (!text) {
    text = { name: words(operation.name), summary: words(operation.summary ?? ''), whole: operation.name.toLowerCase() };
    searchText.set(operation, text);
  }
  return text;
}

/** The operations matching `query`, best first: a name that starts with the query, then names that match, then summaries. */
export function searchOperations<T extends Searchable>(operations: readonly T[], query: string): T[] {
  const typed = query.trim().toLowerCase();
  if (typed === '') return [...operations];
  const wanted = words(typed);
  const scored: { operation: T; score: number; index: number }[] = [];
  operations.forEach((operation, index) => {
    const text = textOf(operation);
    const inName = (word: string) => text.name.some((part) => part.startsWith(word));
    const inSummary = (word: string) => text.summary.some((part) => part.startsWith(word));
    if (text.whole.startsWith(typed)) scored.push({ operation, score: 0, index });
    else if (text.whole.includes(typed) || (wanted.length > 0 && wanted.every(inName))) scored.push({ operation, score: 1, index });
    else if (wanted.length > 0 && wanted.every((word) => inName(word) || inSummary(word))) scored.push({ operation, score: 2, index });
  });
  return scored.sort((a, b) => a.score - b.score || a.index - b.index).map((item) => item.operation);
}
