/**
 * Text widths in a font, measured on a canvas that is never drawn (no layout, no reflow): for
 * sizing columns by what they hold. Where no canvas is to be had, an average letter's width.
 */
export function textMeasurer(font: string): (text: string) => number {
  const context = typeof document === 'undefined' ? null : document.createElement('canvas').getContext('2d');
  if (!context) return (text) => text.length * 7;
  context.font = font;
  return (text) => context.measureText(text).width;
}

/** The page's font at `scale` of its size, with a weight: the canvas font of a part of the page that scales its text. */
export function pageFont(scale: number, weight = 400): string {
  const style = getComputedStyle(document.body);
  return `${weight} ${Number.parseFloat(style.fontSize) * scale}px ${style.fontFamily}`;
}
