import assert from 'node:assert/strict';
import { test } from 'node:test';
import { findProxyRoute, proxyRoute } from '../../../../electron/core/net/proxy-tunnel.ts';

test('a PAC answer: its first entry Paneldeck can use, DIRECT or an HTTP proxy', () => {
  assert.deepEqual(proxyRoute('DIRECT', 'p:443'), { kind: 'direct' });
  assert.deepEqual(proxyRoute('', 'p:443'), { kind: 'direct' });
  assert.deepEqual(proxyRoute('PROXY proxy.corp:3128; DIRECT', 'p:443'), {
    kind: 'http',
    host: 'proxy.corp',
    port: 3128,
    shown: 'proxy.corp:3128',
  });
  assert.deepEqual(proxyRoute('HTTP 10.0.0.1', 'p:443'), { kind: 'http', host: '10.0.0.1', port: 80, shown: '10.0.0.1' });
  assert.deepEqual(proxyRoute('PROXY [::1]:8080', 'p:443'), { kind: 'http', host: '::1', port: 8080, shown: '[::1]:8080' });
  // A SOCKS proxy first, then one it can use: the usable one, in the answer's order.
  assert.deepEqual(proxyRoute('SOCKS5 s:1080; PROXY h:8080', 'p:443'), { kind: 'http', host: 'h', port: 8080, shown: 'h:8080' });
  assert.deepEqual(proxyRoute('SOCKS5 s:1080;DIRECT', 'p:443'), { kind: 'direct' });
});

test('an answer naming only proxies it cannot use (or malformed ones) fails, naming them and the panel', () => {
  assert.throws(() => proxyRoute('SOCKS5 s:1080; HTTPS h:443', 'panel.example:443'), {
    code: 'NETWORK',
    message: /send panel\.example:443 through SOCKS5 s:1080; HTTPS h:443, which Paneldeck's log connection cannot use/,
  });
  // A malformed entry is named by its scheme alone: what follows may be a password.
  assert.throws(
    () => proxyRoute('PROXY user:pw@h:8080', 'p:443'),
    (error: Error) => {
      assert.match(error.message, /through PROXY, which/);
      assert.doesNotMatch(error.message, /pw/);
      return true;
    },
  );
  assert.throws(() => proxyRoute('PROXY', 'p:443'), { code: 'NETWORK' });
});

test('the resolver is asked with the URL without its query; without one, DIRECT; its failure is a clear error', async () => {
  const asked: string[] = [];
  const url = new URL('https://panel.example/ws/serviceLogs?token=secret&service=a_b');
  assert.deepEqual(await findProxyRoute(undefined, url), { kind: 'direct' });
  await findProxyRoute(async (given) => {
    asked.push(given);
    return 'DIRECT';
  }, url);
  assert.deepEqual(asked, ['https://panel.example/ws/serviceLogs']);
  await assert.rejects(
    findProxyRoute(async () => {
      throw new Error('resolver gone');
    }, url),
    { code: 'NETWORK', message: "Paneldeck could not learn the system's proxy for panel.example." },
  );
});
