import { checkScreen, rendererContents } from './screens.ts';
import { addPanel, expect, logIn, test } from './fixtures.ts';
import { startReferencePanel, TWO_FACTOR_USER } from '../support/reference-panel/server.ts';

const { email, password } = TWO_FACTOR_USER;
const code = TWO_FACTOR_USER.twoFactorCode ?? '';
const wrongCode = '135791';

test('two-factor log in: the code prompt, a refused code, then the right one', async ({ page, launch }) => {
  // Its own panel: the shared fixture's has no two-factor user.
  const panelServer = await startReferencePanel({ users: [TWO_FACTOR_USER] });
  try {
    const app = await launch(page);
    await addPanel(page, panelServer.url, 'Guarded');
    await logIn(page, password, email);

    const form = page.getByRole('form', { name: 'Log in to Guarded' });
    const codeField = form.getByLabel('Authentication code');
    await expect(codeField).toBeFocused();
    await expect(codeField).toHaveAttribute('inputmode', 'numeric');
    await expect(codeField).toHaveAttribute('autocomplete', 'one-time-code');
    await expect(codeField).toHaveAccessibleDescription(/Enter the code from your authenticator app/);
    // The email and password stay for the second step; nothing reads as an error yet.
    await expect(form.getByLabel('Email')).toHaveValue(email);
    await expect(form.getByLabel('Password')).toHaveValue(password);
    await expect(form.getByRole('alert')).toHaveCount(0);
    await checkScreen(page, '26-two-factor-prompt');

    await codeField.fill(wrongCode);
    await codeField.press('Enter');
    await expect(codeField).toHaveAccessibleDescription(/The panel refused the code\. Codes change every 30 seconds/);
    await expect(codeField).toHaveAttribute('aria-invalid', 'true');
    await expect(codeField).toHaveValue('');
    await expect(codeField).toBeFocused();
    await expect(form.getByLabel('Password')).toHaveValue(password);
    await expect(form.getByLabel('Password')).not.toHaveAttribute('aria-invalid', 'true');
    await checkScreen(page, '27-two-factor-wrong-code');

    await codeField.fill(`${code.slice(0, 3)} ${code.slice(3)}`);
    await form.getByRole('button', { name: 'Log in' }).click();
    await expect(page.locator('dl.summary')).toContainText(email);

    // All three were sent each time; the last with the right code.
    const bodies = panelServer.requests
      .filter((request) => request.path === '/api/login')
      .map((request) => JSON.parse(request.body) as unknown);
    // "Keep me signed in" is on by default: rememberMe goes with every log in.
    expect(bodies).toEqual([
      { email, password, rememberMe: true },
      { email, password, rememberMe: true, code: wrongCode },
      { email, password, rememberMe: true, code },
    ]);
    const contents = await rendererContents(page);
    for (const secret of [code, wrongCode, password]) {
      expect(contents.includes(secret), 'secret left in the renderer').toBe(false);
      expect(JSON.stringify(app.answers).includes(secret), 'secret sent to the renderer').toBe(false);
    }
  } finally {
    await panelServer.close();
  }
});
