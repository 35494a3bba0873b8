import type { WritePlan } from '../../shared/write-plan.ts';

/**
 * Main's confirmation of writes as a test answers it (the app opens a window of its own:
 * electron/main/write-confirmation.ts): every plan asked about is kept, and answered by `answer`
 * (yes by default). A test that must see nothing sent without a yes answers no.
 */
export interface Confirmations {
  plans: WritePlan[];
  confirmWrite(plan: WritePlan): Promise<boolean>;
}

export function confirmations(answer: boolean | ((plan: WritePlan) => boolean | Promise<boolean>) = true): Confirmations {
  const plans: WritePlan[] = [];
  return {
    plans,
    confirmWrite: async (plan) => {
      plans.push(plan);
      return typeof answer === 'function' ? answer(plan) : answer;
    },
  };
}
