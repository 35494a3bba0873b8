import { isPanelApiFailure } from '../../shared/contract/bridge.ts';
import { INTERNAL_MESSAGE, type ErrorInfo } from '../../shared/contract/errors.ts';

/** What a failed call to main says, whatever it rejected with. */
export function failureInfo(caught: unknown): ErrorInfo {
  if (isPanelApiFailure(caught)) {
    return caught.certificate
      ? { code: caught.code, message: caught.message, certificate: caught.certificate }
      : { code: caught.code, message: caught.message };
  }
  return { code: 'INTERNAL', message: INTERNAL_MESSAGE };
}
