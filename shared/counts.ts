/** "1 panel", "1,200 panels", "2 invalid lines": a count and its noun, for the operator to read. */
export function plural(count: number, one: string, many = `${one}s`): string {
  return `${count.toLocaleString('en')} ${count === 1 ? one : many}`;
}
