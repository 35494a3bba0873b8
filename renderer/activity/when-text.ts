import { agoText } from '../../shared/durations.ts';
import { madeOnce } from '../../shared/made-once.ts';

/** Short enough that the row's first column holds it with its "ago" whole; the title gives the full time. */
const TIME_OF_DAY = madeOnce(() => new Intl.DateTimeFormat(undefined, { timeStyle: 'short' }));
const DAY_AND_TIME = madeOnce(
  () => new Intl.DateTimeFormat(undefined, { month: 'short', day: 'numeric', hour: 'numeric', minute: '2-digit' }),
);
const FULL_DATE = madeOnce(() => new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' }));

/**
 * When, as short as it stays plain (the whole date is in the hover title): today's entries by their
 * time and how long ago, older ones by their day, this year's without the year.
 */
export function whenText(at: Date, now: Date): string {
  if (at.toDateString() === now.toDateString()) return `${TIME_OF_DAY().format(at)} · ${agoText(at.getTime(), now.getTime())}`;
  return at.getFullYear() === now.getFullYear() ? DAY_AND_TIME().format(at) : FULL_DATE().format(at);
}
