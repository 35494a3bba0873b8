import { Component, type ReactNode } from 'react';

interface ErrorBoundaryProps {
  children: ReactNode;
  /** Called by "Try again" before the children render again: a chance to drop what broke them. */
  onReset?(): void;
}

interface ErrorBoundaryState {
  reason: string | null;
}

/** Longest part of an error's message shown: enough to report, never a page of data. */
const REASON_LIMIT = 160;

/**
 * Keeps a view that throws while rendering (an answer of a shape nobody expected, a bug) from
 * blanking the window: the rest of the app keeps working and the view says what happened. It
 * logs nothing itself; the message it shows is cut short, as an error may quote the data.
 */
export class ErrorBoundary extends Component<ErrorBoundaryProps, ErrorBoundaryState> {
  override state: ErrorBoundaryState = { reason: null };

  static getDerivedStateFromError(error: unknown): ErrorBoundaryState {
    return { reason: plainReason(error) };
  }

  private readonly reset = () => {
    this.props.onReset?.();
    this.setState({ reason: null });
  };

  override render(): ReactNode {
    const { reason } = this.state;
    if (reason === null) return this.props.children;
    return (
      <div className="notice notice-error view-error" role="alert">
        <p className="notice-title">This view could not be shown</p>
        <p>Something in it failed to display, so Paneldeck stopped here instead of showing it wrong. The other panels are not affected.</p>
        <p className="notice-detail">Reason: {reason}</p>
        <button type="button" onClick={this.reset}>
          Try again
        </button>
      </div>
    );
  }
}

/** "RangeError: Invalid time value", shortened; anything that is not an Error says so. */
function plainReason(error: unknown): string {
  if (!(error instanceof Error)) return 'an unexpected failure without a description.';
  const message = error.message.replace(/\s+/g, ' ').trim();
  const short = message.length > REASON_LIMIT ? `${message.slice(0, REASON_LIMIT - 1)}…` : message;
  return short ? `${error.name}: ${short}` : error.name;
}
