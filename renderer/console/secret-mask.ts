import { isRecord } from '../../shared/guards.ts';
import { isBranch, type Branch, type MaskRule } from '../ui/json-rows.ts';
import { MASKED_VALUE } from '../../shared/secret-fields.ts';
import { isSecretKey, isSecretValue } from './secret-keys.ts';

/**
 * An answer's secret fields (API tokens, two-factor secrets, password hashes, env values: the shared
 * rule of shared/secret-fields.ts) masked until the operator reveals each one. The answer itself is
 * never changed. The tree asks `answerMask` of the rows on screen only, so a 4 MiB answer costs what
 * is shown; Copy writes the JSON through the same rule. Inputs, history and saved answers (small)
 * are kept as masked copies (`maskInput`).
 */

/** The entries revealed: by the branch of the answer holding them and their key there (the answer's own objects: no path is spelled). */
export type Revealed = ReadonlyMap<Branch, ReadonlySet<string>>;

/** Whether the entry `name` of `parent` holds a secret: a secret key (empty or null hides nothing), or a password-hash-shaped string under any key. */
export function isSecretEntry(parent: Branch, name: string, value: unknown): boolean {
  if (typeof value === 'string' && isSecretValue(value)) return true;
  return !Array.isArray(parent) && value !== null && value !== '' && value !== undefined && isSecretKey(name);
}

const isRevealed = (revealed: Revealed, parent: Branch, name: string) => revealed.get(parent)?.has(name) === true;

/** The tree's rule: secret entries masked, but those revealed. */
export function answerMask(revealed: Revealed): MaskRule {
  return {
    isMasked: (parent, name, value) => isSecretEntry(parent, name, value) && !isRevealed(revealed, parent, name),
    maskedAs: MASKED_VALUE,
  };
}

/** `revealed` with one more entry. */
export function withRevealed(revealed: Revealed, parent: Branch, name: string): Revealed {
  return new Map(revealed).set(parent, new Set(revealed.get(parent)).add(name));
}

/** The answer as JSON text, secret entries masked but those revealed: what Copy copies. */
export function maskedJson(answer: unknown, revealed: Revealed): string {
  return (
    JSON.stringify(
      answer,
      function mask(this: unknown, key: string, value: unknown) {
        const holder = this as Branch;
        return key !== '' && isSecretEntry(holder, key, value) && !isRevealed(revealed, holder, key) ? MASKED_VALUE : value;
      },
      2,
    ) ?? ''
  );
}

export interface SecretPlace {
  /** Keys and indexes from the answer's root to the secret value. */
  path: readonly (string | number)[];
  /** The path as one text, the key of the reveal state ("users.0.apiToken"). */
  id: string;
}

export interface MaskedAnswer {
  /** What the tree shows and Copy copies. */
  value: unknown;
  /** How many values are still masked. */
  masked: number;
}

/** Where the walk is: a branch, and how it was reached (the path is spelled only for a secret found). */
interface Step {
  value: Branch;
  key: string | number;
  parent: Step | null;
}

const place = (path: (string | number)[]): SecretPlace => ({ path, id: path.join('.') });

function pathOf(step: Step | null, key: string | number): (string | number)[] {
  const path: (string | number)[] = [key];
  for (let at = step; at?.parent; at = at.parent) path.push(at.key);
  return path.reverse();
}

/**
 * The secret values of an answer by the shared rule (shared/secret-fields.ts: secret-looking keys,
 * and password-hash-shaped strings under any key); a value under a secret key is masked whole (an
 * `env` object too). The same places as `secretFieldPaths`, found several times faster: only
 * branches are stacked, and a path is spelled only for a secret (a 4 MiB answer is walked in one task).
 */
export function findSecrets(answer: unknown): SecretPlace[] {
  const found: SecretPlace[] = [];
  const stack: Step[] = isBranch(answer) ? [{ value: answer, key: '', parent: null }] : [];
  for (let step = stack.pop(); step; step = stack.pop()) {
    const { value } = step;
    if (Array.isArray(value)) {
      for (let index = 0; index < value.length; index++) {
        const item: unknown = value[index];
        if (typeof item === 'object' && item !== null) stack.push({ value: item as Branch, key: index, parent: step });
        else if (typeof item === 'string' && isSecretValue(item)) found.push(place(pathOf(step, index)));
      }
      continue;
    }
    for (const key in value) {
      if (!Object.hasOwn(value, key)) continue;
      const item = value[key];
      if (item === null || item === '' || item === undefined) continue;
      if (isSecretKey(key) || (typeof item === 'string' && isSecretValue(item))) found.push(place(pathOf(step, key)));
      else if (typeof item === 'object') stack.push({ value: item as Branch, key, parent: step });
    }
  }
  return found;
}

/** The answer with every secret not in `revealed` masked; branches on no secret's way are the answer's own. */
export function maskAnswer(answer: unknown, secrets: readonly SecretPlace[], revealed: ReadonlySet<string>): MaskedAnswer {
  const hidden = secrets.filter((secret) => !revealed.has(secret.id));
  if (hidden.length === 0 || !isBranch(answer)) return { value: answer, masked: 0 };
  const copies = new Map<Branch, Branch>();
  const copyOf = (branch: Branch): Branch => {
    let copy = copies.get(branch);
    if (!copy) {
      copy = Array.isArray(branch) ? [...branch] : copyRecord(branch);
      copies.set(branch, copy);
    }
    return copy;
  };
  const root = copyOf(answer);
  for (const secret of hidden) {
    let source: Branch = answer;
    let target: Branch = root;
    secret.path.forEach((key, level) => {
      if (level === secret.path.length - 1) {
        setEntry(target, key, MASKED_VALUE);
        return;
      }
      const inner = entryOf(source, key) as Branch;
      const innerCopy = copyOf(inner);
      setEntry(target, key, innerCopy);
      source = inner;
      target = innerCopy;
    });
  }
  return { value: root, masked: hidden.length };
}

/** A copy that keeps a `__proto__` key as an own key, as the answer had it. */
function copyRecord(record: Record<string, unknown>): Record<string, unknown> {
  const copy: Record<string, unknown> = {};
  for (const key of Object.keys(record)) setEntry(copy, key, record[key]);
  return copy;
}

function entryOf(branch: Branch, key: string | number): unknown {
  return Array.isArray(branch) ? branch[key as number] : (branch as Record<string, unknown>)[key];
}

function setEntry(branch: Branch, key: string | number, value: unknown): void {
  if (Array.isArray(branch)) branch[key as number] = value;
  else if (key === '__proto__') Object.defineProperty(branch, key, { value, enumerable: true, writable: true, configurable: true });
  else (branch as Record<string, unknown>)[key] = value;
}

/** Masks the secret-looking values of an operator's input (for history, saved requests and exports): the same rule as answers. */
export function maskInput(input: unknown): unknown {
  const secrets = findSecrets(input);
  return maskAnswer(input, secrets, new Set()).value;
}

/** Values an export left out (masked): the operator types them again before a run. */
export function maskedInputPaths(input: unknown): string[] {
  const paths: string[] = [];
  const stack: { value: unknown; path: string }[] = [{ value: input, path: '' }];
  for (let next = stack.pop(); next; next = stack.pop()) {
    const { value, path } = next;
    if (value === MASKED_VALUE) paths.push(path);
    else if (isRecord(value) || Array.isArray(value))
      for (const [key, item] of Object.entries(value)) stack.push({ value: item, path: path === '' ? key : `${path}.${key}` });
  }
  return paths.sort();
}
