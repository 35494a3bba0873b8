import { useLayoutEffect, useRef } from 'react';
import { visibleRows } from '../ui/visible-rows.ts';
import { useScrollView } from '../ui/use-scroll-view.ts';

/** Each log line is one row this high: the viewer draws only the rows in view. */
export const LOG_ROW_HEIGHT = 18;

interface LogLinesProps {
  lines: readonly string[];
  /** New lines move the view to the end (a follow). */
  stickToEnd: boolean;
  /**
   * Only while the operator is at the end: scrolled up to read, the view stays where they put it,
   * and coming back to the end follows again. Without it, every new line moves the view.
   */
  onlyAtEnd?: boolean;
  label: string;
}

/** Log lines in a monospace list that draws only the rows in view (the Logs and Deployments tabs). */
export function LogLines({ lines, stickToEnd, onlyAtEnd = false, label }: LogLinesProps) {
  const box = useRef<HTMLDivElement>(null);
  const view = useScrollView(box, 600);
  // How tall the lines were at the last layout: with where the view was scrolled to, whether the
  // operator was at the end before these lines came.
  const laidOutHeight = useRef(0);
  // Whether the view followed at the last layout: turning Follow on brings the end into the window.
  const followed = useRef(false);
  // New lines are what moves the view to the end: `lines` is a dependency for that.
  useLayoutEffect(() => {
    const current = box.current;
    if (!current) return;
    // Read from the element, not the view's state: a scroll just before the lines came may not have reached the state yet.
    const wasAtEnd = current.scrollTop + current.clientHeight >= laidOutHeight.current - LOG_ROW_HEIGHT;
    // A log opens at its newest line, as a tail does, followed or not.
    const opening = laidOutHeight.current === 0 && lines.length > 0;
    const followStarts = stickToEnd && !followed.current;
    laidOutHeight.current = lines.length * LOG_ROW_HEIGHT;
    followed.current = stickToEnd;
    if (opening || (stickToEnd && (!onlyAtEnd || wasAtEnd))) current.scrollTop = current.scrollHeight;
    // The box may reach below the window (a notice above it, a short window): on opening and when Follow
    // starts, the window scrolls so that the newest line is in it. Not at every line: the operator may have
    // scrolled the page up to the picker meanwhile.
    if (opening || followStarts) current.scrollIntoView({ block: 'nearest' });
  }, [lines, stickToEnd, onlyAtEnd]);
  const { from, to } = visibleRows(lines.length, LOG_ROW_HEIGHT, view.top, view.height);
  return (
    // biome-ignore lint/a11y/noNoninteractiveTabindex: the log scrolls, and the keyboard must be able to scroll it
    <div className="log-lines" ref={box} role="log" aria-live="off" aria-label={label} tabIndex={0}>
      <div style={{ height: lines.length * LOG_ROW_HEIGHT }}>
        {lines.slice(from, to).map((line, offset) => (
          // Lines repeat and have no id: the position is their identity in this list.
          // biome-ignore lint/suspicious/noArrayIndexKey: see above
          <div key={from + offset} className="log-line" style={{ top: (from + offset) * LOG_ROW_HEIGHT }}>
            {line}
          </div>
        ))}
      </div>
    </div>
  );
}
