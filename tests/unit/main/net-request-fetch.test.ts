import assert from 'node:assert/strict';
import { EventEmitter } from 'node:events';
import { test } from 'node:test';
import { sendRequest, type HttpRequest } from '../../../electron/core/net/http-client.ts';
import { netRequestFetch, type NetRequestOptions } from '../../../electron/main/net-request-fetch.ts';
import { rejectsWith } from '../../support/helpers.ts';

/** Stands for Electron's IncomingMessage: an emitter with a status, headers, and pause/resume. */
class FakeMessage extends EventEmitter {
  statusCode: number;
  statusMessage: string;
  headers: Record<string, string | string[]>;
  paused = false;
  constructor(statusCode: number, headers: Record<string, string | string[]> = {}, statusMessage = '') {
    super();
    this.statusCode = statusCode;
    this.headers = headers;
    this.statusMessage = statusMessage;
  }
  pause() {
    this.paused = true;
  }
  resume() {
    this.paused = false;
  }
}

/** Stands for Electron's ClientRequest: `server` plays the network once the request is ended. */
class FakeRequest extends EventEmitter {
  readonly options: NetRequestOptions;
  aborted = false;
  sentBody: string | undefined;
  #server: (request: FakeRequest) => void;
  constructor(options: NetRequestOptions, server: (request: FakeRequest) => void) {
    super();
    this.options = options;
    this.#server = server;
  }
  abort() {
    if (this.aborted) return;
    this.aborted = true;
    // As Electron does: 'abort' comes on the next tick.
    process.nextTick(() => this.emit('abort'));
  }
  end(chunk?: string) {
    this.sentBody = chunk;
    setImmediate(() => this.#server(this));
    return this;
  }
}

function fakeNet(server: (request: FakeRequest) => void) {
  const requests: FakeRequest[] = [];
  const request = (options: NetRequestOptions) => {
    const fake = new FakeRequest(options, server);
    requests.push(fake);
    return fake;
  };
  return { fetch: netRequestFetch(request), requests };
}

const tick = () => new Promise((resolve) => setImmediate(resolve));

test('a 200 resolves at once and its body streams from the data events', async () => {
  let message: FakeMessage | undefined;
  const { fetch, requests } = fakeNet((request) => {
    message = new FakeMessage(200, { 'content-type': 'application/json', 'x-many': ['a', 'b'] }, 'OK');
    request.emit('response', message);
  });
  const response = await fetch('https://panel.example/api/getSession', {
    method: 'POST',
    headers: { authorization: 'Bearer t0ken', 'Content-Type': 'application/json' },
    body: '{"a":1}',
  });
  assert.equal(response.status, 200);
  assert.equal(response.statusText, 'OK');
  assert.equal(response.headers.get('content-type'), 'application/json');
  assert.equal(response.headers.get('x-many'), 'a, b');

  const reader = response.body!.getReader();
  message!.emit('data', Buffer.from('{"ok":'));
  message!.emit('data', Buffer.from('true}'));
  message!.emit('end');
  const chunks: string[] = [];
  for (let read = await reader.read(); !read.done; read = await reader.read()) chunks.push(Buffer.from(read.value).toString());
  assert.equal(chunks.join(''), '{"ok":true}');

  const sent = requests[0]!;
  assert.equal(sent.options.method, 'POST');
  assert.equal(sent.options.url, 'https://panel.example/api/getSession');
  assert.deepEqual(sent.options.headers, { authorization: 'Bearer t0ken', 'content-type': 'application/json' });
  assert.equal(sent.sentBody, '{"a":1}');
  assert.equal(sent.aborted, false);
});

test('no cookies, no redirects followed, no disk cache: the options say so', async () => {
  const { fetch, requests } = fakeNet((request) => request.emit('response', new FakeMessage(204)));
  await fetch('https://panel.example/', { method: 'GET' });
  const options = requests[0]!.options;
  assert.equal(options.redirect, 'manual');
  assert.equal(options.credentials, 'omit');
  assert.equal(options.useSessionCookies, false);
  assert.equal(options.cache, 'no-store');
  assert.equal(requests[0]!.sentBody, undefined);
});

test('a redirect is not followed: the request is aborted and a 3xx with its Location comes back', async () => {
  let followed = false;
  const { fetch, requests } = fakeNet((request) => {
    // Electron cancels the redirect unless followRedirect is called during the event; record any later call.
    request.emit('redirect', 302, 'GET', 'https://elsewhere.example/steal', { location: ['/steal'], 'set-cookie': ['a=b'] });
    followed = !request.aborted;
  });
  const response = await fetch('https://panel.example/api/login', { method: 'POST', body: 'secret' });
  assert.equal(response.status, 302);
  assert.equal(response.headers.get('location'), 'https://elsewhere.example/steal');
  assert.equal(response.headers.get('set-cookie'), null);
  assert.equal(requests[0]!.aborted, true);
  assert.equal(followed, false, 'the request was aborted inside the redirect event');
});

test("with the core's sendRequest: a cross-origin redirect is refused, a same-origin one is followed as a GET", async () => {
  const { fetch, requests } = fakeNet((request) => {
    const path = new URL(request.options.url).pathname;
    if (path === '/api/away') request.emit('redirect', 301, 'GET', 'https://evil.example/x', { location: ['https://evil.example/x'] });
    else if (path === '/api/moved') request.emit('redirect', 303, 'GET', 'https://panel.example/api/here', { location: ['/api/here'] });
    else {
      const message = new FakeMessage(200, { 'content-type': 'text/plain' });
      request.emit('response', message);
      message.emit('data', Buffer.from(`${request.options.method} ${path}`));
      message.emit('end');
    }
  });
  const base: HttpRequest = {
    method: 'POST',
    url: '',
    headers: { 'content-type': 'application/json' },
    body: '{}',
    timeoutMs: 2000,
    maxBytes: 1000,
    secrets: [],
  };
  await rejectsWith(sendRequest(fetch, { ...base, url: 'https://panel.example/api/away' }), 'REDIRECT_REFUSED', /evil\.example/);
  const followed = await sendRequest(fetch, { ...base, url: 'https://panel.example/api/moved' });
  assert.equal(followed.status, 200);
  assert.equal(followed.text, 'GET /api/here');
  assert.equal(followed.url, 'https://panel.example/api/here');
  assert.equal(requests.at(-1)!.sentBody, undefined, 'the 303 dropped the body');
});

test('an abort signal aborts the request and rejects with its reason, before or after the headers', async () => {
  const { fetch, requests } = fakeNet(() => undefined); // the server never answers
  const controller = new AbortController();
  const pending = fetch('https://panel.example/', { signal: controller.signal });
  await tick();
  const reason = new DOMException('The request timed out.', 'TimeoutError');
  controller.abort(reason);
  await assert.rejects(pending, (error) => error === reason);
  assert.equal(requests[0]!.aborted, true);

  let message: FakeMessage | undefined;
  const streaming = fakeNet((request) => {
    message = new FakeMessage(200);
    request.emit('response', message);
  });
  const midBody = new AbortController();
  const response = await streaming.fetch('https://panel.example/', { signal: midBody.signal });
  message!.emit('data', Buffer.from('part'));
  midBody.abort(reason);
  const reader = response.body!.getReader();
  await assert.rejects(
    async () => {
      for (;;) if ((await reader.read()).done) break;
    },
    (error) => error === reason,
  );
  assert.equal(streaming.requests[0]!.aborted, true);
});

test('an already aborted signal sends nothing', async () => {
  const { fetch, requests } = fakeNet(() => assert.fail('no request should be sent'));
  const reason = new Error('stop');
  await assert.rejects(fetch('https://panel.example/', { signal: AbortSignal.abort(reason) }), (error) => error === reason);
  assert.equal(requests.length, 0);
});

test("network errors reject with Chromium's net::ERR_ name, which the core turns into an operator's message", async () => {
  const { fetch } = fakeNet((request) => request.emit('error', new Error('net::ERR_CONNECTION_REFUSED')));
  await assert.rejects(fetch('https://panel.example/', {}), { message: 'net::ERR_CONNECTION_REFUSED' });
  const request: HttpRequest = {
    method: 'GET',
    url: 'https://panel.example/api/getSession',
    headers: {},
    timeoutMs: 2000,
    maxBytes: 1000,
    secrets: [],
  };
  await rejectsWith(sendRequest(fetch, request), 'NETWORK', /refused the connection/);

  const cert = fakeNet((request) => request.emit('error', new Error('net::ERR_CERT_AUTHORITY_INVALID')));
  await rejectsWith(sendRequest(cert.fetch, request), 'TLS', /authority/);
});

test('an error while the body streams errors the body', async () => {
  let message: FakeMessage | undefined;
  const { fetch } = fakeNet((request) => {
    message = new FakeMessage(200);
    request.emit('response', message);
  });
  const response = await fetch('https://panel.example/', {});
  message!.emit('data', Buffer.from('half'));
  message!.emit('error', new Error('net::ERR_CONNECTION_RESET'));
  await assert.rejects(response.text(), (error: unknown) => {
    // undici wraps a stream error in a TypeError; the net error is the cause or the error itself.
    const found =
      error instanceof Error &&
      (error.message === 'net::ERR_CONNECTION_RESET' || (error.cause as Error | undefined)?.message === 'net::ERR_CONNECTION_RESET');
    return found;
  });
});

test('cancelling the body aborts the request', async () => {
  let message: FakeMessage | undefined;
  const { fetch, requests } = fakeNet((request) => {
    message = new FakeMessage(200, { 'content-length': '99999999' });
    request.emit('response', message);
  });
  const response = await fetch('https://panel.example/', {});
  assert.equal(requests[0]!.aborted, false);
  await response.body!.cancel();
  assert.equal(requests[0]!.aborted, true);
  // Late data after the cancel is dropped without throwing.
  message!.emit('data', Buffer.from('late'));
  message!.emit('end');
});

test('a large body pauses the network until it is read', async () => {
  let message: FakeMessage | undefined;
  const { fetch } = fakeNet((request) => {
    message = new FakeMessage(200);
    request.emit('response', message);
  });
  const response = await fetch('https://panel.example/', {});
  message!.emit('data', Buffer.alloc(80 * 1024, 1));
  assert.equal(message!.paused, true);
  const reader = response.body!.getReader();
  const first = await reader.read();
  assert.equal(first.value?.byteLength, 80 * 1024);
  await tick();
  assert.equal(message!.paused, false);
  await reader.cancel();
});

test('an answer with no body or a status fetch cannot represent', async () => {
  const empty = fakeNet((request) => request.emit('response', new FakeMessage(304, { etag: 'x' })));
  const notModified = await empty.fetch('https://panel.example/', {});
  assert.equal(notModified.status, 304);
  assert.equal(notModified.body, null);

  const odd = fakeNet((request) => request.emit('response', new FakeMessage(600)));
  await assert.rejects(odd.fetch('https://panel.example/', {}), { message: 'net::ERR_INVALID_RESPONSE' });
  assert.equal(odd.requests[0]!.aborted, true);
});

test('a request that Electron refuses to create rejects instead of throwing', async () => {
  const fetch = netRequestFetch(() => {
    throw new Error('ClientRequest only supports http: and https: protocols');
  });
  await assert.rejects(fetch('ftp://panel.example/', {}), { message: /only supports http/ });
  await assert.rejects(fakeNet(() => undefined).fetch('https://panel.example/', { method: 'POST', body: new Uint8Array([1]) }), TypeError);
});
