import assert from 'node:assert/strict';
import { test } from 'node:test';
import { commandShellFor, curlCommand, dashboardUrl, sessionUrl } from '../../../shared/session-url.ts';

/** "Copy as curl": the session read as Paneldeck sends it, for a terminal, without the token. */

test('the session URL per generation, and a curl command that reads the token from the shell', () => {
  const plain = { baseUrl: 'https://panel.example.com/api', sessionPath: '/getSession', generation: 'public' as const };
  assert.equal(sessionUrl(plain), 'https://panel.example.com/api/getSession');
  assert.equal(
    curlCommand(plain, 'posix'),
    `curl --fail-with-body -sS -H "Authorization: Bearer $PANEL_TOKEN" -H 'Accept: application/json' 'https://panel.example.com/api/getSession'`,
  );
  const trpc = { baseUrl: 'https://old.example.com/api', sessionPath: '/trpc/auth.getSession', generation: 'trpc' as const };
  assert.equal(sessionUrl(trpc), 'https://old.example.com/api/trpc/auth.getSession?input=%7B%22json%22%3Anull%7D');
});

test('a quote in the URL cannot end the shell word', () => {
  const odd = { baseUrl: 'https://x.example.com/api', sessionPath: "/it's", generation: 'public' as const };
  assert.ok(curlCommand(odd, 'posix').endsWith(`'https://x.example.com/api/it'\\''s'`));
});

test('Windows: a PowerShell command, and a session path made to start a program in cmd.exe starts nothing there either', () => {
  assert.equal(commandShellFor('Mozilla/5.0 (Windows NT 10.0; Win64; x64) Electron/45.4.1'), 'powershell');
  assert.equal(commandShellFor('Mozilla/5.0 (X11; Linux x86_64) Electron/45.4.1'), 'posix');
  const hostile = { baseUrl: 'https://x.example.com/api', sessionPath: "/getSession&calc.exe&rem'|x", generation: 'public' as const };
  const command = curlCommand(hostile, 'powershell');
  assert.equal(
    command,
    `curl.exe --fail-with-body -sS -H "Authorization: Bearer $env:PANEL_TOKEN" -H 'Accept: application/json' 'https://x.example.com/api/getSession%26calc.exe%26rem%27%7Cx'`,
  );
  // Split as cmd.exe splits a line: the URL word holds none of its operators.
  const urlWord = command.slice(command.lastIndexOf(" '") + 1);
  assert.doesNotMatch(urlWord, /[&|<>^()!"`]/);
  // And in a POSIX shell the single quotes hold the whole URL, operators included.
  assert.ok(curlCommand(hostile, 'posix').endsWith(`'https://x.example.com/api/getSession&calc.exe&rem'\\''|x'`));
});

test('the dashboard is the origin of the API: https, or the plain-HTTP address chosen for the panel', () => {
  assert.equal(dashboardUrl({ baseUrl: 'https://panel.example.com/api' }), 'https://panel.example.com/');
  assert.equal(dashboardUrl({ baseUrl: 'https://xn--bcher-kva.example:8443/api' }), 'https://xn--bcher-kva.example:8443/');
  assert.equal(dashboardUrl({ baseUrl: 'http://203.0.113.7:3000/api' }), 'http://203.0.113.7:3000/');
});
