import type { Panel } from '../../shared/types.ts';
import { panelStatus } from '../panel-status.ts';
import { PlainHttpBadge } from './plain-http.tsx';

interface SidebarProps {
  panels: readonly Panel[];
  selectedId: string | null;
  onSelect(id: string): void;
  onAdd(): void;
  /** Absent while the app's status is not known yet. */
  onPreferences?: () => void;
}

export function Sidebar({ panels, selectedId, onSelect, onAdd, onPreferences }: SidebarProps) {
  return (
    <nav className="sidebar" aria-label="Panels">
      <div className="sidebar-header">
        <span className="brand">Paneldeck</span>
        <button type="button" className="button-primary" onClick={onAdd}>
          Add panel
        </button>
      </div>
      <ul className="panel-list">
        {panels.map((panel) => {
          const status = panelStatus(panel);
          return (
            <li key={panel.id}>
              <button
                type="button"
                className="panel-item"
                aria-current={panel.id === selectedId ? 'page' : undefined}
                onClick={() => onSelect(panel.id)}
                title={`${panel.name}: ${status.label}`}
              >
                <span className={`status-dot status-${status.kind}`} aria-hidden="true" />
                <span className="panel-item-text">
                  <span className="panel-item-name">{panel.name}</span>
                  <span className="panel-item-address">{panel.address}</span>
                  <PlainHttpBadge panel={panel} />
                </span>
                <span className="visually-hidden">, {status.label}</span>
              </button>
            </li>
          );
        })}
      </ul>
      <div className="sidebar-footer">
        <button type="button" onClick={onPreferences} disabled={!onPreferences}>
          Preferences
        </button>
      </div>
    </nav>
  );
}
