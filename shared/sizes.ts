import { madeOnce } from './made-once.ts';

const integer = madeOnce(() => new Intl.NumberFormat('en'));
const oneDecimal = madeOnce(() => new Intl.NumberFormat('en', { minimumFractionDigits: 1, maximumFractionDigits: 1 }));

/** "1 byte", "512 bytes", "3.4 KiB", "1.0 MiB": binary units, as every size limit in the app is set. */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${integer().format(bytes)} byte${bytes === 1 ? '' : 's'}`;
  if (bytes < 1024 * 1024) return `${oneDecimal().format(bytes / 1024)} KiB`;
  return `${oneDecimal().format(bytes / (1024 * 1024))} MiB`;
}
