import type { OrgClient } from '../../api/org-client';
import { Field, FieldType } from '../../components/Field';
import { AccountCombobox } from '../../components/AccountCombobox';
import type { ArgumentsCheck } from './run-output';

interface RunInputsProps {
  orgClient: OrgClient;
  argsText: string;
  args: ArgumentsCheck;
  onArgsText: (text: string) => void;
  principal: string;
  onPrincipal: (principal: string) => void;
}

/** What a run gets besides the script: its JSON arguments and whom it runs as. */
export function RunInputs({ orgClient, argsText, args, onArgsText, principal, onPrincipal }: RunInputsProps) {
  return (
    <>
      <Field
        id="script-arguments"
        label={
          <>
            Arguments <FieldType>JSON · script.arguments</FieldType>
          </>
        }
        invalid={!args.ok}
        error={!args.ok && args.message}
        errorTestId="arguments-error"
      >
        {(id, describedBy) => (
          <textarea
            id={id}
            className="input input--area input--mono"
            rows={5}
            spellCheck={false}
            data-testid="script-arguments"
            aria-invalid={args.ok ? undefined : true}
            aria-describedby={describedBy}
            value={argsText}
            onChange={(e) => onArgsText(e.target.value)}
          />
        )}
      </Field>
      <Field
        id="script-principal"
        label={
          <>
            Run as <FieldType>optional · account id or email</FieldType>
          </>
        }
      >
        {(id) => (
          <AccountCombobox
            orgClient={orgClient}
            id={id}
            text={principal}
            onText={onPrincipal}
            onPick={(account) => onPrincipal(account.email)}
            testId="script-principal"
            placeholder="you"
          />
        )}
      </Field>
    </>
  );
}
