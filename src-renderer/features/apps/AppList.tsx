import type { ServiceApp } from '../../api/apps';

/** The org's applications; the selected one is marked. */
export function AppList({
  apps,
  selectedKey,
  onSelect,
}: {
  apps: ServiceApp[];
  selectedKey: string | undefined;
  onSelect: (key: string) => void;
}) {
  if (apps.length === 0) {
    return (
      <p className="empty-state" data-testid="apps-empty">
        No applications yet.
      </p>
    );
  }
  return (
    <ul className="keys-list" data-testid="app-list" aria-label="Applications">
      {apps.map((a) => (
        <li key={a.key}>
          <button
            type="button"
            className={a.key === selectedKey ? 'keys-list__item keys-list__item--on' : 'keys-list__item'}
            aria-current={a.key === selectedKey || undefined}
            data-testid="app-item"
            data-key={a.key}
            onClick={() => onSelect(a.key)}
          >
            <span className="keys-list__label">{a.label}</span>
            <span className={a.enabled ? 'badge badge--muted' : 'badge badge--warn'}>
              {a.enabled ? a.kind : 'disabled'}
            </span>
            <span className="keys-list__sub">{a.key}</span>
          </button>
        </li>
      ))}
    </ul>
  );
}
