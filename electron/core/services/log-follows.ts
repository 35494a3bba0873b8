import { randomUUID } from 'node:crypto';
import { PanelError } from '../../../shared/contract/errors.ts';
import type { PanelEvent } from '../../../shared/contract/events.ts';
import type { ServiceLogFollow } from '../../../shared/service-logs.ts';
import type { LogSocket } from '../net/log-socket.ts';
import type { ProxyResolver } from '../net/proxy-tunnel.ts';
import { followLog, type LogPanel, type LogService } from '../easypanel/service-log-socket.ts';

/** How the follows batch and bound what they hand the window. */
export interface LogFollowLimits {
  /** Lines gathered this long go out as one event. */
  batchMs: number;
  /** Lines per event at most; past it, reading pauses until the next batch (the panel waits). */
  linesPerBatch: number;
  /** Follows open at once (one socket each); a new one past it ends the oldest. */
  maxFollows: number;
  connectTimeoutMs: number;
  maxMessageBytes: number;
}

export const LOG_FOLLOW_LIMITS: LogFollowLimits = {
  batchMs: 250,
  linesPerBatch: 2000,
  maxFollows: 4,
  connectTimeoutMs: 15_000,
  maxMessageBytes: 8 * 1024 * 1024,
};

/** What a follow is opened with besides its panel and service. */
export interface FollowHow {
  /** Whether the sign-in it was opened with still holds: checked at each batch. */
  stillSignedIn(): boolean;
  /** Told of the socket's own failure (a refused handshake), after the follow ended with it. */
  failed(error: PanelError): void;
  resolveProxy?: ProxyResolver | undefined;
}

interface Follow {
  info: ServiceLogFollow;
  socket: LogSocket;
  pending: string[];
  paused: boolean;
  /** Whether the sign-in it was opened with still holds: checked at each batch. */
  stillSignedIn(): boolean;
}

/**
 * The live follows of service logs. Each is one log socket; its lines are sent to the window in
 * batches (`batchMs`), at most `linesPerBatch` each: a panel that floods is read no faster than
 * that (its socket is paused while a full batch waits), so main's memory and time stay bounded. A
 * follow ends when stopped, when its sign-in ends (log out, expiry, a new token), when the window
 * stops listening (`stopAll`), or when the panel closes it, and the window hears `serviceLogEnded`.
 */
export class LogFollows {
  readonly #emit: (event: PanelEvent) => void;
  readonly #limits: LogFollowLimits;
  readonly #follows = new Map<string, Follow>();
  #timer: NodeJS.Timeout | null = null;

  constructor(emit: (event: PanelEvent) => void, limits: LogFollowLimits = LOG_FOLLOW_LIMITS) {
    this.#emit = emit;
    this.#limits = limits;
  }

  start(panelId: string, panel: LogPanel, token: string, service: LogService, how: FollowHow): ServiceLogFollow {
    const { stillSignedIn } = how;
    const info: ServiceLogFollow = { followId: randomUUID(), panelId, projectName: service.projectName, serviceName: service.serviceName };
    while (this.#follows.size >= this.#limits.maxFollows) {
      const oldest = this.#follows.keys().next().value as string;
      this.#end(oldest, new PanelError('CANCELLED', `Stopped following: at most ${this.#limits.maxFollows} logs are followed at once.`));
    }
    const { connectTimeoutMs, maxMessageBytes } = this.#limits;
    const socket = followLog(
      panel,
      token,
      service,
      {
        connectTimeoutMs,
        maxMessageBytes,
        resolveProxy: how.resolveProxy,
        // The token goes only in the socket's URL: made only while the sign-in it was asked under lasts.
        beforeConnect: () => {
          if (!stillSignedIn()) throw new PanelError('NOT_SIGNED_IN', 'The log was not opened: the sign-in it was asked under ended.');
        },
      },
      {
        lines: (lines) => this.#take(info.followId, lines),
        end: (error) => {
          this.#end(info.followId, error ?? new PanelError('NETWORK', 'The panel closed the log.'), false);
          if (error) how.failed(error);
        },
      },
    );
    this.#follows.set(info.followId, { info, socket, pending: [], paused: false, stillSignedIn });
    this.#timer ??= setInterval(() => this.#sendBatches(), this.#limits.batchMs).unref();
    return info;
  }

  /** Ends the follow (no error); unknown ids are ignored. */
  stop(followId: string): void {
    this.#end(followId, null);
  }

  /** Ends every follow: the window that asked for them is gone or reloaded. */
  stopAll(): void {
    for (const followId of [...this.#follows.keys()]) this.#end(followId, null);
  }

  /** Ends the follows of a panel whose sign-in ended, at once (the next batch would find it too). */
  signInEnded(panelId: string): void {
    for (const follow of [...this.#follows.values()]) if (follow.info.panelId === panelId) this.#endSignedOut(follow);
  }

  get size(): number {
    return this.#follows.size;
  }

  #take(followId: string, lines: string[]): void {
    const follow = this.#follows.get(followId);
    if (!follow) return;
    for (const line of lines) follow.pending.push(line);
    if (!follow.paused && follow.pending.length >= this.#limits.linesPerBatch) {
      follow.paused = true;
      follow.socket.pause();
    }
  }

  #sendBatches(): void {
    for (const follow of [...this.#follows.values()]) {
      if (!follow.stillSignedIn()) {
        this.#endSignedOut(follow);
        continue;
      }
      this.#flush(follow);
    }
  }

  #flush(follow: Follow): void {
    if (follow.pending.length === 0) return;
    const lines = follow.pending.splice(0, this.#limits.linesPerBatch);
    this.#send({ type: 'serviceLogLines', followId: follow.info.followId, lines });
    if (follow.paused && follow.pending.length < this.#limits.linesPerBatch) {
      follow.paused = false;
      follow.socket.resume();
    }
  }

  #endSignedOut(follow: Follow): void {
    this.#end(follow.info.followId, new PanelError('NOT_SIGNED_IN', 'The sign-in to the panel ended, and so did following its log.'));
  }

  #end(followId: string, error: PanelError | null, close = true): void {
    const follow = this.#follows.get(followId);
    if (!follow) return;
    this.#follows.delete(followId);
    if (close) follow.socket.close();
    // What was read before the end still reaches the window, a batch's worth at most.
    this.#flush(follow);
    this.#send({ type: 'serviceLogEnded', followId, error: error && { code: error.code, message: error.message } });
    if (this.#follows.size === 0 && this.#timer) {
      clearInterval(this.#timer);
      this.#timer = null;
    }
  }

  #send(event: PanelEvent): void {
    try {
      this.#emit(event);
    } catch {
      // A window that is gone must not break the follows.
    }
  }
}
