import assert from 'node:assert/strict';
import { test } from 'node:test';
import { curlCommand, sessionUrl } from '../shared/session-url.ts';

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
  const odd = { baseUrl: "https://x.example.com/api", sessionPath: "/it's", apiStyle: 'plain' as const };
  assert.ok(curlCommand(odd).endsWith(`'https://x.example.com/api/it'\\''s'`));
});
