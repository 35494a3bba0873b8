import { Component, type ReactNode } from 'react';
import { ViewLoadFailure } from './lazy-view.tsx';

interface ErrorBoundaryProps {
  children: ReactNode;
  /** Called by "Try again" before the children render again: a chance to drop what broke them. */
  onReset?(): void;
  /** Where the failure is said: around it (a dialog's frame, for a dialog that failed), or in the view's place. */
  frame?(failure: ReactNode): ReactNode;
}

interface ErrorBoundaryState {
  reason: string | null;
  /** What could not be loaded, when the failure was a view's code that did not load (not a render). */
  notLoaded: string | null;
}

/** Longest part of an error's message shown: enough to report, never a page of data. */
const REASON_LIMIT = 160;

/**
 * Keeps a view that throws while rendering (an answer of a shape nobody expected, a bug) from
 * blanking the window: the rest of the app keeps working and the view says what happened. It
 * logs nothing itself; the message it shows is cut short, as an error may quote the data.
 */
export class ErrorBoundary extends Component<ErrorBoundaryProps, ErrorBoundaryState> {
  override state: ErrorBoundaryState = { reason: null, notLoaded: null };

  static getDerivedStateFromError(error: unknown): ErrorBoundaryState {
    // A load failure's reason is the browser's own (the file that did not arrive), not the wrapper's.
    if (error instanceof ViewLoadFailure) return { reason: plainReason(error.cause), notLoaded: error.what };
    return { reason: plainReason(error), notLoaded: null };
  }

  private readonly reset = () => {
    this.props.onReset?.();
    this.setState({ reason: null, notLoaded: null });
  };

  override render(): ReactNode {
    const { reason, notLoaded } = this.state;
    if (reason === null) return this.props.children;
    // A view's code that did not load stays unloaded for this page (the browser keeps the
    // failure): only a reload of the window fetches it again, so that is the one thing offered.
    const failure =
      notLoaded === null ? (
        <div className="notice notice-error view-error" role="alert">
          <p className="notice-title">This view could not be shown</p>
          <p>
            Something in it failed to display, so Paneldeck stopped here instead of showing it wrong. The other panels are not affected.
          </p>
          <p className="notice-detail">Reason: {reason}</p>
          <button type="button" onClick={this.reset}>
            Try again
          </button>
        </div>
      ) : (
        <div className="notice notice-error view-error" role="alert">
          <p className="notice-title">{`Paneldeck could not load ${notLoaded}`}</p>
          <p>
            Its part of the window did not arrive, which happens when Paneldeck's files changed while it ran (an update, say). Reload the
            window to load it again; your panels and sign-ins are kept. If it fails again, quit Paneldeck and open it again.
          </p>
          <p className="notice-detail">Reason: {reason}</p>
          <button type="button" className="button-primary" onClick={() => window.location.reload()}>
            Reload the window
          </button>
        </div>
      );
    return this.props.frame ? this.props.frame(failure) : failure;
  }
}

/** "RangeError: Invalid time value", shortened; anything that is not an Error says so. */
function plainReason(error: unknown): string {
  if (!(error instanceof Error)) return 'an unexpected failure without a description.';
  const message = error.message.replace(/\s+/g, ' ').trim();
  const short = message.length > REASON_LIMIT ? `${message.slice(0, REASON_LIMIT - 1)}…` : message;
  return short ? `${error.name}: ${short}` : error.name;
}
