/**
 * `fields` without those whose value is undefined: what a change or an import entry that names
 * every field, undefined where it gives none, sets. Spread over a record, an undefined value would
 * blank the field instead of leaving it as it is.
 */
export function withoutUndefined<T extends object>(fields: T): { [Field in keyof T]?: Exclude<T[Field], undefined> } {
  const given: { [Field in keyof T]?: Exclude<T[Field], undefined> } = {};
  for (const field of Object.keys(fields) as (keyof T)[]) {
    const value = fields[field];
    if (value !== undefined) given[field] = value as Exclude<T[typeof field], undefined>;
  }
  return given;
}
