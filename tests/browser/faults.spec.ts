import type { Locator, Page } from '@playwright/test';
import type { ErrorCode, ErrorInfo } from '../../shared/contract/errors.ts';
import { startReferencePanel, type Fault, type ReferencePanel } from '../support/reference-panel/server.ts';
import type { AppUnderTest, OpenAppOptions } from './app-harness.ts';
import { addPanel, demo, expect, logIn, test } from './fixtures.ts';
import { checkScreen } from './screens.ts';

/**
 * Every fault of the reference panel, met through the UI: on the session read (Refresh) and on
 * log in. Each must end in the right code and a message an operator can act on, shown in the page.
 */

/** Short, so that a timeout fault costs little; far above what a healthy loopback answer needs. */
const timeoutMs = 1500;
const hour = 60 * 60 * 1000;

interface FaultCase {
  /** Used in test and screenshot names. */
  name: string;
  fault: Fault;
  code: ErrorCode;
  /** What the message must say, beyond the checks every message gets. */
  says: RegExp[];
  /** What it must not say. */
  saysNot?: RegExp[];
}

const faultCases: FaultCase[] = [
  {
    name: 'timeout',
    fault: { kind: 'latency', ms: 10 * timeoutMs },
    code: 'TIMEOUT',
    says: [/did not answer within 1\.5 s/, /try again/i],
  },
  { name: 'server-error', fault: { kind: 'server-error' }, code: 'SERVER_ERROR', says: [/HTTP 500 Internal Server Error/, /try again/i] },
  {
    name: 'bad-gateway-html',
    fault: { kind: 'bad-gateway-html' },
    code: 'SERVER_ERROR',
    says: [/HTTP 502 Bad Gateway/, /proxy in front of the panel/, /try again/i],
    saysNot: [/html|page/i],
  },
  {
    name: 'invalid-json',
    fault: { kind: 'invalid-json' },
    code: 'BAD_RESPONSE',
    says: [/not valid JSON \(HTTP 200 OK, application\/json\)/, /cut off/, /try again/i],
  },
  {
    name: 'never-ending-body',
    fault: { kind: 'never-ending-body' },
    code: 'TIMEOUT',
    says: [/started to answer but did not finish within 1\.5 s/, /try again/i],
  },
  // The fault's default body (5 MiB) is over the core's default cap (4 MiB).
  {
    name: 'huge-body',
    fault: { kind: 'huge-body' },
    code: 'RESPONSE_TOO_LARGE',
    says: [/larger than 4\.0 MiB/, /check the address|check that the address/i],
  },
];

/** The failures main sent to the renderer, in order. */
function failures(app: AppUnderTest): ErrorInfo[] {
  return app.answers.flatMap((answer) => {
    const envelope = answer as { ok: boolean; error?: ErrorInfo };
    return envelope.ok || !envelope.error ? [] : [envelope.error];
  });
}

/**
 * What every message shown for a fault must be: short words for a person, not a program's or a
 * server's output, without the password or any token, and ending with what to do.
 */
function expectOperatorMessage(message: string, secrets: readonly string[]): void {
  expect(message.length).toBeGreaterThan(40);
  expect(message.length).toBeLessThan(320);
  for (const leak of ['undefined', 'null', 'NaN', '[object', '<', '>', 'nginx', 'Error:', 'TypeError', 'fetch failed', 'AbortError']) {
    expect(message, `"${leak}" in the message`).not.toContain(leak);
  }
  expect(message, 'a stack trace in the message').not.toMatch(/\bat .+:\d+:\d+/);
  for (const secret of secrets) expect(message.includes(secret), 'a secret in the message').toBe(false);
  expect(message).toMatch(/(try again|check|change|log in)[^.]*\.$/i);
}

type Launch = (page: Page, options?: Partial<OpenAppOptions>) => Promise<AppUnderTest>;

/** The app with a short core timeout, and the reference panel added as "Production". */
async function setUpPanel(page: Page, launch: Launch, panelServer: ReferencePanel): Promise<AppUnderTest> {
  const app = await launch(page, { core: { timeoutMs } });
  await addPanel(page, panelServer.url, 'Production');
  return app;
}

const sessionAlert = (page: Page): Locator => page.locator('.session-view').getByRole('alert');
const loginForm = (page: Page): Locator => page.getByRole('form', { name: 'Log in to Production' });
const panelList = (page: Page): Locator => page.getByRole('navigation', { name: 'Panels' });

/** Signs in and waits for the first session read to show. */
async function signIn(page: Page): Promise<void> {
  await logIn(page);
  await expect(page.locator('dl.summary')).toContainText(demo.email);
}

async function refresh(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Refresh' }).click();
  await expect(page.getByRole('button', { name: 'Refresh' })).toBeEnabled({ timeout: 4 * timeoutMs });
}

test.describe('a fault while reading the session', () => {
  for (const { name, fault, code, says, saysNot = [] } of faultCases) {
    test(`${name}: ${code}, shown above the last session; Refresh recovers once it is gone`, async ({ page, launch, panelServer }) => {
      const app = await setUpPanel(page, launch, panelServer);
      await signIn(page);

      panelServer.setFault('getSession', fault);
      await refresh(page);
      await expect(sessionAlert(page)).toBeVisible();
      const [failure, ...more] = failures(app);
      expect(more).toEqual([]);
      expect(failure?.code).toBe(code);
      await expect(sessionAlert(page).locator('p').last()).toHaveText(failure?.message ?? 'no failure was sent');
      for (const pattern of says) expect(failure?.message).toMatch(pattern);
      for (const pattern of saysNot) expect(failure?.message).not.toMatch(pattern);
      expectOperatorMessage(failure?.message ?? '', [...panelServer.issuedTokens(), demo.password]);
      await expect(panelList(page)).toContainText(/State unknown|Unreachable/);
      await checkScreen(page, `fault-session-${name}`);

      panelServer.setFault('getSession', null);
      await refresh(page);
      await expect(sessionAlert(page)).toHaveCount(0);
      await expect(page.locator('dl.summary')).toContainText(demo.email);
      await expect(panelList(page)).not.toContainText(/State unknown|Unreachable/);
    });
  }

  test('cross-origin redirect: REDIRECT_REFUSED, and the other origin never receives the token', async ({ page, launch, panelServer }) => {
    const other = await startReferencePanel();
    try {
      const app = await setUpPanel(page, launch, panelServer);
      await signIn(page);

      panelServer.setFault('getSession', { kind: 'redirect', to: `${other.baseUrl}/getSession`, status: 302 });
      await refresh(page);
      await expect(sessionAlert(page)).toBeVisible();
      const [failure] = failures(app);
      expect(failure?.code).toBe('REDIRECT_REFUSED');
      await expect(sessionAlert(page).locator('p').last()).toHaveText(failure?.message ?? 'no failure was sent');
      expect(failure?.message).toContain(other.url);
      expect(failure?.message).toMatch(/not follow/);
      expectOperatorMessage(failure?.message ?? '', [...panelServer.issuedTokens(), demo.password]);
      expect(other.requests.filter((request) => request.headers.authorization !== undefined)).toEqual([]);
      expect(other.requests).toEqual([]);
      await checkScreen(page, 'fault-session-cross-origin-redirect');
    } finally {
      await other.close();
    }
  });

  test('same-origin redirect: followed with the token, the session is shown', async ({ page, launch, panelServer }) => {
    const app = await setUpPanel(page, launch, panelServer);
    await signIn(page);

    panelServer.setFault('getSession', { kind: 'redirect', to: '/api/v2/getSession', status: 302 });
    const before = panelServer.requests.length;
    await refresh(page);
    const moved = panelServer.requests.slice(before).filter((request) => request.path === '/api/v2/getSession');
    expect(moved).toHaveLength(1);
    expect(moved[0]?.headers.authorization).toMatch(/^Bearer /);
    expect(failures(app)).toEqual([]);
    await expect(sessionAlert(page)).toHaveCount(0);
    await expect(page.locator('dl.summary')).toContainText(demo.email);
    await expect(panelList(page)).toContainText('Signed in');
    await checkScreen(page, 'fault-session-same-origin-redirect');
  });

  test('a token that expires between log in and the first read: UNAUTHORIZED, "Session expired" and the form; logging in again works', async ({
    page,
    launch,
    panelServer,
  }) => {
    const app = await setUpPanel(page, launch, panelServer);
    panelServer.setTokenTtl(1);
    // The read waits a little before the token is checked, so it is expired on any machine.
    panelServer.setFault('getSession', { kind: 'latency', ms: 20 });
    await logIn(page);

    const expired = page.getByRole('alert').filter({ hasText: 'Session expired or revoked' });
    await expect(expired).toBeVisible();
    // The sign-out is announced while the refused token is being dropped on disk, and the read's
    // answer comes once that is written: on a loaded machine the alert can show first.
    await expect.poll(() => failures(app).length).toBeGreaterThan(0);
    const [failure, ...more] = failures(app);
    expect(more).toEqual([]);
    expect(failure?.code).toBe('UNAUTHORIZED');
    expectOperatorMessage(failure?.message ?? '', [...panelServer.issuedTokens(), demo.password]);
    await expect(expired).toContainText(failure?.message ?? 'no failure was sent');
    await expect(loginForm(page).getByLabel('Email')).toHaveValue(demo.email);
    await expect(panelList(page)).toContainText('Expired');
    await expect(page.locator('dl.summary')).toHaveCount(0);
    await checkScreen(page, 'fault-session-token-expired');

    panelServer.setTokenTtl(hour);
    panelServer.setFault('getSession', null);
    await signIn(page);
    await expect(expired).toHaveCount(0);
    await expect(panelList(page)).toContainText('Signed in');
  });
});

test.describe('a fault while logging in', () => {
  for (const { name, fault, code, says, saysNot = [] } of faultCases) {
    test(`${name}: ${code}, shown in the login form; logging in works once it is gone`, async ({ page, launch, panelServer }) => {
      const app = await setUpPanel(page, launch, panelServer);
      panelServer.setFault('login', fault);
      await logIn(page);

      const alert = loginForm(page).getByRole('alert');
      await expect(alert).toBeVisible({ timeout: 4 * timeoutMs });
      const [failure, ...more] = failures(app);
      expect(more).toEqual([]);
      expect(failure?.code).toBe(code);
      await expect(alert.locator('p').last()).toHaveText(failure?.message ?? 'no failure was sent');
      for (const pattern of says) expect(failure?.message).toMatch(pattern);
      for (const pattern of saysNot) expect(failure?.message).not.toMatch(pattern);
      expectOperatorMessage(failure?.message ?? '', [demo.password]);
      await expect(loginForm(page).getByLabel('Password')).toHaveValue('');
      // A first log in that failed: still never logged in, so new.
      await expect(panelList(page)).toContainText('New');
      await checkScreen(page, `fault-login-${name}`);

      panelServer.setFault('login', null);
      await signIn(page);
    });
  }

  test('cross-origin redirect (307, which would resend the password): REDIRECT_REFUSED, and the other origin receives nothing', async ({
    page,
    launch,
    panelServer,
  }) => {
    const other = await startReferencePanel();
    try {
      const app = await setUpPanel(page, launch, panelServer);
      panelServer.setFault('login', { kind: 'redirect', to: `${other.baseUrl}/login`, status: 307 });
      await logIn(page);

      const alert = loginForm(page).getByRole('alert');
      await expect(alert).toBeVisible();
      const [failure] = failures(app);
      expect(failure?.code).toBe('REDIRECT_REFUSED');
      await expect(alert.locator('p').last()).toHaveText(failure?.message ?? 'no failure was sent');
      expect(failure?.message).toContain(other.url);
      expectOperatorMessage(failure?.message ?? '', [demo.password]);
      expect(other.requests).toEqual([]);
      await checkScreen(page, 'fault-login-cross-origin-redirect');
    } finally {
      await other.close();
    }
  });

  test('same-origin redirect (307): followed, logged in, the session is shown', async ({ page, launch, panelServer }) => {
    const app = await setUpPanel(page, launch, panelServer);
    panelServer.setFault('login', { kind: 'redirect', to: '/api/v2/login', status: 307 });
    await signIn(page);
    expect(panelServer.requests.filter((request) => request.path === '/api/v2/login' && request.method === 'POST')).toHaveLength(1);
    expect(failures(app)).toEqual([]);
    await expect(panelList(page)).toContainText('Signed in');
  });
});
