import { useMemo } from 'react';
import type { ObjectDef } from '../../../../src-shared/schema/types';
import { cardValue, stageValueText } from './stage-cards';
import {
  DATE_UNITS,
  groupablePaths,
  groupFormValue,
  readGroupForm,
  type GroupForm,
  type GroupUnit,
} from './group-form';

const UNIT_LABELS: Record<GroupUnit, string> = { value: 'each value', year: 'year', month: 'month', day: 'day' };

/** "Count per <path> [per month]" over a `$group` card's text; richer groups are edited as JSON. */
export function GroupFormRow({
  def,
  text,
  number,
  onText,
}: {
  def: ObjectDef;
  text: string;
  number: number;
  onText: (text: string) => void;
}) {
  const paths = useMemo(() => groupablePaths(def), [def]);
  const read = cardValue({ text });
  const form = read.ok ? readGroupForm(read.value) : null;
  const current: GroupForm = form ?? { path: '', unit: 'value', countName: 'count' };
  const isDate = paths.some((p) => p.path === current.path && p.date);
  const write = (patch: Partial<GroupForm>) => {
    const next = { ...current, ...patch };
    const date = paths.some((p) => p.path === next.path && p.date);
    if (!date) next.unit = 'value';
    else if (patch.path !== undefined && patch.path !== current.path && next.unit === 'value') next.unit = 'month';
    onText(stageValueText(groupFormValue(next)));
  };
  return (
    <div className="group-form" role="group" aria-label={`Simple grouping of stage ${number}`}>
      <label className="inline-select">
        Count per
        <select
          className="select"
          data-testid="agg-group-path"
          value={form ? current.path : ''}
          onChange={(e) => write({ path: e.target.value })}
        >
          {!form && <option value="">(custom: see JSON)</option>}
          {paths.map((p) => (
            <option key={p.path} value={p.path}>
              {p.path}
            </option>
          ))}
        </select>
      </label>
      {form && isDate && (
        <label className="inline-select">
          by
          <select
            className="select"
            data-testid="agg-group-unit"
            value={current.unit}
            onChange={(e) => write({ unit: e.target.value as GroupUnit })}
          >
            {(['value', ...DATE_UNITS] as GroupUnit[]).map((unit) => (
              <option key={unit} value={unit}>
                {UNIT_LABELS[unit]}
              </option>
            ))}
          </select>
        </label>
      )}
    </div>
  );
}
