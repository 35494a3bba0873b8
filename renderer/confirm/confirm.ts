import { plural } from '../../shared/counts.ts';
import { type PlanAnswer, requestCount, typedConfirms, type WritePlan } from '../../shared/write-plan.ts';

/**
 * Main's own confirmation of a write: a page of its own, in a window of its own with a preload
 * that exposes only these two calls, so the panel window's code can neither draw nor answer it.
 * Everything a panel chose (names, services) is set as text, never as markup.
 */
export interface ConfirmationBridge {
  /** The plan main asks about. */
  plan(): Promise<WritePlan>;
  /** The operator's answer; main checks the typed text itself. */
  answer(answer: PlanAnswer): Promise<void>;
}

declare global {
  interface Window {
    writeConfirmation?: ConfirmationBridge;
  }
}

function element<K extends keyof HTMLElementTagNameMap>(tag: K, text?: string, className?: string): HTMLElementTagNameMap[K] {
  const made = document.createElement(tag);
  if (text !== undefined) made.textContent = text;
  if (className) made.className = className;
  return made;
}

/** The plan's panels, each with every request it will send, then what is left out and why. */
function planList(plan: WritePlan): HTMLElement {
  const list = element('div', undefined, 'plan');
  list.setAttribute('role', 'region');
  list.setAttribute('aria-label', 'What will be sent');
  list.tabIndex = 0;
  for (const panel of plan.panels) {
    const section = element('section');
    const heading = element('h2');
    heading.append(
      element('span', panel.name),
      element('span', panel.address, 'address'),
      element('span', panel.generation, 'generation'),
      // Which of the operator's accounts it goes as: a panel may be signed in as a limited user.
      element('span', `as ${panel.account}`, 'account'),
    );
    if (panel.production) heading.append(element('span', 'production', 'production'));
    const requests = element('ol');
    for (const request of panel.requests) {
      const item = element('li', request.label);
      item.append(element('code', request.request));
      // The input as main will send it (secret values masked), as text.
      if (request.input !== undefined) item.append(element('pre', request.input, 'input'));
      requests.append(item);
    }
    section.append(heading, requests);
    list.append(section);
  }
  if (plan.leftOut.length > 0) {
    const section = element('section', undefined, 'left-out');
    section.append(element('h2', `Left out (${plan.leftOut.length}): nothing is sent for these`));
    const items = element('ul');
    for (const left of plan.leftOut) items.append(element('li', `${left.panelName}${left.label ? `: ${left.label}` : ''}: ${left.why}`));
    section.append(items);
    list.append(section);
  }
  return list;
}

/** Draws the plan into `root` and resolves once the operator has answered (or the window closes). */
export function showPlan(root: HTMLElement, plan: WritePlan, bridge: ConfirmationBridge): void {
  const count = requestCount(plan);
  const title = element('h1', plan.title);
  title.id = 'confirmation-title';
  const summary = element(
    'p',
    `${plural(count, 'request')} to ${plural(plan.panels.length, 'panel')}, sent once each and never again by themselves.`,
    'count',
  );
  const parts: HTMLElement[] = [title, summary];
  if (plan.detail) parts.push(element('p', plan.detail, 'detail'));
  parts.push(planList(plan));

  const confirm = element('button', plan.confirmLabel, plan.typedConfirmation ? 'confirm danger' : 'confirm');
  confirm.type = 'button';
  const cancel = element('button', 'Cancel');
  cancel.type = 'button';
  const error = element('p', '', 'error');
  error.setAttribute('role', 'alert');
  let typed: HTMLInputElement | null = null;
  if (plan.typedConfirmation) {
    const box = element('div', undefined, 'typed');
    box.append(element('p', plan.typedConfirmation.why));
    const label = element('label', `Type ${plan.typedConfirmation.text} to confirm`);
    typed = element('input');
    typed.type = 'text';
    typed.autocomplete = 'off';
    typed.spellcheck = false;
    typed.setAttribute('aria-describedby', 'confirmation-title');
    label.htmlFor = typed.id = 'typed-confirmation';
    box.append(label, typed);
    parts.push(box);
  }
  const buttons = element('div', undefined, 'buttons');
  buttons.append(cancel, confirm);
  parts.push(error, buttons);
  root.replaceChildren(...parts);

  const allowed = () => typedConfirms(plan, typed?.value ?? '');
  const refresh = () => {
    confirm.disabled = !allowed();
  };
  let answered = false;
  const answer = (confirmed: boolean) => {
    if (answered || (confirmed && !allowed())) return;
    answered = true;
    confirm.disabled = cancel.disabled = true;
    bridge.answer({ planId: plan.id, confirmed, typed: typed?.value ?? '' }).catch(() => {
      error.textContent = 'Paneldeck did not take the answer: close this window; nothing was sent.';
    });
  };
  typed?.addEventListener('input', refresh);
  confirm.addEventListener('click', () => answer(true));
  cancel.addEventListener('click', () => answer(false));
  document.addEventListener('keydown', (event) => {
    if (event.key === 'Escape') answer(false);
    else if (event.key === 'Enter' && event.target === typed) answer(true);
  });
  refresh();
  (typed ?? confirm).focus();
}

async function start(): Promise<void> {
  const root = document.getElementById('confirmation');
  const bridge = window.writeConfirmation;
  if (!root) return;
  if (!bridge) {
    root.replaceChildren(element('p', 'This page is Paneldeck’s own confirmation and opens only from Paneldeck.', 'error'));
    return;
  }
  try {
    showPlan(root, await bridge.plan(), bridge);
  } catch {
    root.replaceChildren(element('p', 'Paneldeck could not show what it would do; nothing was sent. Close this window.', 'error'));
  }
}

void start();
