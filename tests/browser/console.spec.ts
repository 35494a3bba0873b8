import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { DEMO_USER, type PanelStyle, type ReferencePanel, startReferencePanel } from '../support/reference-panel/server.ts';
import type { AppUnderTest } from './app-harness.ts';
import { answerInMain, expect, test } from './fixtures.ts';
import { checkScreenBothSizes } from './screens.ts';

/**
 * The API console in the window, against reference panels of three generations serving their own
 * /api/openapi.json: a panel's catalogue searched, a form run, an answer whose secrets show masked
 * until one is revealed, the JSON editor's schema errors, a write's one confirmation (typed for a
 * red panel) and its activity entry; and the same read across the three panels into a table and a
 * CSV, and a write across them asked once with every panel listed.
 */

const GENERATIONS: { style: Exclude<PanelStyle, 'simple'>; name: string; listUsers: string; createProject: string }[] = [
  { style: 'trpc', name: 'Alpha tRPC', listUsers: 'users.listUsers', createProject: 'projects.createProject' },
  { style: 'rpc', name: 'Bravo RPC', listUsers: 'users.listUsers', createProject: 'projects.createProject' },
  { style: 'public', name: 'Charlie public', listUsers: 'listUsers', createProject: 'createProject' },
];

let servers: ReferencePanel[] = [];
test.afterEach(async () => {
  await Promise.all(servers.map((server) => server.close()));
  servers = [];
});

/** The three panels signed in through main (the log in form has its own tests); Charlie is red. */
async function threePanels(app: AppUnderTest): Promise<string[]> {
  const ids: string[] = [];
  for (const generation of GENERATIONS) {
    // About as many operations as a real panel's catalogue offers (~375).
    const server = await startReferencePanel({ style: generation.style, catalogue: { extraOperations: 340 } });
    servers.push(server);
    const panel = await app.core.addPanel({ address: server.url, name: generation.name });
    await app.core.logIn(panel.id, { email: DEMO_USER.email, password: DEMO_USER.password });
    ids.push(panel.id);
  }
  await app.core.updatePanel(ids[2]!, { colour: 'red' });
  return ids;
}

async function openConsole(page: Page, name: string) {
  await page
    .getByRole('navigation', { name: 'Panels' })
    .getByRole('treeitem', { name: new RegExp(name) })
    .click();
  await page.getByRole('group', { name: 'Panel view' }).getByRole('button', { name: 'Console', exact: true }).click();
  const operations = page.getByRole('region', { name: 'Operations' });
  await expect(operations.getByRole('status')).toContainText('operations');
  return operations;
}

const pick = (page: Page, name: string) =>
  page
    .getByRole('region', { name: 'Operations' })
    .getByRole('button', { name: new RegExp(`^(Read|Write) ${name.replace('.', '\\.')}(\\s|$)`) })
    .click();

test('a panel’s console in each generation: the catalogue, a form, an answer with a secret revealed, a write asked once and logged', async ({
  page,
  launch,
  confirmations,
}) => {
  const app = await launch(page);
  await threePanels(app);

  for (const [index, generation] of GENERATIONS.entries()) {
    const operations = await openConsole(page, generation.name);
    // The catalogue, searched by name and summary, read and write marked.
    await operations.getByRole('searchbox', { name: 'Search the operations' }).fill('users');
    await expect(operations.getByRole('button', { name: new RegExp(generation.listUsers.replace('.', '\\.')) })).toBeVisible();
    if (index === 0) await checkScreenBothSizes(page, 'console-01-catalogue');

    // A read with no input: the answer, its status, and each secret masked until revealed.
    await pick(page, generation.listUsers);
    await page.getByRole('button', { name: 'Run', exact: true }).click();
    const answer = page.getByRole('region', { name: 'Answer' });
    await expect(answer.locator('.console-status')).toHaveText('200');
    const tree = answer.getByRole('list', { name: 'The answer' });
    if (
      !(await tree
        .getByRole('button', { name: /^Reveal / })
        .first()
        .isVisible())
    )
      await tree.getByRole('button', { name: /^0 / }).click();
    await expect(tree).toContainText('••••');
    await expect(tree).not.toContainText('demo-api-token');
    await expect(tree).not.toContainText('$2b$');
    if (index === 0) await checkScreenBothSizes(page, 'console-02-answer-masked');
    await tree.getByRole('button', { name: 'Reveal apiToken' }).first().click();
    await expect(tree).toContainText('demo-api-token');
    await expect(tree).not.toContainText('$2b$');
    if (index === 0) await checkScreenBothSizes(page, 'console-03-secret-revealed');
    await expect(page.getByRole('list', { name: 'Calls made on this panel, newest first' }).getByRole('listitem')).toHaveCount(1);
  }

  // A form made from the schema (Alpha: tRPC): fields of each kind, an error as typed, required marked.
  await openConsole(page, 'Alpha tRPC');
  await page.getByRole('searchbox', { name: 'Search the operations' }).fill('list actions');
  await pick(page, 'actions.listActions');
  const request = page.getByRole('form', { name: /Request actions\.listActions/ });
  await request.getByLabel(/^projectName/).fill('Not A Name!');
  await request.getByLabel(/^type/).selectOption('build');
  await request.getByLabel(/^limit/).fill('500');
  await expect(request).toContainText('At most 100.');
  await checkScreenBothSizes(page, 'console-04-form-errors');
  await request.getByLabel(/^limit/).fill('5');
  await request.getByLabel(/^projectName/).fill('shop');
  await request.getByRole('button', { name: 'JSON' }).click();
  const json = request.getByLabel('The input as JSON');
  await expect(json).toHaveValue(/"projectName": "shop"/);
  await json.fill('{ "projectName": 5, "limit": 0 }');
  await expect(request.getByRole('list', { name: 'What the schema says is wrong' })).toContainText('projectName: Must be a string.');
  await checkScreenBothSizes(page, 'console-05-json-errors');

  // A write on the red panel (Charlie): main's one confirmation naming the operation, the panel, the
  // request and its input; the panel's name typed there.
  await openConsole(page, 'Charlie public');
  await page.getByRole('searchbox', { name: 'Search the operations' }).fill('createProject');
  await pick(page, 'createProject');
  await page
    .getByRole('form', { name: /Request createProject/ })
    .getByLabel(/^name/)
    .fill('console-made');
  await page.getByRole('button', { name: 'Run…' }).click();
  await expect(page.getByRole('dialog')).toHaveCount(0);
  await answerInMain(confirmations, {
    title: 'Call createProject on Charlie public',
    inspect: async (asked) => {
      const sent = asked.getByRole('region', { name: 'What will be sent' });
      await expect(sent.getByRole('listitem')).toContainText('createProject, with this input');
      await expect(sent.getByRole('listitem')).toContainText('POST /api/createProject');
      await expect(sent.locator('pre')).toHaveText('{\n  "name": "console-made"\n}');
      await expect(asked.getByRole('button', { name: 'Send', exact: true })).toBeDisabled();
      expect(servers[2]!.services.projects().some((project) => project.name === 'console-made')).toBe(false);
      await asked.getByLabel('Type Charlie public to confirm').fill('Charlie public');
      await checkScreenBothSizes(asked, 'console-06-write-confirmation');
    },
  });
  await expect(page.getByRole('region', { name: 'Answer' }).locator('.console-status')).toHaveText('200');
  expect(servers[2]!.services.projects().some((project) => project.name === 'console-made')).toBe(true);

  // Its activity entry.
  await page.getByRole('navigation', { name: 'Panels' }).getByRole('button', { name: 'Activity' }).click();
  const activity = page.getByRole('region', { name: 'Activity, newest first' });
  await expect(activity.getByRole('listitem').first()).toContainText('createProject');
  await expect(activity.getByRole('listitem').first()).toContainText('Charlie public');
  await checkScreenBothSizes(page, 'console-07-activity');
  expect(JSON.stringify(app.answers)).not.toContain(servers[0]!.issuedTokens()[0]);
});

test('the same read across three panels: progress, a sortable table and its CSV; a write across them asked once, typed', async ({
  page,
  launch,
  dataDir,
  confirmations,
}) => {
  // Main's save dialog, answered with a file beside the data folder.
  const csvFile = join(dataDir, '..', `results-${Date.now()}.csv`);
  const app = await launch(page, { core: { chooseExportFile: async () => csvFile } });
  await threePanels(app);
  await page.getByRole('navigation', { name: 'Panels' }).getByRole('button', { name: 'Fleet console' }).click();
  const view = page.getByRole('region', { name: 'Console across panels' });
  await expect(view.getByRole('region', { name: 'Panels to run on' }).getByRole('status')).toHaveText('3 of 3 signed-in panels chosen');
  await view.getByLabel(/^Operation/).fill('users.listUsers');
  await view.getByLabel('Value to show (JSON path)').fill('[0].email');
  await view.getByRole('button', { name: 'Run on 3 panels' }).click();
  await expect(view.getByRole('status').filter({ hasText: /of 3$/ })).toHaveText('3 of 3');
  const table = view.getByRole('table');
  await expect(table.getByRole('row')).toHaveCount(4);
  for (const generation of GENERATIONS)
    await expect(table.getByRole('row', { name: new RegExp(generation.name) })).toContainText(DEMO_USER.email);
  // A path typed after the run does not relabel the values read at the old one.
  await view.getByLabel('Value to show (JSON path)').fill('0.name');
  await expect(table.getByRole('columnheader').filter({ hasText: /^Value/ })).toContainText('[0].email');
  await view.getByLabel('Value to show (JSON path)').fill('[0].email');
  await table.getByRole('button', { name: /^Panel/ }).click();
  await expect(table.getByRole('row').nth(1)).toContainText('Charlie public');
  await checkScreenBothSizes(page, 'console-08-fleet-table');

  await page.context().grantPermissions(['clipboard-read'], { origin: new URL(page.url()).origin });
  await view.getByRole('button', { name: 'Copy as CSV' }).click();
  await expect(view.getByText('Copied 3 rows as CSV')).toBeVisible();
  const csv = await page.evaluate(() => navigator.clipboard.readText());
  expect(csv.split('\r\n')[0]).toBe('panel,group,address,outcome,status,ms,value ([0].email),message');
  expect(csv.split('\r\n')[1]).toMatch(new RegExp(`^Charlie public,,http://127\\.0\\.0\\.1:\\d+,done,200,\\d+,${DEMO_USER.email},$`));
  // The same CSV saved to the file the operator chose in main's dialog.
  await view.getByRole('button', { name: 'Save as CSV…' }).click();
  await expect(view.getByText(`Saved 3 rows as CSV to ${csvFile}, in the order shown.`)).toBeVisible();
  expect(await readFile(csvFile, 'utf8')).toBe(csv);

  // The placeholder's form `0.email`, and an empty path (the whole answer), both show values.
  for (const path of ['0.email', '']) {
    await view.getByLabel('Value to show (JSON path)').fill(path);
    await view.getByRole('button', { name: 'Run on 3 panels' }).click();
    await expect(table.getByRole('columnheader').filter({ hasText: /^Value/ })).toContainText(path === '' ? '$' : path);
    for (const generation of GENERATIONS)
      await expect(table.getByRole('row', { name: new RegExp(generation.name) })).toContainText(DEMO_USER.email);
  }

  // A write across the panels: main's one question listing each panel with its request, typed (a
  // red panel is among them); a no sends nothing anywhere.
  await view.getByLabel(/^Operation/).fill('projects.createProject');
  await view.getByLabel(/^name/).fill('fleet-made');
  await view.getByRole('button', { name: 'Run on 3 panels…' }).click();
  await answerInMain(confirmations, {
    cancel: true,
    inspect: async (asked, plan) => {
      expect(plan.panels.map((panel) => panel.name).sort()).toEqual(GENERATIONS.map((generation) => generation.name).sort());
      const sent = asked.getByRole('region', { name: 'What will be sent' });
      for (const generation of GENERATIONS) await expect(sent.getByRole('heading', { name: new RegExp(generation.name) })).toBeVisible();
      await expect(asked.getByLabel('Type Charlie public to confirm')).toBeVisible();
      await expect(asked.getByRole('button', { name: 'Send', exact: true })).toBeDisabled();
      await checkScreenBothSizes(asked, 'console-09-fleet-write-confirmation');
    },
  });
  await expect(view.getByRole('alert')).toContainText('Nothing was sent: the write was not confirmed.');
  expect(servers.some((server) => server.services.projects().some((project) => project.name === 'fleet-made'))).toBe(false);
});
