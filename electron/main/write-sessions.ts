import type { FetchLike } from '../core/index.ts';

/**
 * Writes to panels over Chromium's network stack, each over a connection of its own: Chromium sends
 * a request again by itself when a reused connection is reset before an answer, a POST too
 * (tests/browser/connection-resend.spec.ts), and a deploy must never reach a panel twice. Each
 * pinned certificate (or none) gets a few sessions of its own for writes, one write at a time each;
 * before a write, its session's connections are all closed, so the write opens a fresh one.
 */

/** A session kept for writes: its fetch, and closing every connection it holds. */
export interface WriteSession {
  fetch: FetchLike;
  closeAllConnections(): Promise<void>;
}

export interface WriteSessionsDeps {
  /** Makes the `slot`th write session for a pin (the app: a partition of its own, judging with exactly that pin). */
  open(trustedCertificate: string | null, slot: number): WriteSession;
}

interface Slot {
  session: WriteSession;
  busy: boolean;
}

/** The fetch writes go through (`CoreOptions.writeFetch`). */
export function writeSessionsFetch({ open }: WriteSessionsDeps): FetchLike {
  const slotsByPin = new Map<string, Slot[]>();
  const take = (pin: string | null): Slot => {
    const key = pin ?? '';
    const slots = slotsByPin.get(key) ?? [];
    slotsByPin.set(key, slots);
    const free = slots.find((slot) => !slot.busy);
    // A slot a write at a time: as many as writes at once to panels of that pin (main bounds them).
    const slot = free ?? { session: open(pin, slots.length), busy: false };
    if (!free) slots.push(slot);
    slot.busy = true;
    return slot;
  };
  return async (url, init, tls) => {
    const slot = take(tls?.trustedCertificate ?? null);
    try {
      // Nothing else uses this session now: with its connections closed, the write opens a new one.
      await slot.session.closeAllConnections();
      return await slot.session.fetch(url, init, tls);
    } finally {
      slot.busy = false;
    }
  };
}
