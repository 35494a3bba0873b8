import { type ReactNode, useId, useState } from 'react';
import { validateInput, type InputIssue } from '../../shared/input-validation.ts';
import type { InputSchema } from '../../shared/operations-console.ts';
import {
  type ChoiceValue,
  errorsByField,
  type FormField,
  listFromText,
  listText,
  numberFromText,
  valueAt,
  withValue,
} from './schema-form.ts';
import { MASKED_VALUE } from '../../shared/secret-fields.ts';

interface InputFormProps {
  schema: InputSchema | null;
  fields: readonly FormField[];
  input: unknown;
  onInput(input: unknown): void;
  /** Errors to show now (after a Run was refused); as the operator types, the fields check themselves. */
  errors: readonly InputIssue[];
}

/**
 * An operation's input: a form made from its schema, or the JSON itself (a toggle), both editing
 * the same value. The schema's errors show as the operator types, under the field they name.
 */
export function InputForm({ schema, fields, input, onInput, errors }: InputFormProps) {
  const [asJson, setAsJson] = useState(false);
  if (schema === null) return <p className="muted">This operation takes no input.</p>;
  const byField = errorsByField(fields, errors);
  const general = byField.get('') ?? [];
  return (
    <div className="console-input">
      <div className="section-bar">
        <h3 className="console-subtitle">Input</h3>
        {/* biome-ignore lint/a11y/useSemanticElements: toggle buttons, not a form: a fieldset would bring form semantics */}
        <div className="tabs" role="group" aria-label="Edit the input as">
          <button type="button" aria-pressed={!asJson} onClick={() => setAsJson(false)}>
            Form
          </button>
          <button type="button" aria-pressed={asJson} onClick={() => setAsJson(true)}>
            JSON
          </button>
        </div>
      </div>
      {asJson ? (
        <JsonEditor schema={schema} input={input} onInput={onInput} />
      ) : (
        <>
          {general.length > 0 && !(fields.length === 1 && fields[0]!.id === '') && (
            <ul className="field-error console-errors">
              {general.map((message) => (
                <li key={message}>{message}</li>
              ))}
            </ul>
          )}
          <Fields fields={fields} input={input} onInput={onInput} byField={byField} />
        </>
      )}
    </div>
  );
}

function Fields({
  fields,
  input,
  onInput,
  byField,
}: {
  fields: readonly FormField[];
  input: unknown;
  onInput(input: unknown): void;
  byField: Map<string, string[]>;
}) {
  return (
    <div className="console-fields">
      {fields.map((field) =>
        field.kind === 'group' ? (
          <fieldset key={field.id} className="console-group">
            <legend>
              {field.label}
              {field.required && <Required />}
            </legend>
            {field.description && <p className="field-hint">{field.description}</p>}
            <FieldErrors messages={byField.get(field.id)} />
            <Fields fields={field.fields} input={input} onInput={onInput} byField={byField} />
          </fieldset>
        ) : (
          <FieldInput key={field.id} field={field} input={input} onInput={onInput} messages={byField.get(field.id)} />
        ),
      )}
    </div>
  );
}

const Required = () => (
  <span className="console-required" title="Required">
    {' '}
    *<span className="visually-hidden"> (required)</span>
  </span>
);

function FieldErrors({ messages, id }: { messages: string[] | undefined; id?: string }) {
  if (!messages || messages.length === 0) return null;
  return (
    <p className="field-error" id={id}>
      {messages.join(' ')}
    </p>
  );
}

/** Text the operator typed that is not yet a value (a number half typed) stays as typed while the field has it. */
function useDraft(value: unknown, show: (value: unknown) => string): [string, (text: string, made: unknown) => void] {
  const [draft, setDraft] = useState<{ text: string; made: unknown } | null>(null);
  const text = draft && Object.is(draft.made, value) ? draft.text : show(value);
  return [text, (next, made) => setDraft({ text: next, made })];
}

function FieldInput({
  field,
  input,
  onInput,
  messages,
}: {
  field: Exclude<FormField, { kind: 'group' }>;
  input: unknown;
  onInput(input: unknown): void;
  messages: string[] | undefined;
}) {
  const id = useId();
  const value = valueAt(input, field.path);
  const set = (next: unknown) => onInput(withValue(input, field.path, next));
  const errorId = messages ? `${id}-error` : undefined;
  const common = { id, name: field.id || 'input', 'aria-invalid': messages ? true : undefined, 'aria-describedby': errorId };
  const leftOut = value === MASKED_VALUE;
  let control: ReactNode;
  switch (field.kind) {
    case 'boolean':
      control = field.required ? (
        <input {...common} type="checkbox" checked={value === true} onChange={(event) => set(event.target.checked)} />
      ) : (
        <ChoiceSelect common={common} options={[true, false]} nullable={field.nullable} value={value} onChange={set} />
      );
      break;
    case 'choice':
      control = <ChoiceSelect common={common} options={field.options} nullable={field.nullable} value={value} onChange={set} />;
      break;
    case 'list':
      control = <ListInput common={common} field={field} value={value} onChange={set} />;
      break;
    case 'json':
      control = <JsonValueInput common={common} value={value} onChange={set} />;
      break;
    case 'number':
    case 'integer':
      control = <NumberInput common={common} value={value} onChange={set} />;
      break;
    default:
      control = (
        <input
          {...common}
          type={field.secret && !leftOut ? 'password' : 'text'}
          autoComplete="off"
          spellCheck={false}
          value={typeof value === 'string' ? value : value === null ? '' : value === undefined ? '' : String(value)}
          onChange={(event) => set(event.target.value === '' && !field.required ? undefined : event.target.value)}
        />
      );
  }
  return (
    <div className={field.kind === 'boolean' && field.required ? 'field console-field console-check' : 'field console-field'}>
      <label className="field-label" htmlFor={id}>
        <span className="console-field-name">{field.label}</span>
        {field.required && <Required />}
        <span className="console-field-kind muted"> {kindLabel(field)}</span>
      </label>
      {control}
      {field.description && <p className="field-hint">{field.description}</p>}
      {leftOut && <p className="field-hint">Left out of the saved request: a secret. Type it again.</p>}
      <FieldErrors messages={messages} id={errorId} />
    </div>
  );
}

function kindLabel(field: FormField): string {
  switch (field.kind) {
    case 'list':
      return `list of ${field.item === 'text' ? 'text' : field.item === 'choice' ? 'choices' : 'numbers'}, one per line`;
    case 'json':
      return 'JSON';
    case 'choice':
      return 'choice';
    case 'integer':
      return 'whole number';
    default:
      return field.kind;
  }
}

type Common = { id: string; name: string; 'aria-invalid': boolean | undefined; 'aria-describedby': string | undefined };

function ChoiceSelect({
  common,
  options,
  nullable,
  value,
  onChange,
}: {
  common: Common;
  options: readonly ChoiceValue[];
  nullable: boolean;
  value: unknown;
  onChange(value: unknown): void;
}) {
  const all = nullable && !options.includes(null) ? [...options, null] : options;
  // Any value: one that is none of the options finds none (-1), which shows "(not set)".
  const index = all.indexOf(value as ChoiceValue);
  return (
    <select
      {...common}
      value={index}
      onChange={(event) => onChange(Number(event.target.value) < 0 ? undefined : all[Number(event.target.value)])}
    >
      <option value={-1}>(not set)</option>
      {all.map((option, at) => (
        <option key={JSON.stringify(option)} value={at}>
          {typeof option === 'string' ? option : JSON.stringify(option)}
        </option>
      ))}
    </select>
  );
}

function NumberInput({ common, value, onChange }: { common: Common; value: unknown; onChange(value: unknown): void }) {
  const [text, setText] = useDraft(value, (shown) => (shown === undefined || shown === null ? '' : String(shown)));
  return (
    <input
      {...common}
      type="text"
      inputMode="decimal"
      value={text}
      onChange={(event) => {
        const made = numberFromText(event.target.value);
        setText(event.target.value, made);
        onChange(made);
      }}
    />
  );
}

function ListInput({
  common,
  field,
  value,
  onChange,
}: {
  common: Common;
  field: Extract<FormField, { kind: 'list' }>;
  value: unknown;
  onChange(value: unknown): void;
}) {
  const [text, setText] = useDraft(value, listText);
  return (
    <textarea
      {...common}
      rows={3}
      spellCheck={false}
      value={text}
      onChange={(event) => {
        const made = listFromText(event.target.value, field.item);
        setText(event.target.value, made);
        onChange(made);
      }}
    />
  );
}

/** One field's value as JSON (what a form cannot draw): kept as typed until it reads as JSON. */
function JsonValueInput({ common, value, onChange }: { common: Common; value: unknown; onChange(value: unknown): void }) {
  const [text, setText] = useDraft(value, (shown) => (shown === undefined ? '' : JSON.stringify(shown, null, 2)));
  const [problem, setProblem] = useState<string | null>(null);
  return (
    <>
      <textarea
        {...common}
        className="console-json"
        rows={3}
        spellCheck={false}
        value={text}
        onChange={(event) => {
          const parsed = parseJson(event.target.value);
          setProblem(parsed.problem);
          // Half-typed JSON keeps the value it had: the text stays as typed while that value does.
          setText(event.target.value, parsed.problem === null ? parsed.value : value);
          if (parsed.problem === null) onChange(parsed.value);
        }}
      />
      {problem && <p className="field-error">{problem}</p>}
    </>
  );
}

function parseJson(text: string): { value: unknown; problem: string | null } {
  if (text.trim() === '') return { value: undefined, problem: null };
  try {
    return { value: JSON.parse(text), problem: null };
  } catch (error) {
    return { value: undefined, problem: `Not JSON yet: ${error instanceof Error ? error.message : String(error)}` };
  }
}

/** The whole input as JSON, with the schema's errors listed as the operator types. */
function JsonEditor({ schema, input, onInput }: { schema: InputSchema; input: unknown; onInput(input: unknown): void }) {
  const [text, setText] = useState(() => (input === undefined ? '' : JSON.stringify(input, null, 2)));
  const parsed = parseJson(text);
  const errors = parsed.problem === null ? validateInput(schema, parsed.value) : [];
  return (
    <div className="field">
      <label className="field-label" htmlFor="console-json-input">
        The input as JSON
      </label>
      <textarea
        id="console-json-input"
        className="console-json"
        rows={10}
        spellCheck={false}
        value={text}
        aria-invalid={parsed.problem !== null || errors.length > 0 ? true : undefined}
        aria-describedby="console-json-errors"
        onChange={(event) => {
          setText(event.target.value);
          const next = parseJson(event.target.value);
          if (next.problem === null) onInput(next.value);
        }}
      />
      <div id="console-json-errors" role="status">
        {parsed.problem ? (
          <p className="field-error">{parsed.problem}</p>
        ) : errors.length > 0 ? (
          <ul className="field-error console-errors" aria-label="What the schema says is wrong">
            {errors.map((error) => (
              <li key={`${error.path}:${error.message}`}>{error.path === '' ? error.message : `${error.path}: ${error.message}`}</li>
            ))}
          </ul>
        ) : (
          <p className="muted">Matches the operation's schema.</p>
        )}
      </div>
    </div>
  );
}
