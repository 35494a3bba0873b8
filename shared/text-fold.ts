const ASCII = /^\p{ASCII}*$/u;

/**
 * A text as every search of the window compares it: lower case, without accents, so "Zürich" is
 * found by "zurich" (the panel list, the palette, All services and a panel's Services tab).
 */
export function fold(text: string): string {
  // Most names and addresses are plain ASCII: lower-casing is all they need, and it is cheaper.
  if (ASCII.test(text)) return text.toLowerCase();
  return text.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
}
