import type { CommandId } from '../../shared/contract/commands.ts';

export type CommandHandler = () => void;

/**
 * Who carries out each of the window's commands (shared/contract/commands.ts), whichever way it was asked
 * for: main's menu, a shortcut, the palette or the row menu. A part of the window registers the
 * commands it can carry out while it is shown (the list: find, check all; the panel view:
 * refresh, log in...) and unregisters when it goes, so a command reaches only what is on screen
 * now, once, and nothing is kept to be replayed later.
 */
export class CommandRegistry {
  /** Per command, its handlers in the order registered: the newest answers, the others wait behind it. */
  readonly #handlers = new Map<CommandId, CommandHandler[]>();

  /** Registers `handler` for `command`; the function returned unregisters it (and only it). */
  register(command: CommandId, handler: CommandHandler): () => void {
    // Wrapped, so the same function registered twice is still two registrations to undo one by one.
    const entry: CommandHandler = () => handler();
    this.#handlers.set(command, [...(this.#handlers.get(command) ?? []), entry]);
    return () => {
      const rest = (this.#handlers.get(command) ?? []).filter((registered) => registered !== entry);
      if (rest.length > 0) this.#handlers.set(command, rest);
      else this.#handlers.delete(command);
    };
  }

  /** Registers several at once; the function returned unregisters them all. */
  registerAll(handlers: Partial<Record<CommandId, CommandHandler>>): () => void {
    const undo = Object.entries(handlers).map(([command, handler]) => this.register(command as CommandId, handler!));
    return () => {
      for (const unregister of undo) unregister();
    };
  }

  /** Carries out `command` by its newest handler; false when nothing shown can carry it out now. */
  run(command: CommandId): boolean {
    const handler = this.#handlers.get(command)?.at(-1);
    if (!handler) return false;
    handler();
    return true;
  }

  has(command: CommandId): boolean {
    return this.#handlers.has(command);
  }
}
