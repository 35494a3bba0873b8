import type { ExpiryNotifier } from '../core/index.ts';

/** The part of an Electron `Notification` used here. */
export interface SystemNotification {
  on(event: 'click' | 'close', listener: () => void): unknown;
  show(): void;
}

/** Electron's `Notification` class: a constructor, and whether this system shows notifications at all. */
export interface NotificationClass {
  new (options: { title: string; body: string }): SystemNotification;
  isSupported(): boolean;
}

/** Notifications kept alive at most: one per expiring panel is the norm, so this is only a bound. */
const MAX_KEPT = 32;

/**
 * System notifications over Electron's `Notification`; nothing at all where the system has none.
 * The text comes from the expiry watcher: the panel's name in the title (plain text everywhere),
 * only times in the body (which some Linux servers read as markup).
 */
export function systemNotifier(Notification: NotificationClass): ExpiryNotifier {
  // A notification that is garbage-collected loses its click handler: keep the recent ones.
  const kept = new Set<SystemNotification>();
  return {
    notify({ title, body, onClick }) {
      if (!Notification.isSupported()) return;
      const notification = new Notification({ title, body });
      notification.on('click', () => {
        kept.delete(notification);
        onClick();
      });
      notification.on('close', () => kept.delete(notification));
      kept.add(notification);
      for (const oldest of kept) {
        if (kept.size <= MAX_KEPT) break;
        kept.delete(oldest);
      }
      notification.show();
    },
  };
}
