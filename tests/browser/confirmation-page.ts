import type { Browser, BrowserContext, Page } from '@playwright/test';
import type { PlanAnswer, WritePlan } from '../../shared/write-plan.ts';

/**
 * Main's confirmation of a write as the browser tests run it: its real page
 * (renderer/confirm/confirm.html, built) in a browser context of its own, as the app gives it a
 * session of its own, with the two calls its preload exposes handed to the test through
 * Playwright bindings. `confirmWrite` is what the core's option of that name gets.
 */
export interface ConfirmationPages {
  /** The core's `confirmWrite`: opens the page for the plan and resolves with main's verdict. */
  confirmWrite(plan: WritePlan): Promise<boolean>;
  /** The next confirmation page to open (or the one open now). */
  next(): Promise<Page>;
  /** Every plan asked about, in order. */
  plans: WritePlan[];
  close(): Promise<void>;
}

export async function confirmationPages(browser: Browser, origin: string): Promise<ConfirmationPages> {
  const plans: WritePlan[] = [];
  const waiting: ((page: Page) => void)[] = [];
  const ready: Page[] = [];
  // Each confirmation in a context of its own, closed before the next opens, not at the answer:
  // closing a page while Playwright is still dispatching the key or click that answered stalls it.
  const contexts: BrowserContext[] = [];
  const confirmWrite = async (plan: WritePlan): Promise<boolean> => {
    plans.push(plan);
    for (const done of contexts.splice(0)) await done.close();
    const context = await browser.newContext({ viewport: { width: 640, height: 560 } });
    contexts.push(context);
    const page = await context.newPage();
    let resolve: (confirmed: boolean) => void = () => undefined;
    const verdict = new Promise<boolean>((settle) => (resolve = settle));
    page.on('close', () => resolve(false));
    await page.exposeBinding('__confirmationPlan', () => plan);
    await page.exposeBinding('__confirmationAnswer', (_source, answer: PlanAnswer) => {
      // As main does: the answer must name the plan, and carry the typed text it asks for.
      const typedOk = plan.typedConfirmation === null || answer.typed.trim() === plan.typedConfirmation.text;
      resolve(answer.planId === plan.id && answer.confirmed && typedOk);
    });
    await page.addInitScript(() => {
      const bindings = window as unknown as {
        __confirmationPlan(): Promise<unknown>;
        __confirmationAnswer(answer: unknown): Promise<void>;
      };
      Object.defineProperty(window, 'writeConfirmation', {
        value: Object.freeze({
          plan: () => bindings.__confirmationPlan(),
          answer: (answer: unknown) => bindings.__confirmationAnswer(answer),
        }),
      });
    });
    await page.goto(`${origin}/confirm/confirm.html`);
    const taker = waiting.shift();
    if (taker) taker(page);
    else ready.push(page);
    return verdict;
  };
  return {
    confirmWrite,
    plans,
    next: () => {
      const page = ready.shift();
      return page ? Promise.resolve(page) : new Promise((resolve) => waiting.push(resolve));
    },
    close: async () => {
      for (const done of contexts.splice(0)) await done.close();
    },
  };
}
