import { useState } from 'react';
import type { StartupProblem } from '../../shared/types.ts';
import { copyText } from '../ui/copy-text.ts';

const FILE_NAMES: Record<StartupProblem['file'], string> = {
  panels: 'panel list',
  tokens: 'saved sign-ins',
  settings: 'settings',
  activity: 'activity log',
};

/**
 * What Paneldeck repaired at start, until the operator dismisses it: what happened, and where the
 * untouched copy of the damaged file is, so they can restore or send it.
 */
export function StartupProblems({ problems, onDismiss }: { problems: StartupProblem[]; onDismiss(): void }) {
  if (problems.length === 0) return null;
  return (
    <section className="notice notice-warning startup-problems" role="alert" aria-labelledby="startup-problems-title">
      <h2 id="startup-problems-title" className="notice-title">
        Paneldeck found a damaged file at start and carried on without it
      </h2>
      <ul className="startup-problem-list">
        {problems.map((problem) => (
          <li key={problem.file}>
            <p>
              <strong>{capitalise(FILE_NAMES[problem.file])}:</strong> {problem.message}
            </p>
            {problem.copyPath && <CopyPath path={problem.copyPath} />}
          </li>
        ))}
      </ul>
      <button type="button" onClick={onDismiss}>
        Dismiss
      </button>
    </section>
  );
}

function CopyPath({ path }: { path: string }) {
  const [copied, setCopied] = useState(false);
  return (
    <p className="copy-path">
      <span className="muted">The original is kept at</span> <code>{path}</code>{' '}
      <button type="button" className="button-link" onClick={() => void copyText(path).then(setCopied)}>
        {copied ? 'Copied' : 'Copy path'}
      </button>
    </p>
  );
}

function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
