import assert from 'node:assert/strict';
import { after, afterEach, before, beforeEach, describe, test } from 'node:test';
import { createCore, type Core } from '../../electron/core/index.ts';
import { openLogSocket } from '../../electron/core/net/log-socket.ts';
import type { PanelError } from '../../shared/contract/errors.ts';
import type { PanelEvent } from '../../shared/contract/events.ts';
import { type ConnectProxy, startConnectProxy } from '../support/connect-proxy.ts';
import { keeping, rejectsWith, tempDir, testEncryption, waitUntil } from '../support/helpers.ts';
import { DEMO_USER, type ReferencePanel, startReferencePanel } from '../support/reference-panel/server.ts';
import { secretFormsIn } from '../support/secret-forms.ts';
import { certificateFingerprint, selfSignedCertificate } from '../support/tls-certificate.ts';

/**
 * The log socket goes through the system's proxy as the app's HTTP requests do: the proxy the
 * resolver names (a PAC answer) is asked for a CONNECT tunnel to the panel's host and port, and
 * the WebSocket (over TLS with the panel's pinned certificate, for https) runs inside it. The
 * proxy sees `host:port` only, never the token; a proxy that refuses is named in the error.
 */

const credentials = { email: DEMO_USER.email, password: DEMO_USER.password };
const web = { projectName: 'shop', serviceName: 'web' };

describe('the log socket through a CONNECT proxy', () => {
  let proxy: ConnectProxy;
  let panel: ReferencePanel;
  let tlsPanel: ReferencePanel;
  let tls: { key: string; cert: string };
  let dir: Awaited<ReturnType<typeof tempDir>>;
  let core: Core;
  let events: PanelEvent[];
  /** What the resolver was asked, and what it answers. */
  let asked: string[];
  let answer: string;
  let tokens: string[];
  let seen: unknown[];

  before(async () => {
    proxy = await startConnectProxy();
    panel = await startReferencePanel({ style: 'public' });
    tls = await selfSignedCertificate();
    tlsPanel = await startReferencePanel({ style: 'rpc', tls });
    for (const one of [panel, tlsPanel]) {
      one.services.addService({ projectName: 'shop', name: 'web', type: 'app' });
      one.logs.write('shop', 'web', 'booted\nlistening');
    }
  });
  after(() => Promise.all([proxy.close(), panel.close(), tlsPanel.close()]));
  beforeEach(async () => {
    dir = await tempDir();
    events = [];
    asked = [];
    tokens = [];
    seen = [];
    answer = `PROXY ${proxy.address}; DIRECT`;
    proxy.refuseWith(null);
    proxy.tunnels.splice(0);
    const resolveProxy = async (url: string) => {
      asked.push(url);
      return answer;
    };
    core = createCore({
      dataDir: dir.path,
      encryption: testEncryption(),
      timeoutMs: 3000,
      emit: (e) => events.push(e),
      resolveProxy,
    });
  });
  afterEach(async () => {
    core.stopAllLogFollows();
    await waitUntil(() => proxy.open() === 0);
    await core.flush();
    const proxySaw = proxy.tunnels.map((tunnel) => `${tunnel.requestLine}\n${tunnel.headers.join('\n')}`).join('\n');
    const places = { proxy: proxySaw, resolver: asked.join('\n'), 'answers, errors': JSON.stringify(seen), events: JSON.stringify(events) };
    const leaks = tokens.flatMap((token) =>
      Object.entries(places).flatMap(([place, text]) => secretFormsIn(text, token).map((f) => `${place}: ${f}`)),
    );
    assert.deepEqual(leaks, []);
    await dir.cleanup();
  });

  async function signedIn(at: ReferencePanel): Promise<string> {
    const { id } = await core.addPanel({ address: at.url });
    if (at === tlsPanel) {
      await rejectsWith(core.logIn(id, credentials), 'CERTIFICATE_UNTRUSTED');
      await core.trustCertificate(id, { sha256: certificateFingerprint(tls.cert) });
    }
    seen.push(await core.logIn(id, credentials));
    tokens.push(at.issuedTokens().at(-1) ?? '');
    return id;
  }

  const settle = <T>(work: Promise<T>): Promise<T> => keeping(seen, work);

  test('the backlog and live lines arrive through the tunnel; the proxy saw host:port only', async () => {
    const id = await signedIn(panel);
    const read = await settle(core.readServiceLogs(id, web));
    assert.deepEqual(read.lines, ['booted', 'listening']);
    assert.equal(proxy.tunnels.length, 1);
    assert.equal(proxy.tunnels[0]?.requestLine, `CONNECT 127.0.0.1:${panel.port} HTTP/1.1`);
    assert.ok((proxy.tunnels[0]?.down ?? 0) > 0, 'the answer came back through the proxy');
    assert.deepEqual(asked, [`${panel.url}/ws/serviceLogs`], 'the resolver is asked with the URL without its query');

    // The read's socket closed first: the one open next is the follow's.
    await waitUntil(() => panel.logs.openSockets() === 0 && proxy.open() === 0);
    const follow = await settle(core.followServiceLogs(id, web));
    await waitUntil(() => panel.logs.openSockets() === 1 && proxy.open() === 1);
    panel.logs.write('shop', 'web', 'GET / 200');
    await waitUntil(() => events.some((event) => event.type === 'serviceLogLines' && event.followId === follow.followId));
    assert.equal(proxy.tunnels.length, 2);
    await core.stopFollowingServiceLogs(follow.followId);
    await waitUntil(() => proxy.open() === 0);
  });

  test('a panel over https: TLS to the panel inside the tunnel, with its pinned certificate', async () => {
    const id = await signedIn(tlsPanel);
    const read = await settle(core.readServiceLogs(id, web));
    assert.deepEqual(read.lines, ['booted', 'listening']);
    assert.equal(tlsPanel.logs.accepted().at(-1)?.certificate, certificateFingerprint(tls.cert));
    assert.equal(proxy.tunnels.at(-1)?.requestLine, `CONNECT 127.0.0.1:${tlsPanel.port} HTTP/1.1`);
  });

  test('the pin holds inside the tunnel: another certificate is refused before the upgrade (with the token) is written', async () => {
    const other = await selfSignedCertificate({ commonName: 'other.paneldeck.test' });
    const accepted = tlsPanel.logs.accepted().length;
    const ended = await new Promise<PanelError | null>((resolve) => {
      openLogSocket({
        url: new URL(`wss://127.0.0.1:${tlsPanel.port}/ws/serviceLogs?token=pinned-secret&service=shop_web&compose=false`),
        trustedCertificate: certificateFingerprint(other.cert),
        connectTimeoutMs: 3000,
        maxMessageBytes: 1024,
        onMessage: () => undefined,
        onEnd: resolve,
        resolveProxy: async () => `PROXY ${proxy.address}`,
      });
    });
    assert.equal(ended?.code, 'CERTIFICATE_CHANGED');
    assert.equal(tlsPanel.logs.accepted().length, accepted);
    assert.equal(proxy.tunnels.length, 1);
    assert.doesNotMatch(JSON.stringify([ended?.message, proxy.tunnels]), /pinned-secret/);
  });

  test('DIRECT connects straight to the panel, the proxy unused', async () => {
    answer = 'DIRECT';
    const id = await signedIn(panel);
    assert.deepEqual((await settle(core.readServiceLogs(id, web))).lines.slice(0, 2), ['booted', 'listening']);
    assert.equal(proxy.tunnels.length, 0);
  });

  for (const status of [407, 502]) {
    test(`a proxy that refuses (${status}): an error naming the proxy and the panel's host, for a read and a follow`, async () => {
      const id = await signedIn(panel);
      proxy.refuseWith(status);
      const accepted = panel.logs.accepted().length;
      const error = await rejectsWith(settle(core.readServiceLogs(id, web)), 'NETWORK');
      assert.match(
        error.message,
        new RegExp(`^The proxy ${proxy.address} refused to connect to 127\\.0\\.0\\.1:${panel.port} \\(HTTP ${status}`),
      );
      if (status === 407) assert.match(error.message, /asks for a sign-in/);
      const follow = await settle(core.followServiceLogs(id, web));
      await waitUntil(() => events.some((event) => event.type === 'serviceLogEnded' && event.followId === follow.followId));
      const ended = events.find((event) => event.type === 'serviceLogEnded' && event.followId === follow.followId);
      assert.match(ended?.type === 'serviceLogEnded' ? (ended.error?.message ?? '') : '', /^The proxy .* refused to connect/);
      assert.equal(panel.logs.accepted().length, accepted, 'the panel never got the upgrade');
      // Not the token's fault: the sign-in stays.
      assert.equal((await core.listPanels()).find((one) => one.id === id)?.signedIn, true);
    });
  }

  test('a proxy nobody listens on, and a PAC answer naming only proxies it cannot use: clear errors', async () => {
    const id = await signedIn(panel);
    answer = 'PROXY 127.0.0.1:1';
    const unreachable = await rejectsWith(settle(core.readServiceLogs(id, web)), 'NETWORK');
    assert.match(unreachable.message, /^The proxy 127\.0\.0\.1:1 could not be used: 127\.0\.0\.1:1 refused the connection/);
    answer = 'SOCKS5 127.0.0.1:1080';
    const socks = await rejectsWith(settle(core.readServiceLogs(id, web)), 'NETWORK');
    assert.match(socks.message, /through SOCKS5 127\.0\.0\.1:1080, which Paneldeck's log connection cannot use/);
  });
});
