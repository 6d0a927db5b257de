import type { OrgSummary } from '../../api/types';

interface OrgPickerProps {
  orgs: OrgSummary[];
  current: string;
  onSelect: (code: string) => void;
}

/** Names the org being signed in to; a select when the service hosts more than one. */
export function OrgPicker({ orgs, current, onSelect }: OrgPickerProps) {
  const currentOrg = orgs.find((org) => org.code === current);
  if (orgs.length <= 1) {
    const name = currentOrg?.name ?? current;
    return (
      <>
        to <strong>{name}</strong> {name !== current && <code>{current}</code>}
      </>
    );
  }
  return (
    <label className="inline-select">
      to org{' '}
      <select
        className="select"
        data-testid="org-picker"
        value={current}
        onChange={(event) => onSelect(event.target.value)}
      >
        {orgs.map((org) => (
          <option key={org.code} value={org.code}>
            {org.name} ({org.code})
          </option>
        ))}
      </select>
    </label>
  );
}
