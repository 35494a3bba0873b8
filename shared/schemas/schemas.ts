import { FLEET_SHARED_FIELDS, type FleetSharedField } from '../fleet-file.ts';
import { FLEET_FILE_LIMITS } from '../fleet-file.ts';
import { z } from 'zod';
import { cleanGroup, cleanTags, groupProblem, LABEL_LIMITS, PANEL_COLOURS, PANEL_NAME_MAX, tagProblem } from '../labels.ts';
import { MAX_COLLAPSED_GROUPS, SETTING_LIMITS, type NumericSetting } from '../settings.ts';
import { formatBytes } from '../sizes.ts';
import { TIMELINE_BOUND } from '../timeline.ts';
import { IMPORT_MAX_BYTES, IMPORT_MAX_ENTRIES } from '../transfer.ts';
import { TEXT_FILE_KINDS, TEXT_FILE_MAX_BYTES } from '../text-files.ts';
import { tableLayoutFields } from './panel-list-schemas.ts';
import { UPGRADE_CANARY_MAX, UPGRADE_PANELS_MAX, UPGRADE_WAVE_MAX } from '../upgrades.ts';
import { ACTIVITY_KEPT, GENERATIONS, LIST_SORTS, THEMES, type PanelSettings } from '../types.ts';

/**
 * Runtime schemas for every argument of the contract. Main parses everything that arrives
 * with these; the shapes the core deeper down relies on (address, login path) are validated
 * again, more precisely, where they are interpreted.
 */

const noControlChars = /^[^\p{Cc}]*$/u;

export const panelIdSchema = z.uuid({ error: 'Panel id must be a UUID.' });

export const panelNameSchema = z
  .string({ error: 'Name must be text.' })
  .trim()
  .min(1, { error: 'Name cannot be empty.' })
  .max(PANEL_NAME_MAX, { error: `Name is too long (${PANEL_NAME_MAX} characters at most).` })
  .regex(noControlChars, { error: 'Name cannot contain control characters.' });

export const addressSchema = z
  .string({ error: 'Address must be text.' })
  .max(2048, { error: 'Address is too long (2048 characters at most).' });

/** The operator's explicit choice of plain http:// for a panel that is not on this computer. */
export const allowPlainHttpSchema = z.boolean({ error: 'Allow unencrypted HTTP must be true or false.' });

/** `null` puts the default back (`/login`). */
export const loginPathSchema = z
  .string({ error: 'Login path must be text.' })
  .max(512, { error: 'Login path is too long (512 characters at most).' })
  .nullable();

/** `null` puts the generation's default back (`/getSession`, `/trpc/auth.getSession`). */
export const sessionPathSchema = z
  .string({ error: 'Session path must be text.' })
  .max(512, { error: 'Session path is too long (512 characters at most).' })
  .nullable();

export const generationSchema = z.enum(GENERATIONS, { error: 'Generation must be "public", "rpc" or "trpc".' });

/** A dot path such as `data.auth.token`; `null` or an empty string means automatic. */
export const tokenFieldSchema = z
  .string({ error: 'Token field must be text.' })
  .trim()
  .max(256, { error: 'Token field is too long (256 characters at most).' })
  .regex(/^$|^[A-Za-z0-9_$-]+(\.[A-Za-z0-9_$-]+)*$/, {
    error: 'Token field must be a dot path of names, like data.auth.token.',
  })
  .nullable()
  .transform((value) => (value === '' ? null : value));

/** A group for the panel (e.g. a client); `null` or empty text for none. */
export const groupSchema = z
  .string({ error: 'Group must be text.' })
  .max(LABEL_LIMITS.groupLength * 4, { error: `Group is too long (${LABEL_LIMITS.groupLength} characters at most).` })
  .nullable()
  .transform((value, context) => {
    const group = cleanGroup(value);
    const problem = group === null ? null : groupProblem(group);
    if (problem) context.addIssue({ code: 'custom', message: problem });
    return group;
  });

export const tagsSchema = z
  .array(
    z
      .string({ error: 'Each tag must be text.' })
      .max(LABEL_LIMITS.tagLength * 4, { error: `A tag is too long (${LABEL_LIMITS.tagLength} characters at most).` }),
    {
      error: 'Tags must be a list of text.',
    },
  )
  .max(LABEL_LIMITS.tags * 4, { error: `Too many tags (${LABEL_LIMITS.tags} at most).` })
  .transform((values, context) => {
    const tags = cleanTags(values);
    const problem =
      tags.length > LABEL_LIMITS.tags
        ? `Too many tags (${LABEL_LIMITS.tags} at most).`
        : tags.map(tagProblem).find((found) => found !== null);
    if (problem) context.addIssue({ code: 'custom', message: problem });
    return tags;
  });

export const colourSchema = z.enum(PANEL_COLOURS, { error: `Colour must be one of ${PANEL_COLOURS.join(', ')}, or null.` }).nullable();

export const favouriteSchema = z.boolean({ error: 'Favourite must be true or false.' });
export const mutedSchema = z.boolean({ error: 'Muted must be true or false.' });
export const readOnlySchema = z.boolean({ error: 'Read-only must be true or false.' });
export const notesSchema = z
  .string({ error: 'Notes must be text.' })
  .max(FLEET_FILE_LIMITS.notesLength, { error: `Notes are too long (${FLEET_FILE_LIMITS.notesLength} characters at most).` });

/** "Keep me signed in": ask the panel for its long session at log in. */
export const keepSignedInSchema = z.boolean({ error: 'Keep me signed in must be true or false.' });

export const addPanelInputSchema = z.strictObject(
  {
    address: addressSchema,
    allowPlainHttp: allowPlainHttpSchema.optional(),
    // An empty name from a form means "name it after the address".
    name: z.union([z.literal(''), panelNameSchema]).optional(),
    group: groupSchema.optional(),
    tags: tagsSchema.optional(),
    colour: colourSchema.optional(),
    favourite: favouriteSchema.optional(),
    readOnly: readOnlySchema.optional(),
    notes: notesSchema.optional(),
  },
  { error: 'Expected { address, name?, allowPlainHttp?, group?, tags?, colour?, favourite?, readOnly?, notes? }.' },
);

/**
 * What the panel settings change: every setting of `PanelSettings` but the trusted certificate
 * (trustCertificate's and forgetCertificate's), and the address. A new setting makes the compiler ask for its schema.
 */
export const updatePanelInputSchema = z.strictObject(
  {
    name: panelNameSchema.optional(),
    address: addressSchema.optional(),
    allowPlainHttp: allowPlainHttpSchema.optional(),
    generation: generationSchema.optional(),
    loginPath: loginPathSchema.optional(),
    sessionPath: sessionPathSchema.optional(),
    tokenField: tokenFieldSchema.optional(),
    group: groupSchema.optional(),
    tags: tagsSchema.optional(),
    colour: colourSchema.optional(),
    favourite: favouriteSchema.optional(),
    keepSignedIn: keepSignedInSchema.optional(),
    muted: mutedSchema.optional(),
    readOnly: readOnlySchema.optional(),
    notes: notesSchema.optional(),
  } satisfies Record<Exclude<keyof PanelSettings, 'trustedCertificate'> | 'address' | 'muted', z.ZodType>,
  {
    error:
      'Expected { name?, address?, allowPlainHttp?, generation?, loginPath?, sessionPath?, tokenField?, group?, tags?, colour?, favourite?, keepSignedIn?, muted?, readOnly?, notes? }.',
  },
);

export const credentialsSchema = z.strictObject(
  {
    email: z
      .string({ error: 'Email must be text.' })
      .trim()
      .min(1, { error: 'Enter the email you log in to this panel with.' })
      .max(320, { error: 'Email is too long (320 characters at most).' })
      .regex(/^[^\s\p{Cc}]+$/u, { error: 'Email cannot contain spaces.' }),
    password: z
      .string({ error: 'Password must be text.' })
      .min(1, { error: 'Enter the password.' })
      .max(4096, { error: 'Password is too long (4096 characters at most).' }),
    /** The second factor, sent only when the panel asked for it (TWO_FACTOR_REQUIRED). */
    code: z
      .string({ error: 'Authentication code must be text.' })
      .max(64, { error: 'Authentication code is too long: enter the 6 to 8 digits your authenticator app shows.' })
      // Authenticator apps show "123 456": the space is how it reads, not part of the code.
      .transform((value) => value.replace(/\s/g, ''))
      .pipe(z.string().regex(/^[0-9]{6,8}$/, { error: 'Authentication code must be the 6 to 8 digits your authenticator app shows.' }))
      .optional(),
    /**
     * "Keep me signed in": sent to the panel as `rememberMe: true`, and remembered as the panel's
     * `keepSignedIn`. Absent: the panel's remembered choice.
     */
    rememberMe: keepSignedInSchema.optional(),
  },
  { error: 'Expected { email, password, code?, rememberMe? }.' },
);

/**
 * A long-lived API token made in Easypanel (Settings, Users, API token), pasted by the operator.
 * Spaces and line breaks around it (a copy from a terminal) are dropped; none may be inside it.
 */
export const apiTokenInputSchema = z.strictObject(
  {
    token: z
      .string({ error: 'The API token must be text.' })
      .trim()
      .min(1, { error: 'Paste the API token you made in Easypanel (Settings, Users, API token).' })
      .max(4096, { error: 'This is too long to be an API token (4096 characters at most).' })
      .regex(/^[^\s\p{Cc}]+$/u, { error: 'An API token has no spaces or line breaks inside it: paste only the token.' }),
  },
  { error: 'Expected { token }.' },
);

/**
 * Another account for a panel, signed in beside its own: an email and password (with the code once
 * the panel asks for one), or a pasted API token. Its token stays in main, like the panel's.
 */
export const accountInputSchema = z.discriminatedUnion(
  'kind',
  [
    credentialsSchema.omit({ rememberMe: true }).extend({ kind: z.literal('password') }),
    apiTokenInputSchema.extend({ kind: z.literal('apiToken') }),
  ],
  { error: "Expected { kind: 'password', email, password, code? } or { kind: 'apiToken', token }." },
);

export const accountIdSchema = z.uuid({ error: 'The account id must be a UUID.' });

const wholeNumber = (what: string, name: NumericSetting) => {
  const { min, max } = SETTING_LIMITS[name];
  return z
    .number({ error: `${what} must be a number.` })
    .int({ error: `${what} must be a whole number.` })
    .min(min, { error: `${what} must be at least ${min}.` })
    .max(max, { error: `${what} must be at most ${max}.` });
};

export const appSettingsPatchSchema = z.strictObject(
  {
    storeTokensWithWeakProtection: z.boolean({ error: 'Store tokens with weak protection must be true or false.' }).optional(),
    checkConcurrency: wholeNumber('Checks at once', 'checkConcurrency').optional(),
    checkIntervalMinutes: wholeNumber('Check interval', 'checkIntervalMinutes').optional(),
    expiryWarningMinutes: wholeNumber('Warning before expiry', 'expiryWarningMinutes').optional(),
    notifyBeforeExpiry: z.boolean({ error: 'Notify before expiry must be true or false.' }).optional(),
    diskAlertPercent: wholeNumber('Disk alert threshold', 'diskAlertPercent').optional(),
    certificateAlertDays: wholeNumber('Certificate alert', 'certificateAlertDays').optional(),
    notifyServiceDown: z.boolean({ error: 'Notify when a service goes down must be true or false.' }).optional(),
    notifyDiskFull: z.boolean({ error: 'Notify when a disk passes the threshold must be true or false.' }).optional(),
    notifyUnreachable: z.boolean({ error: 'Notify when a panel stops answering must be true or false.' }).optional(),
    requestTimeoutSeconds: wholeNumber('Request timeout', 'requestTimeoutSeconds').optional(),
    theme: z.enum(THEMES, { error: `Theme must be one of ${THEMES.join(', ')}.` }).optional(),
    // Empty text clears it.
    defaultEmail: z
      .string({ error: 'Default email must be text.' })
      .trim()
      .max(320, { error: 'Default email is too long (320 characters at most).' })
      .refine((value) => value === '' || /^[^\s@]+@[^\s@]+$/.test(value), { error: 'Default email must look like name@example.com.' })
      .transform((value) => (value === '' ? null : value))
      .nullable()
      .optional(),
    panelList: z
      .strictObject(
        {
          selectedPanelId: panelIdSchema.nullable(),
          sort: z.enum(LIST_SORTS, { error: `Sort must be one of ${LIST_SORTS.join(', ')}.` }),
          attentionOnly: z.boolean({ error: 'Needs attention must be true or false.' }),
          collapsedGroups: z
            .array(z.string({ error: 'A folded group must be text.' }).max(240, { error: 'A folded group name is too long.' }))
            .max(MAX_COLLAPSED_GROUPS, { error: `At most ${MAX_COLLAPSED_GROUPS} folded groups are kept.` }),
          ...tableLayoutFields,
        },
        { error: 'Expected { selectedPanelId, sort, attentionOnly, collapsedGroups, layout?, paneWidth?, table?, servicesGroupBy? }.' },
      )
      .optional(),
  },
  {
    error:
      'Expected { storeTokensWithWeakProtection?, checkConcurrency?, checkIntervalMinutes?, expiryWarningMinutes?, notifyBeforeExpiry?, requestTimeoutSeconds?, theme?, defaultEmail?, panelList? }.',
  },
);

/** Which certificate to trust: the fingerprint the operator was shown. */
export const trustCertificateInputSchema = z.strictObject(
  {
    sha256: z.string({ error: 'The fingerprint must be text.' }).regex(/^(?:[0-9A-F]{2}:){31}[0-9A-F]{2}$/, {
      error: 'The fingerprint must be a SHA-256 fingerprint (32 hex pairs joined by colons).',
    }),
  },
  { error: 'Expected { sha256 }.' },
);

/** An alert's id as the core makes it: the time it was raised in milliseconds, a dash, a sequence number. */
export const alertIdSchema = z
  .string({ error: 'Alert id must be text.' })
  .regex(/^\d{1,16}-\d{1,12}$/, { error: 'Alert id must be an id from the alert list.' });

/** `undefined` checks every signed-in panel. */
export const panelIdsSchema = z
  .array(panelIdSchema, { error: 'Expected a list of panel ids.' })
  .max(100_000, { error: 'Too many panel ids (100,000 at most).' })
  .optional();

/** The panels a change to several panels at once is for. */
export const chosenPanelIdsSchema = z
  .array(panelIdSchema, { error: 'Expected a list of panel ids.' })
  .min(1, { error: 'Choose at least one panel.' })
  .max(100_000, { error: 'Too many panel ids (100,000 at most).' });

/** A followed fleet file's id, as `listFleetFiles` gives it. */
export const fleetFileIdSchema = z.uuid({ error: 'Fleet file id must be a UUID.' });

/** A conflict of a fleet file (`FleetFileInfo.conflicts`), by its panel's address and field, and which side the operator keeps. */
export const fleetConflictChoiceSchema = z.strictObject(
  {
    address: z.string({ error: 'The address must be text.' }).min(1).max(2048),
    field: z.enum(FLEET_SHARED_FIELDS as [FleetSharedField, ...FleetSharedField[]], { error: 'Not a field a fleet file shares.' }),
    keep: z.enum(['here', 'file'], { error: "Keep is 'here' or 'file'." }),
  },
  { error: "Expected { address, field, keep: 'here' | 'file' }." },
);
export type FleetConflictChoice = z.input<typeof fleetConflictChoiceSchema>;

/** The panels of an upgrade run, each once, and how the run is cut into waves. */
export const upgradePanelIdsSchema = chosenPanelIdsSchema
  .max(UPGRADE_PANELS_MAX, { error: `Too many panels for one run (${UPGRADE_PANELS_MAX.toLocaleString('en-US')} at most).` })
  .refine((ids) => new Set(ids).size === ids.length, { error: 'Each panel may be named once.' });

export const upgradeOptionsSchema = z.strictObject(
  {
    canary: z
      .int()
      .min(0)
      .max(UPGRADE_CANARY_MAX, { error: `At most ${UPGRADE_CANARY_MAX} panels first, alone.` }),
    waveSize: z
      .int()
      .min(1)
      .max(UPGRADE_WAVE_MAX, { error: `At most ${UPGRADE_WAVE_MAX} panels a wave.` }),
  },
  { error: 'Expected how the run is cut: { canary, waveSize }.' },
);

/**
 * One log in to several panels: the same email and password for each. Panels on plain http://
 * get the password only when named in `sendOverPlainHttp`, the ones the form showed the operator.
 */
export const fleetLogInInputSchema = z.strictObject(
  {
    email: credentialsSchema.shape.email,
    password: credentialsSchema.shape.password,
    rememberMe: credentialsSchema.shape.rememberMe,
    sendOverPlainHttp: z
      .array(panelIdSchema, { error: 'Expected a list of panel ids.' })
      .max(100_000, { error: 'Too many panel ids (100,000 at most).' })
      .optional(),
  },
  { error: 'Expected { email, password, rememberMe?, sendOverPlainHttp? }.' },
);

/** A copy of a panel's settings at another address (two panels never share one). */
export const duplicatePanelInputSchema = z.strictObject(
  {
    address: addressSchema,
    name: z.union([z.literal(''), panelNameSchema]).optional(),
    allowPlainHttp: allowPlainHttpSchema.optional(),
  },
  { error: 'Expected { address, name?, allowPlainHttp? }.' },
);

/** What one change to several panels does: tags are added and removed, the rest is set. */
export const bulkChangeSchema = z.strictObject(
  {
    group: groupSchema.optional(),
    addTags: tagsSchema.optional(),
    removeTags: tagsSchema.optional(),
    colour: colourSchema.optional(),
    favourite: favouriteSchema.optional(),
    muted: mutedSchema.optional(),
  },
  { error: 'Expected { group?, addTags?, removeTags?, colour?, favourite?, muted? }.' },
);

export const importSourceSchema = z.discriminatedUnion(
  'from',
  [
    z.strictObject({ from: z.literal('file') }),
    z.strictObject({
      from: z.literal('text'),
      text: z.string({ error: 'The pasted text must be text.' }).max(IMPORT_MAX_BYTES, {
        error: `The pasted text is too long (${formatBytes(IMPORT_MAX_BYTES)} at most). Import it from a file, or in parts.`,
      }),
    }),
  ],
  { error: 'Expected { from: "file" } or { from: "text", text }.' },
);

export const importChoiceSchema = z.strictObject(
  {
    duplicates: z.enum(['skip', 'update'], { error: 'Duplicates must be "skip" or "update".' }),
    plainHttpRows: z
      .array(z.int({ error: 'Plain HTTP rows must be row numbers.' }).nonnegative({ error: 'Plain HTTP rows must be row numbers.' }), {
        error: 'Plain HTTP rows must be a list of row numbers.',
      })
      .max(IMPORT_MAX_ENTRIES, { error: `Plain HTTP rows may name up to ${IMPORT_MAX_ENTRIES.toLocaleString('en')} rows.` })
      .optional(),
  },
  { error: 'Expected { duplicates, plainHttpRows? }.' },
);

export const importPreviewIdSchema = z.uuid({ error: 'The import preview id must be a UUID.' });

export type AddPanelInput = z.input<typeof addPanelInputSchema>;
export type DuplicatePanelInput = z.input<typeof duplicatePanelInputSchema>;
export type BulkChange = z.input<typeof bulkChangeSchema>;
export type UpdatePanelInput = z.input<typeof updatePanelInputSchema>;
export type Credentials = z.input<typeof credentialsSchema>;
export type FleetLogInInput = z.input<typeof fleetLogInInputSchema>;
export type ApiTokenInput = z.input<typeof apiTokenInputSchema>;
export type AccountInput = z.input<typeof accountInputSchema>;
export type AppSettingsPatch = z.input<typeof appSettingsPatchSchema>;
export type TrustCertificateInput = z.input<typeof trustCertificateInputSchema>;

/** A list's query: one panel's entries, or all; the newest `limit`, up to the list's `bound`. */
function panelListQuerySchema(bound: number) {
  return z
    .object({
      panelId: panelIdSchema.optional(),
      limit: z
        .number({ error: 'Limit must be a number.' })
        .int({ error: 'Limit must be a whole number.' })
        .min(1, { error: 'Limit must be at least 1.' })
        .max(bound, { error: `Limit is too large (${bound.toLocaleString('en')} at most).` })
        .optional(),
    })
    .strict()
    .optional();
}

/** How to list a fleet-wide read kept a day (the certificates, the backups): `refresh` reads it now, not the day's kept read. */
export const refreshQuerySchema = z
  .strictObject({ refresh: z.boolean({ error: 'Refresh must be true or false.' }).optional() }, { error: 'A query is { refresh? }.' })
  .optional();
export const certificateQuerySchema = refreshQuerySchema;
export type CertificateQuery = z.input<typeof certificateQuerySchema>;

/** Which entries of the activity log to list. */
export const activityQuerySchema = panelListQuerySchema(ACTIVITY_KEPT);
export type ActivityQuery = z.input<typeof activityQuerySchema>;

/** Which entries of the timeline to list. */
export const timelineQuerySchema = panelListQuerySchema(TIMELINE_BOUND);
export type TimelineQuery = z.input<typeof timelineQuerySchema>;

/** A file name the save dialog offers: no folder, no control characters, a known extension. */
export const textFileToSaveSchema = z.strictObject(
  {
    name: z.string().regex(/^[\p{L}\p{N}_][\p{L}\p{N}_ .()-]{0,99}\.(csv|json)$/u, {
      error: 'The file name must be up to 100 letters, digits, spaces or ._()- and end in .csv or .json.',
    }),
    text: z.string().max(TEXT_FILE_MAX_BYTES, { error: 'The text is larger than 16 MiB: save a smaller selection.' }),
  },
  { error: 'A file to save is { name, text }.' },
);

export const textFileKindSchema = z.enum(TEXT_FILE_KINDS, { error: 'The kind of file must be "csv" or "json".' });
