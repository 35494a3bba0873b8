import assert from 'node:assert/strict';
import { test } from 'node:test';
import { curlCommand, dashboardUrl, sessionUrl } from '../../../shared/session-url.ts';

/** "Copy as curl": the session read as Paneldeck sends it, for a terminal, without the token. */

test('the session URL per API style, and a curl command that reads the token from the shell', () => {
  const plain = { baseUrl: 'https://panel.example.com/api', sessionPath: '/getSession', apiStyle: 'plain' as const };
  assert.equal(sessionUrl(plain), 'https://panel.example.com/api/getSession');
  assert.equal(
    curlCommand(plain),
    `curl --fail-with-body -sS -H "Authorization: Bearer $PANEL_TOKEN" -H 'Accept: application/json' 'https://panel.example.com/api/getSession'`,
  );
  const trpc = { baseUrl: 'https://old.example.com/api', sessionPath: '/trpc/auth.getSession', apiStyle: 'trpc' as const };
  assert.equal(sessionUrl(trpc), 'https://old.example.com/api/trpc/auth.getSession?input=%7B%22json%22%3Anull%7D');
});

test('a quote in the URL cannot end the shell word', () => {
  const odd = { baseUrl: 'https://x.example.com/api', sessionPath: "/it's", apiStyle: 'plain' as const };
  assert.ok(curlCommand(odd).endsWith(`'https://x.example.com/api/it'\\''s'`));
});

test('the dashboard is the origin of the API: https, or the plain-HTTP address chosen for the panel', () => {
  assert.equal(dashboardUrl({ baseUrl: 'https://panel.example.com/api' }), 'https://panel.example.com/');
  assert.equal(dashboardUrl({ baseUrl: 'https://xn--bcher-kva.example:8443/api' }), 'https://xn--bcher-kva.example:8443/');
  assert.equal(dashboardUrl({ baseUrl: 'http://203.0.113.7:3000/api' }), 'http://203.0.113.7:3000/');
});
