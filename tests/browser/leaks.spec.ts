import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import type { PanelApi } from '../../shared/contract/contract.ts';
import { readAllFiles } from '../support/helpers.ts';
import { startReferencePanel } from '../support/reference-panel/server.ts';
import { secretFormsIn } from '../support/secret-forms.ts';
import type { AppUnderTest } from './app-harness.ts';
import { rendererContents } from './screens.ts';
import { addPanel, answerInMain, demo, expect, logIn, test } from './fixtures.ts';

const WRONG_PASSWORD = 'wrong-Pa55word-for-the-leak-test';

interface LogLine {
  level: string;
  event: string;
  method?: string;
  outcome?: string;
}

const nav = (page: Page) => page.getByRole('navigation', { name: 'Panels' });

/**
 * rendererContents reads every property of every global, and a promise getter read off its
 * prototype (WritableStreamDefaultWriter.prototype.closed...) rejects with "Illegal invocation".
 * Those rejections are the probe's own, not the app's: drop exactly them, keep everything else.
 */
function dropProbeNoise(apps: AppUnderTest[]): void {
  const probeNoise = /^Failed to read the '\w+' property from '\w+': Illegal invocation$/;
  for (const app of apps) {
    const kept = app.pageErrors.filter((error) => !probeNoise.test(error));
    app.pageErrors.splice(0, app.pageErrors.length, ...kept);
  }
}

test('no token and no password is kept, logged or sent to the renderer over a whole session of use', async ({
  browser,
  page,
  launch,
  panelServer,
  dataDir,
  logDir,
}) => {
  const apps: AppUnderTest[] = [];
  const first = await launch(page, { logDir });
  apps.push(first);

  // A second panel (the same server, another address) stays signed in to the end, so a token is
  // on disk when the folders are searched and the restart has one to read back.
  await addPanel(page, `http://localhost:${panelServer.port}`, 'Backup');
  await logIn(page);
  await expect(page.locator('dl.summary')).toContainText(demo.email);

  await addPanel(page, panelServer.url, 'Production');
  await logIn(page, WRONG_PASSWORD);
  const form = page.getByRole('form', { name: 'Log in to Production' });
  await expect(form.getByRole('alert')).toContainText('did not accept this email and password');
  await logIn(page);
  const summary = page.locator('dl.summary');
  await expect(summary).toContainText(demo.email);

  const readsBefore = first.answers.length;
  await page.getByRole('button', { name: 'Refresh' }).click();
  await expect.poll(() => first.answers.length).toBeGreaterThan(readsBefore);
  await expect(summary).toContainText(demo.email);

  await page.getByRole('button', { name: 'Settings' }).click();
  await page.getByLabel('Name').fill('Production EU');
  await page.getByLabel('Name').press('Enter');
  await expect(page.getByRole('heading', { name: 'Production EU', level: 1 })).toBeVisible();
  await page.getByRole('button', { name: 'Session' }).click();

  panelServer.expireAllTokens();
  await page.getByRole('button', { name: 'Refresh' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'Session expired or revoked' })).toBeVisible();
  await logIn(page);
  await expect(summary).toContainText(demo.email);

  await page.getByRole('button', { name: 'Settings' }).click();
  await page.getByRole('button', { name: 'Log out' }).click();
  await expect(page.getByText('Signed out.')).toBeVisible();
  await page.getByRole('button', { name: 'Log in', exact: true }).first().click();
  await logIn(page);
  await expect(summary).toContainText(demo.email);

  await page.getByRole('button', { name: 'Settings' }).click();
  await page.getByRole('button', { name: 'Remove panel…' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Remove panel' }).click();
  await expect(nav(page).getByRole('treeitem')).toHaveCount(1);
  // The expiry signed Backup out too: log it in again so its token is fresh for the restart.
  await nav(page)
    .getByRole('treeitem', { name: /Backup/ })
    .click();
  await logIn(page);
  await expect(summary).toContainText(demo.email);
  const domBeforeRestart = await rendererContents(page);
  await page.close();

  const context = await browser.newContext({ viewport: { width: 900, height: 600 } });
  const again = await context.newPage();
  apps.push(await launch(again, { encryption: first.encryption, logDir }));
  await expect(nav(again).getByRole('treeitem')).toHaveCount(1);
  await expect(nav(again).getByRole('treeitem')).toContainText('Signed in');
  await expect(again.locator('dl.summary')).toContainText(demo.email);
  const finalDom = await rendererContents(again);
  await context.close();
  dropProbeNoise(apps);

  // Every token of the run: Backup's two, Production's three, none expired away from the list.
  const tokens = panelServer.issuedTokens();
  expect(tokens.length).toBeGreaterThanOrEqual(5);
  const secrets = [
    ...tokens.map((token, index) => ({ name: `token ${index + 1}`, value: token })),
    { name: 'the password', value: demo.password },
    { name: 'the wrong password', value: WRONG_PASSWORD },
  ];

  const dataFiles = await readAllFiles(dataDir);
  const logFiles = await readAllFiles(logDir);
  expect(dataFiles.map((file) => file.path).join('\n')).toContain('tokens.json');
  const places = [
    ...dataFiles.map((file) => ({ where: `data file ${file.path}`, text: file.content })),
    ...logFiles.map((file) => ({ where: `log file ${file.path}`, text: file.content })),
    ...apps.map((app, index) => ({ where: `IPC answers of launch ${index + 1}`, text: JSON.stringify(app.answers) })),
    { where: 'the DOM before the restart', text: domBeforeRestart },
    { where: 'the DOM after the restart', text: finalDom },
  ];
  const found = places.flatMap(({ where, text }) =>
    secrets.filter(({ value }) => text.includes(value)).map(({ name }) => `${name} in ${where}`),
  );
  expect(found).toEqual([]);
  // The log says what was done, and not who did it.
  expect(logFiles.filter((file) => file.content.includes(demo.email)).map((file) => file.path)).toEqual([]);

  // The log is wired: one line per call, with the outcomes the run went through.
  const logFile = join(logDir, 'paneldeck.log');
  expect(existsSync(logFile)).toBe(true);
  const lines = readFileSync(logFile, 'utf8')
    .trimEnd()
    .split('\n')
    .map((line) => JSON.parse(line) as LogLine);
  const calls = lines.filter((line) => line.event === 'ipc.call').map((line) => `${line.method}:${line.outcome}`);
  expect(calls).toEqual(
    expect.arrayContaining([
      'logIn:ok',
      'logIn:INVALID_CREDENTIALS',
      'getSession:ok',
      'getSession:UNAUTHORIZED',
      'logOut:ok',
      'removePanel:ok',
      'updatePanel:ok',
    ]),
  );
  expect(lines.filter((line) => line.level === 'error')).toEqual([]);
});

/**
 * The operations of issue 23 from the window, against a 2.33 panel: services, load, writes (one
 * refused with 401, which signs the panel out), the runtime log read and followed (a line holding
 * the token among them), the activity log. The token is in no IPC answer, event, log line, data
 * file, or the page; the refused write's entry says it was refused.
 */
test('no token in the answers, events, log lines or activity entries of the service operations', async ({
  page,
  launch,
  logDir,
  dataDir,
  confirmations,
}) => {
  const server = await startReferencePanel({ style: 'public' });
  try {
    server.services.addService({ projectName: 'shop', name: 'web', type: 'app' });
    server.services.addService({ projectName: 'shop', name: 'stack', type: 'compose' });
    server.serviceActions.setDeployTime(50);
    const app = await launch(page, { logDir });
    await addPanel(page, server.url, 'Shop');
    await logIn(page);
    await expect(page.locator('dl.summary')).toContainText(demo.email);
    const token = server.issuedTokens().at(-1)!;
    server.logs.write('shop', 'stack', `worker up\nan echo of ${token} in a log line`);
    const panelId = (await app.core.listPanels())[0]!.id;

    // Through the window's own bridge: the calls and their answers go the app's way (preload, IPC registrar).
    const asking = page.evaluate(async (id) => {
      const api = (window as unknown as { panelApi: PanelApi }).panelApi;
      const shop = { projectName: 'shop' };
      const settled = (work: Promise<unknown>) =>
        work.then(
          (value) => ({ value }),
          (error: Error) => ({ error: error.message }),
        );
      return [
        await settled(api.listServices(id)),
        await settled(api.getServerStats(id)),
        await settled(api.runServiceAction(id, { ...shop, serviceName: 'web', action: 'stop' })),
        await settled(api.runServiceAction(id, { ...shop, serviceName: 'web', action: 'deploy' })),
        await settled(api.readServiceLogs(id, { ...shop, serviceName: 'stack' })),
        await settled(api.followServiceLogs(id, { ...shop, serviceName: 'stack' })),
      ];
    }, panelId);
    // Each write is asked in main's confirmation, whose page is searched for the token too.
    const asked: string[] = [];
    for (const title of ['Stop shop/web on Shop', 'Deploy shop/web on Shop']) {
      await answerInMain(confirmations, { title, inspect: async (shown) => void asked.push(await shown.content()) });
    }
    const outcomes = await asking;
    expect(outcomes.filter((outcome) => 'error' in outcome)).toEqual([]);
    await expect.poll(() => server.logs.openSockets('shop', 'stack')).toBe(1);
    server.logs.write('shop', 'stack', `live line\nlive ${token}`);
    await expect.poll(() => app.events.filter((event) => event.type === 'serviceLogLines').length).toBeGreaterThan(0);

    server.setFault('restartAppService', { kind: 'status', status: 401 });
    const refusing = page.evaluate(async (id) => {
      const api = (window as unknown as { panelApi: PanelApi }).panelApi;
      return api.runServiceAction(id, { projectName: 'shop', serviceName: 'web', action: 'restart' }).then(
        () => 'done',
        (error: Error) => error.message,
      );
    }, panelId);
    await answerInMain(confirmations, {
      title: 'Restart shop/web on Shop',
      inspect: async (shown) => void asked.push(await shown.content()),
    });
    const refused = await refusing;
    expect(refused).toMatch(/rejected the saved token/);
    await expect.poll(() => server.logs.openSockets()).toBe(0);
    const activity = await page.evaluate(() => (window as unknown as { panelApi: PanelApi }).panelApi.listActivity({}));
    expect(activity.entries.map((entry) => `${entry.what.action} ${entry.outcome}`)).toEqual([
      'restart failed',
      'deploy ok',
      'stop ok',
      'logIn ok',
    ]);
    expect(activity.entries[0]?.message).toMatch(/^Refused, not done/);
    const dom = await rendererContents(page);
    await app.core.flush();
    dropProbeNoise([app]);

    const places = [
      ...(await readAllFiles(dataDir)).map((file) => ({ where: `data file ${file.path}`, text: file.content })),
      ...(await readAllFiles(logDir)).map((file) => ({ where: `log file ${file.path}`, text: file.content })),
      { where: 'the IPC answers', text: JSON.stringify(app.answers) },
      { where: 'the events', text: JSON.stringify(app.events) },
      { where: 'the page', text: dom },
      ...asked.map((text, index) => ({ where: `confirmation ${index + 1}`, text })),
    ];
    const found = server
      .issuedTokens()
      .flatMap((one) => places.flatMap(({ where, text }) => secretFormsIn(text, one).map((form) => `${form} in ${where}`)));
    expect(found).toEqual([]);
    const lines = app.events.flatMap((event) => (event.type === 'serviceLogLines' ? event.lines : []));
    expect(lines).toContain('live line');
  } finally {
    await server.close();
  }
});
