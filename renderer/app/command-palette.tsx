import { Command } from 'cmdk';
import { useEffect, useMemo, useRef, useState } from 'react';
import { COMMANDS, shortcutLabel, type CommandId } from '../../shared/contract/commands.ts';
import type { Panel } from '../../shared/types.ts';
import { panelListRows, type SearchCache } from '../panel-list/index.ts';
import { matchesWords, searchQuery } from '../panel-list/index.ts';
import { ModalDialog } from '../ui/modal-dialog.tsx';
import { VIEW_COMMANDS } from '../window/view-commands.ts';
import { type EarlyInput, PALETTE_PLACEHOLDER, PALETTE_TITLE } from './palette-shell.tsx';

/** At most this many panels are listed: the palette jumps to one, it is not the list. */
const MAX_PANELS = 50;

interface CommandPaletteProps {
  panels: readonly Panel[];
  /** The commands that make sense now (e.g. Log out only for a signed-in panel), in order. */
  commands: readonly CommandId[];
  mac: boolean;
  onSelectPanel(id: string): void;
  onRun(command: CommandId): void;
  onClose(): void;
  /** What was typed before the palette's code arrived (palette-shell.tsx): taken up as it opens. */
  early: EarlyInput;
}

/**
 * Ctrl/Cmd+K: type to jump to any panel by name, address, group or tag, or to run any command,
 * each shown with its shortcut. The panels are matched and ranked as the list's search does it
 * (panel-search.ts: the best match of the name first, so Enter opens it), and only the first few
 * are put in the page, so it stays quick at ten thousand panels.
 */
export function CommandPalette({ panels, commands, mac, onSelectPanel, onRun, onClose, early }: CommandPaletteProps) {
  const [query, setQuery] = useState(early.query);
  const input = useRef<HTMLInputElement>(null);
  // After the dialog opened (its effect runs before this one): the cursor in the input. What the
  // stand-in took is read here, not while rendering: React may show a loaded view a moment after
  // rendering it, and keys typed meanwhile went to the stand-in.
  useEffect(() => {
    input.current?.focus();
    setQuery(early.query);
  }, [early]);
  const searchText = useRef<SearchCache>(new WeakMap());
  const { terms } = searchQuery(query);
  const matches = useMemo(
    () =>
      query.trim() === '' ? [] : panelListRows(panels, { query, attentionOnly: false }, searchText.current).rows.slice(0, MAX_PANELS + 1),
    [panels, query],
  );
  const matching = commands.filter((id) => matchesWords(COMMANDS[id].title, terms));
  // The views first, where a short window shows them without scrolling; then what the commands do.
  const groups = [
    { heading: 'Views', ids: matching.filter((id) => VIEW_COMMANDS.has(id)) },
    { heading: 'Commands', ids: matching.filter((id) => !VIEW_COMMANDS.has(id)) },
  ];
  /** A panel was chosen: the keyboard goes to it, not back to where the palette was opened. */
  const panelChosen = useRef(false);
  const choose = (action: () => void) => {
    onClose();
    action();
  };
  const choosePanel = (id: string) => {
    panelChosen.current = true;
    choose(() => onSelectPanel(id));
  };
  // Enter pressed while the palette loaded: what it would have chosen then, the first item listed
  // (cmdk selects the first), as soon as it is shown. Read through a ref: the newest lists.
  const chooseFirst = useRef<() => void>(() => undefined);
  chooseFirst.current = () => {
    const panel = matches[0]?.panel;
    const command = groups.find(({ ids }) => ids.length > 0)?.ids[0];
    if (panel) choosePanel(panel.id);
    else if (command) choose(() => onRun(command));
  };
  // Once the lists are those of what was typed: a query still being taken up waits a render.
  useEffect(() => {
    if (!early.enter || query !== early.query) return;
    early.enter = false;
    chooseFirst.current();
  }, [early, query]);
  return (
    <ModalDialog title={PALETTE_TITLE} onClose={onClose} className="palette-dialog" shouldRestoreFocus={() => !panelChosen.current}>
      {/* Our own matching (shouldFilter off): cmdk would score every panel on every key. */}
      <Command label="Jump to a panel or run a command" shouldFilter={false} loop>
        <Command.Input ref={input} value={query} onValueChange={setQuery} placeholder={PALETTE_PLACEHOLDER} />
        <Command.List>
          <Command.Empty>Nothing matches “{query}”.</Command.Empty>
          {matches.length > 0 && (
            <Command.Group heading={matches.length > MAX_PANELS ? `Panels (first ${MAX_PANELS}; type more to narrow)` : 'Panels'}>
              {matches.slice(0, MAX_PANELS).map(({ panel, label }) => (
                <Command.Item key={panel.id} value={`panel:${panel.id}`} onSelect={() => choosePanel(panel.id)}>
                  <span className="palette-name">{panel.name}</span>
                  <span className="palette-detail">
                    {panel.address} · {label}
                  </span>
                </Command.Item>
              ))}
            </Command.Group>
          )}
          {groups.map(
            ({ heading, ids }) =>
              ids.length > 0 && (
                <Command.Group key={heading} heading={heading}>
                  {ids.map((id) => {
                    const accelerator = COMMANDS[id].accelerator;
                    return (
                      <Command.Item key={id} value={`command:${id}`} onSelect={() => choose(() => onRun(id))}>
                        <span className="palette-name">{COMMANDS[id].title}</span>
                        {accelerator && <kbd className="palette-shortcut">{shortcutLabel(accelerator, mac)}</kbd>}
                      </Command.Item>
                    );
                  })}
                </Command.Group>
              ),
          )}
        </Command.List>
      </Command>
    </ModalDialog>
  );
}
