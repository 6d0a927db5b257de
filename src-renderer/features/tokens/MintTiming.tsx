import type { ServiceApp } from '../../api/apps';
import { TIME_UNITS, mintExclusions, type MintDraft, type MintField, type TimeUnit } from './mint-form';
import { FieldError, FieldSet } from '../../components/Field';

interface MintTimingProps {
  draft: MintDraft;
  app: ServiceApp | undefined;
  change: (patch: Partial<MintDraft>) => void;
  errorOf: (field: MintField) => string | undefined;
}

/** When a minted token starts and ends: now / after / at, and the app's lifetime / after / never. */
export function MintTiming({ draft, app, change, errorOf }: MintTimingProps) {
  const exclusions = mintExclusions(draft);
  return (
    <>
      <FieldSet legend="Starts" className="keys-section" testId="mint-start">
        <Radio
          name="start"
          value="now"
          checked={draft.start === 'now'}
          label="Now"
          onChange={() => change({ start: 'now' })}
        />
        <div className="lab__row">
          <Radio
            name="start"
            value="activatesIn"
            checked={draft.start === 'activatesIn'}
            disabled={!exclusions.delayedStartAllowed}
            label="After (activatesIn)"
            onChange={() => change({ start: 'activatesIn' })}
          />
          <Span
            value={draft.activatesIn}
            unit={draft.activatesUnit}
            disabled={draft.start !== 'activatesIn'}
            testId="mint-activatesIn"
            onValue={(activatesIn) => change({ activatesIn })}
            onUnit={(activatesUnit) => change({ activatesUnit })}
          />
          {draft.start === 'activatesIn' && errorOf('activatesIn') && (
            <FieldError as="span">{errorOf('activatesIn')}</FieldError>
          )}
        </div>
        <div className="lab__row">
          <Radio
            name="start"
            value="validAt"
            checked={draft.start === 'validAt'}
            disabled={!exclusions.delayedStartAllowed}
            label="At (validAt, UTC)"
            onChange={() => change({ start: 'validAt' })}
          />
          <input
            type="datetime-local"
            className="input"
            style={{ width: 210 }}
            aria-label="Valid from (UTC)"
            data-testid="mint-validAt"
            disabled={draft.start !== 'validAt'}
            value={draft.validAt}
            onChange={(e) => change({ validAt: e.target.value })}
          />
          {draft.start === 'validAt' && errorOf('validAt') && <FieldError as="span">{errorOf('validAt')}</FieldError>}
        </div>
        {!exclusions.delayedStartAllowed && (
          <p className="keys-note">A permanent token is valid at once: activatesIn and validAt do not apply.</p>
        )}
      </FieldSet>

      <FieldSet legend="Expires" className="keys-section" testId="mint-expiry">
        <Radio
          name="expiry"
          value="default"
          checked={draft.expiry === 'default'}
          label={`After the app’s lifetime${app ? ` (${app.authDuration} s)` : ''}`}
          onChange={() => change({ expiry: 'default' })}
        />
        <div className="lab__row">
          <Radio
            name="expiry"
            value="expiresIn"
            checked={draft.expiry === 'expiresIn'}
            label="After (expiresIn)"
            onChange={() => change({ expiry: 'expiresIn' })}
          />
          <Span
            value={draft.expiresIn}
            unit={draft.expiresUnit}
            disabled={draft.expiry !== 'expiresIn'}
            testId="mint-expiresIn"
            onValue={(expiresIn) => change({ expiresIn })}
            onUnit={(expiresUnit) => change({ expiresUnit })}
          />
          {draft.expiry === 'expiresIn' && errorOf('expiresIn') && (
            <FieldError as="span">{errorOf('expiresIn')}</FieldError>
          )}
        </div>
        <Radio
          name="expiry"
          value="permanent"
          checked={draft.expiry === 'permanent'}
          disabled={!exclusions.permanentAllowed}
          label="Never (permanent, stored and revocable)"
          testId="mint-permanent"
          onChange={() => change({ expiry: 'permanent' })}
        />
        {!exclusions.permanentAllowed && <p className="keys-note">A token with a delayed start cannot be permanent.</p>}
      </FieldSet>
    </>
  );
}

function Radio(props: {
  name: string;
  value: string;
  checked: boolean;
  disabled?: boolean;
  label: string;
  testId?: string;
  onChange: () => void;
}) {
  return (
    <label className={props.disabled ? 'check check--disabled' : 'check'}>
      <input
        type="radio"
        name={props.name}
        value={props.value}
        checked={props.checked}
        disabled={props.disabled}
        data-testid={props.testId ?? `mint-${props.name}-${props.value}`}
        onChange={props.onChange}
      />
      {props.label}
    </label>
  );
}

function Span(props: {
  value: string;
  unit: TimeUnit;
  disabled: boolean;
  testId: string;
  onValue: (value: string) => void;
  onUnit: (unit: TimeUnit) => void;
}) {
  return (
    <>
      <input
        className="input input--mono"
        inputMode="numeric"
        aria-label="Amount"
        data-testid={props.testId}
        disabled={props.disabled}
        value={props.value}
        onChange={(e) => props.onValue(e.target.value)}
      />
      <select
        className="select"
        aria-label="Unit"
        data-testid={`${props.testId}-unit`}
        disabled={props.disabled}
        value={props.unit}
        onChange={(e) => props.onUnit(e.target.value as TimeUnit)}
      >
        {(Object.keys(TIME_UNITS) as TimeUnit[]).map((unit) => (
          <option key={unit} value={unit}>
            {unit === 's' ? 'seconds' : unit === 'min' ? 'minutes' : unit === 'h' ? 'hours' : 'days'}
          </option>
        ))}
      </select>
    </>
  );
}
