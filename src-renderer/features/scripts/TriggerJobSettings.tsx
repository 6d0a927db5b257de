import { useQuery } from '@tanstack/react-query';
import type { OrgClient } from '../../api/org-client';
import { schemasQuery } from '../../api/schemas';
import { TRIGGER_EVENTS, type TriggerEvent } from '../../api/scripts';
import { Field, FieldType } from '../../components/Field';
import { PrincipalField, WeightField } from './ScriptSettingsRows';
import type { SaveErrors, SaveFields } from './save-draft';

interface TriggerJobSettingsProps {
  orgClient: OrgClient;
  fields: SaveFields;
  change: (patch: Partial<SaveFields>) => void;
  errors: SaveErrors;
  touched: boolean;
}

/** Types no trigger fires for (the service refuses them on save: docs/scripting.md#triggers). */
const UNTRIGGERED = new Set(['log', 'audit', 'script', 'view', 'deployment']);

/**
 * What the service keeps for a trigger (object type, event, weight, inline) or a job (its UTC
 * schedule), and whom either runs as (issue 41, docs/scripting.md#triggers and #jobs).
 */
export function TriggerJobSettings({ orgClient, fields, change, errors, touched }: TriggerJobSettingsProps) {
  const trigger = fields.type === 'trigger';
  return (
    <div className="script-route-settings" data-testid={trigger ? 'trigger-settings' : 'job-settings'}>
      <div className="script-save__fields">
        {trigger ? (
          <TriggerFields orgClient={orgClient} fields={fields} change={change} errors={errors} touched={touched} />
        ) : (
          <Field
            label={
              <>
                Schedule <FieldType>cron, UTC</FieldType>
              </>
            }
            error={touched && errors.cron}
            hint="minute hour day-of-month month day-of-week; missed runs are not replayed"
          >
            <input
              className="input input--mono"
              data-testid="save-cron"
              value={fields.cron}
              placeholder="*/5 * * * *"
              onChange={(e) => change({ cron: e.target.value })}
            />
          </Field>
        )}
        <PrincipalField
          orgClient={orgClient}
          value={fields.principal}
          emptyHint={
            trigger ? 'Empty: the trigger runs as the account that writes.' : 'Empty: the job runs anonymously.'
          }
          placeholder={trigger ? 'the writer' : 'anonymous'}
          onChange={(principal) => change({ principal })}
        />
      </div>
    </div>
  );
}

function TriggerFields({ orgClient, fields, change, errors, touched }: TriggerJobSettingsProps) {
  const schemas = useQuery(schemasQuery(orgClient));
  const names = (schemas.data ?? []).map((s) => s.name).filter((name) => !UNTRIGGERED.has(name));
  const known = fields.object === '' || fields.object === '*' || names.includes(fields.object);
  return (
    <>
      <Field label="Object" error={touched && errors.object}>
        <select
          className="select select--large"
          data-testid="save-object"
          value={fields.object}
          onChange={(e) => change({ object: e.target.value })}
        >
          <option value="">choose…</option>
          <option value="*">every type (*)</option>
          {!known && <option value={fields.object}>{fields.object} (not a type of this org)</option>}
          {names.map((name) => (
            <option key={name} value={name}>
              {name}
            </option>
          ))}
        </select>
      </Field>
      <Field label="Event" error={touched && errors.event}>
        <select
          className="select select--large"
          data-testid="save-event"
          value={fields.event}
          onChange={(e) => change({ event: e.target.value as TriggerEvent })}
        >
          {TRIGGER_EVENTS.map((event) => (
            <option key={event} value={event}>
              {event}
            </option>
          ))}
        </select>
      </Field>
      <WeightField
        value={fields.weight}
        note="higher runs first"
        error={touched && errors.weight}
        onChange={(weight) => change({ weight })}
      />
      {fields.event.endsWith('.after') && (
        <label className="check script-save__active">
          <input
            type="checkbox"
            data-testid="save-inline"
            checked={fields.inline}
            onChange={(e) => change({ inline: e.target.checked })}
          />
          Inline (the writer waits for it)
        </label>
      )}
    </>
  );
}
