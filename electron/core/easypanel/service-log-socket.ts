import { SERVICE_LOG_LINES } from '../../../shared/service-logs.ts';
import { PanelError } from '../../../shared/contract/errors.ts';
import type { ServiceRef } from '../../../shared/service-logs.ts';
import { isRecord } from '../../../shared/guards.ts';
import { normaliseAddress } from '../common/address.ts';
import { type SecretMatcher, secretMatcher } from '../secrets/secret-match.ts';
import { type LogSocket, openLogSocket } from '../net/log-socket.ts';
import type { PanelEndpoint } from './panel-endpoints.ts';
import type { ProxyResolver } from '../net/proxy-tunnel.ts';

/**
 * A service's runtime log over the panel's log WebSocket (docs/easypanel-api.md: `/ws/serviceLogs?token=
 * &service=<p>_<s>&compose=false` (`true` for a compose service), frames `{"output": "..."}`, the first one the backlog). The
 * socket sits at the root of the panel's origin, beside `/api`: `https://host/api` has its log at
 * `wss://host/ws/serviceLogs`. Plain `ws:` only where the panel's address is plain http, which
 * the operator allowed for it (or a loopback host).
 */

export const SERVICE_LOGS_PATH = '/ws/serviceLogs';
/** The longest line kept; a longer one is cut with "…" (and the read says `truncated`). */
export const MAX_LINE_CHARS = 4000;

export interface LogPanel extends Pick<PanelEndpoint, 'baseUrl' | 'trustedCertificate'> {
  allowPlainHttp: boolean;
}

/** The service whose log is asked for; `compose`: a compose service (its type, read from the panel, not the window's word). */
export interface LogService extends ServiceRef {
  compose: boolean;
}

/** The log socket's URL, the token in its query (never shown: see log-socket.ts). */
export function serviceLogUrl(panel: LogPanel, token: string, service: LogService): URL {
  // Checked again: an http address the operator did not allow gets no token.
  const api = new URL(normaliseAddress(panel.baseUrl, { allowPlainHttp: panel.allowPlainHttp }).baseUrl);
  const url = new URL(SERVICE_LOGS_PATH, api.origin);
  url.protocol = api.protocol === 'https:' ? 'wss:' : 'ws:';
  url.search = new URLSearchParams({
    token,
    service: `${service.projectName}_${service.serviceName}`,
    compose: String(service.compose),
  }).toString();
  return url;
}

/** The text of a frame, or null when it is not `{"output": string}`. */
export function frameOutput(text: string): string | null {
  try {
    const frame: unknown = JSON.parse(text);
    return isRecord(frame) && typeof frame.output === 'string' ? frame.output : null;
  } catch {
    return null;
  }
}

// Colour and cursor codes (CSI, OSC) are removed; any other control character, and the marks that
// reorder text (bidi overrides), are shown as U+FFFD so that nothing in a line hides another part.
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point
const ESCAPES = /\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)?/g;
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point
const UNSAFE = /[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]/g;

/** A line as the window shows it, and whether it was cut. */
export function cleanLine(raw: string): { line: string; cut: boolean } {
  const line = raw.replace(/\r$/, '').replace(ESCAPES, '').replace(UNSAFE, '\uFFFD');
  return line.length > MAX_LINE_CHARS ? { line: `${line.slice(0, MAX_LINE_CHARS - 1)}…`, cut: true } : { line, cut: false };
}

/** What stands in for a line that holds the panel's token in any form: the window never gets it. */
export const HIDDEN_LINE = '[Paneldeck hid a line that holds the panel’s token]';

/** What stands before the lines kept of a frame that held more than are kept: how many were left out. */
export function leftOutLine(count: number): string {
  return `[Paneldeck left out ${count.toLocaleString('en')} earlier lines of one part of the log too long to show whole]`;
}

/**
 * Splits the frames' text into lines; a line whose end has not come yet waits for the next frame.
 * A line holding the token (`holdsToken`: in any form, encoded too) is replaced by `HIDDEN_LINE`.
 * Of a frame with more than `maxLines` lines only the last `maxLines` are made, found from the end
 * (the ones before are counted, never split out): one frame of millions of short lines costs a
 * scan, not millions of strings (`leftOutLine` says how many went).
 */
export class LineSplitter {
  readonly #holdsToken: SecretMatcher;
  readonly #maxLines: number;
  #carry = '';
  cut = false;

  constructor(holdsToken: SecretMatcher = () => false, maxLines = Number.POSITIVE_INFINITY) {
    this.#holdsToken = holdsToken;
    this.#maxLines = maxLines;
  }

  push(output: string): string[] {
    const text = `${this.#carry}${output}`;
    const lastBreak = text.lastIndexOf('\n');
    if (lastBreak < 0) {
      this.#carry = text;
      return this.#carryTooLong();
    }
    this.#carry = text.slice(lastBreak + 1);
    // The start of the last `maxLines` lines, found from the end.
    let start = lastBreak + 1;
    for (let found = 0; found < this.#maxLines && start > 0; found++) {
      // The line ending at `start - 1` begins after the break before it, or at the text's start.
      start = start - 1 === 0 ? 0 : text.lastIndexOf('\n', start - 2) + 1;
    }
    const kept = text.slice(start, lastBreak).split('\n');
    const lines = kept.map((part) => this.#line(part));
    if (start > 0) {
      let dropped = 0;
      for (let at = text.indexOf('\n'); at >= 0 && at < start; at = text.indexOf('\n', at + 1)) dropped++;
      this.cut = true;
      lines.unshift(leftOutLine(dropped));
    }
    return [...lines, ...this.#carryTooLong()];
  }

  /** A "line" that never ends is cut, not kept growing. */
  #carryTooLong(): string[] {
    if (this.#carry.length <= MAX_LINE_CHARS * 2) return [];
    const line = this.#line(this.#carry);
    this.#carry = '';
    return [line];
  }

  /** The last line, ended or not. */
  rest(): string[] {
    const rest = this.#carry;
    this.#carry = '';
    return rest === '' ? [] : [this.#line(rest)];
  }

  #line(raw: string): string {
    if (this.#holdsToken(raw)) return HIDDEN_LINE;
    const { line, cut } = cleanLine(raw);
    if (cut) this.cut = true;
    return line;
  }
}

export interface BacklogOptions {
  /** How many lines, from the end. */
  lines: number;
  /** The whole read: connecting, the upgrade, the backlog. */
  deadlineMs: number;
  /** The largest backlog taken (one message). */
  maxBytes: number;
  signal?: AbortSignal;
  /** The system's proxy; without it the socket connects directly. */
  resolveProxy?: ProxyResolver | undefined;
  /** Run right before the socket (its URL holds the token) is made; throws to open nothing. */
  beforeConnect?: (() => void) | undefined;
}

/** Opens the log socket, takes its first frame (the backlog) and closes it. Fails only with `PanelError`. */
export function readBacklog(
  panel: LogPanel,
  token: string,
  service: LogService,
  options: BacklogOptions,
): Promise<{ lines: string[]; truncated: boolean }> {
  const host = new URL(panel.baseUrl).host;
  return new Promise((resolve, reject) => {
    let settled = false;
    const settle = (outcome: () => { lines: string[]; truncated: boolean }) => {
      if (settled) return;
      settled = true;
      clearTimeout(deadline);
      options.signal?.removeEventListener('abort', cancel);
      socket.close();
      try {
        resolve(outcome());
      } catch (error) {
        reject(error);
      }
    };
    const fail = (error: PanelError) =>
      settle(() => {
        throw error;
      });
    const socket = openLogSocket({
      url: serviceLogUrl(panel, token, service),
      trustedCertificate: panel.trustedCertificate?.sha256 ?? null,
      connectTimeoutMs: options.deadlineMs,
      maxMessageBytes: options.maxBytes,
      resolveProxy: options.resolveProxy,
      beforeConnect: options.beforeConnect,
      onMessage: (text) => settle(() => backlogLines(text, options.lines, host, secretMatcher([token]))),
      onEnd: (error) => fail(error ?? new PanelError('BAD_RESPONSE', `The panel at ${host} closed its log before sending it.`)),
    });
    const deadline = setTimeout(
      () => fail(new PanelError('TIMEOUT', `The panel at ${host} did not send the log within ${options.deadlineMs / 1000} s.`)),
      options.deadlineMs,
    );
    const cancel = () => fail(new PanelError('CANCELLED', `Reading the log from ${host} was cancelled.`));
    if (options.signal?.aborted) cancel();
    else options.signal?.addEventListener('abort', cancel, { once: true });
  });
}

function backlogLines(text: string, count: number, host: string, holdsToken: SecretMatcher): { lines: string[]; truncated: boolean } {
  const output = frameOutput(text);
  if (output === null) throw new PanelError('BAD_RESPONSE', `The panel at ${host} sent a log that is not {"output": text}.`);
  // Only the lines asked for are made, from the end of the backlog.
  const splitter = new LineSplitter(holdsToken, count);
  const all = [...splitter.push(output), ...splitter.rest()].filter((line) => !line.startsWith('[Paneldeck left out '));
  return { lines: all.slice(-count), truncated: all.length > count || splitter.cut };
}

export interface FollowHandlers {
  lines(lines: string[]): void;
  end(error: PanelError | null): void;
}

/**
 * Opens the log socket and hands on the lines of every frame but the first (the backlog, which
 * `readBacklog` reads); frames that are not `{"output": text}` are skipped.
 */
export function followLog(
  panel: LogPanel,
  token: string,
  service: LogService,
  options: {
    connectTimeoutMs: number;
    maxMessageBytes: number;
    resolveProxy?: ProxyResolver | undefined;
    beforeConnect?: (() => void) | undefined;
  },
  on: FollowHandlers,
): LogSocket {
  let backlogSeen = false;
  // A frame's lines past what a log view keeps are counted, not made (SERVICE_LOG_LINES.max).
  const splitter = new LineSplitter(secretMatcher([token]), SERVICE_LOG_LINES.max);
  return openLogSocket({
    url: serviceLogUrl(panel, token, service),
    trustedCertificate: panel.trustedCertificate?.sha256 ?? null,
    ...options,
    onMessage: (text) => {
      if (!backlogSeen) {
        backlogSeen = true;
        return;
      }
      const output = frameOutput(text);
      if (output === null) return;
      const lines = splitter.push(output);
      if (lines.length > 0) on.lines(lines);
    },
    onEnd: (error) => {
      const rest = splitter.rest();
      if (rest.length > 0) on.lines(rest);
      on.end(error);
    },
  });
}
