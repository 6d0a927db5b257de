import type { ReactNode } from 'react';
import type { OrgClient } from '../../api/org-client';
import { Field, FieldType } from '../../components/Field';
import { AccountCombobox } from '../../components/AccountCombobox';

/** A script's weight (routes: among equal priorities; triggers: higher runs first). */
export function WeightField({
  value,
  note,
  error,
  onChange,
}: {
  value: string;
  note: string;
  error?: ReactNode;
  onChange: (weight: string) => void;
}) {
  return (
    <Field
      label={
        <>
          Weight <FieldType>{note}</FieldType>
        </>
      }
      error={error}
    >
      <input
        className="input input--mono script-save__number"
        inputMode="decimal"
        data-testid="save-weight"
        value={value}
        placeholder="0"
        onChange={(e) => onChange(e.target.value)}
      />
    </Field>
  );
}

/** Whom a route, trigger or job runs as; `emptyHint` says whom when none is named. */
export function PrincipalField({
  orgClient,
  value,
  emptyHint,
  placeholder,
  onChange,
}: {
  orgClient: OrgClient;
  value: string;
  emptyHint: string;
  placeholder: string;
  onChange: (principal: string) => void;
}) {
  return (
    <Field
      label={
        <>
          Runs as (principal) <FieldType>account email or _id</FieldType>
        </>
      }
      hint={value.trim() === '' ? emptyHint : undefined}
    >
      {(id, describedBy) => (
        <AccountCombobox
          orgClient={orgClient}
          id={id}
          describedBy={describedBy}
          text={value}
          onText={onChange}
          onPick={(account) => onChange(account.email)}
          testId="save-principal"
          placeholder={placeholder}
        />
      )}
    </Field>
  );
}
