import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  cleanLine,
  frameOutput,
  leftOutLine,
  LineSplitter,
  MAX_LINE_CHARS,
  serviceLogUrl,
} from '../../../../electron/core/easypanel/service-log-socket.ts';

const panel = (baseUrl: string, allowPlainHttp = false) => ({ baseUrl, allowPlainHttp, trustedCertificate: null });
const web = { projectName: 'shop', serviceName: 'web_1', compose: false };

test('the log socket sits at the root of the origin, wss for https, ws only where plain http is allowed', () => {
  const url = serviceLogUrl(panel('https://panel.example.com/api'), 'tok', web);
  assert.equal(`${url.origin}${url.pathname}`, 'wss://panel.example.com/ws/serviceLogs');
  assert.deepEqual(Object.fromEntries(url.searchParams), { token: 'tok', service: 'shop_web_1', compose: 'false' });
  assert.equal(serviceLogUrl(panel('http://127.0.0.1:3000/api'), 't', web).protocol, 'ws:');
  assert.equal(serviceLogUrl(panel('http://10.0.0.5:3000/api', true), 't', web).host, '10.0.0.5:3000');
  assert.throws(() => serviceLogUrl(panel('http://10.0.0.5:3000/api'), 't', web), { code: 'INVALID_INPUT' });
  // A token with URL syntax in it stays one query value.
  assert.equal(serviceLogUrl(panel('https://p.example.com/api'), 'a&service=x#y', web).searchParams.get('service'), 'shop_web_1');
});

test("a compose service's log is asked for with compose=true", () => {
  const url = serviceLogUrl(panel('https://panel.example.com/api'), 'tok', { ...web, compose: true });
  assert.equal(url.searchParams.get('compose'), 'true');
});

test('frames are {"output": text}; anything else is not a log', () => {
  assert.equal(frameOutput('{"output":"a\\nb"}'), 'a\nb');
  for (const text of ['', 'null', '[1]', '{"output":3}', '{"data":"x"}', '{"output":']) assert.equal(frameOutput(text), null, text);
});

test('lines: colour codes removed, control and bidi characters shown as U+FFFD, CR dropped, long lines cut', () => {
  assert.deepEqual(cleanLine('\x1b[1;31mERR\x1b[0m\r'), { line: 'ERR', cut: false });
  assert.equal(cleanLine('a\x00b\x07c\u202ed\x9b').line, 'a\uFFFDb\uFFFDc\uFFFDd\uFFFD');
  assert.equal(cleanLine('tab\tkept').line, 'tab\tkept');
  const long = cleanLine('x'.repeat(MAX_LINE_CHARS + 10));
  assert.equal(long.line.length, MAX_LINE_CHARS);
  assert.equal(long.cut, true);
});

test('a line split across frames waits for its end; a line that never ends is cut, not kept growing', () => {
  const splitter = new LineSplitter();
  assert.deepEqual(splitter.push('one\ntw'), ['one']);
  assert.deepEqual(splitter.push('o\nthree'), ['two']);
  assert.deepEqual(splitter.rest(), ['three']);
  assert.deepEqual(splitter.rest(), []);
  const endless = new LineSplitter();
  assert.deepEqual(endless.push('y'.repeat(MAX_LINE_CHARS)), []);
  const out = endless.push('y'.repeat(MAX_LINE_CHARS + 1));
  assert.equal(out.length, 1);
  assert.equal(endless.cut, true);
});

test('one frame of millions of short lines: only the last lines kept are made, the rest counted', () => {
  const lines = 2_800_000;
  const frame = Array.from({ length: lines }, (_, index) => `l${index}`).join('\n') + '\n';
  const splitter = new LineSplitter(() => false, 10_000);
  const out = splitter.push(frame);
  assert.equal(out.length, 10_001);
  assert.equal(out[0], leftOutLine(lines - 10_000));
  assert.equal(out[1], `l${lines - 10_000}`);
  assert.equal(out.at(-1), `l${lines - 1}`);
  assert.equal(splitter.cut, true);
  // A frame within the bound is kept whole, its unended last line carried to the next.
  const small = new LineSplitter(() => false, 10_000);
  assert.deepEqual(small.push('a\nb\nc'), ['a', 'b']);
  assert.deepEqual(small.push('d\n'), ['cd']);
  assert.equal(small.cut, false);
});
