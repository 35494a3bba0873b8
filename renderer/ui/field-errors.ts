import type { ErrorInfo } from '../../shared/contract/errors.ts';

export type FormField = 'name' | 'address' | 'loginPath' | 'sessionPath' | 'generation' | 'tokenField' | 'group' | 'tags' | 'colour';

/**
 * The form field an error belongs under, so it is shown where the operator fixes it; `null`
 * for errors about the action as a whole. The schemas and the core start their input messages
 * with the field's name; address messages are the remaining ones.
 */
export function fieldForError(error: ErrorInfo): FormField | null {
  if (error.code === 'DUPLICATE_PANEL') return 'address';
  if (error.code !== 'INVALID_INPUT') return null;
  if (/^name\b/i.test(error.message)) return 'name';
  if (/login path/i.test(error.message)) return 'loginPath';
  if (/session path/i.test(error.message)) return 'sessionPath';
  if (/^Generation/.test(error.message)) return 'generation';
  if (/^token field/i.test(error.message)) return 'tokenField';
  if (/^group/i.test(error.message)) return 'group';
  if (/\btags?\b/i.test(error.message)) return 'tags';
  if (/^colour/i.test(error.message)) return 'colour';
  return 'address';
}
