/**
 * The pipeline builder's model: an ordered list of stage cards, each one stage operator with its
 * value as JSON text, enabled or not. Disabled cards stay in the list (and in the URL and the
 * query library, by index in `off`) but are left out of every request. Pure, so unit-tested.
 *
 * Two ways in and out: the cards' texts make the JSON pipeline editor's text (verbatim, so a
 * card's typing error shows in the editor too), and a JSON text typed there is merged back into
 * the cards it came from, keeping each card's identity, its own text when its value did not
 * change, and the disabled cards where they were.
 */
import { isJsonObject, JsonSyntaxError, parseJson, type JsonValue } from '../../../../src-shared/query/json';

export interface StageCard {
  /** Stable identity across edits and moves (React keys, previews). */
  id: string;
  /** The stage operator, the one key of the stage document (`$group`). */
  operator: string;
  /** The stage's value as JSON text, as typed. */
  text: string;
  enabled: boolean;
}

/** A stage read from JSON: its operator and its value. */
export interface ParsedStage {
  operator: string;
  value: JsonValue;
}

let sequence = 0;
/** A fresh card id (unique within the page). */
export function nextCardId(): string {
  sequence += 1;
  return `stage-${sequence}`;
}

/** Values up to this long are written on one line (most stages are); longer ones indented. */
const ONE_LINE = 96;

/**
 * A stage value as card text: one line with spaces after `:` and `,` when short
 * (`{"_id": "locale", "count": {"$sum": 1}}`), else indented JSON.
 */
export function stageValueText(value: JsonValue): string {
  const line = compactJson(value);
  return line.length <= ONE_LINE ? line : JSON.stringify(value, null, 2);
}

/** JSON on one line, spaced for reading: `{"a": 1, "b": [1, 2]}`. */
export function compactJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(compactJson).join(', ')}]`;
  if (typeof value === 'object' && value !== null) {
    const members = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined);
    return `{${members.map(([k, v]) => `${JSON.stringify(k)}: ${compactJson(v)}`).join(', ')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

export function newCard(operator: string, text: string): StageCard {
  return { id: nextCardId(), operator, text, enabled: true };
}

export type PipelineRead =
  { ok: true; stages: ParsedStage[] } | { ok: false; message: string; offset?: number; index?: number };

/** Reads pipeline text: a JSON array of one-key stage documents (`[{"$match": {…}}, …]`). */
export function readPipelineText(text: string): PipelineRead {
  if (text.trim() === '') return { ok: true, stages: [] };
  let value: JsonValue;
  try {
    value = parseJson(text);
  } catch (error) {
    if (error instanceof JsonSyntaxError) return { ok: false, message: error.message, offset: error.offset };
    throw error;
  }
  if (!Array.isArray(value)) return { ok: false, message: 'A pipeline is a JSON array of stages: [{"$match": {…}}].' };
  const stages: ParsedStage[] = [];
  for (const [index, stage] of value.entries()) {
    const keys = isJsonObject(stage) ? Object.keys(stage) : [];
    const operator = keys[0];
    if (!isJsonObject(stage) || keys.length !== 1 || operator === undefined || !operator.startsWith('$')) {
      return {
        ok: false,
        index,
        message: `Stage ${index + 1} must be a document with one stage operator, such as {"$match": {…}}.`,
      };
    }
    stages.push({ operator, value: stage[operator] as JsonValue });
  }
  return { ok: true, stages };
}

/** Cards from a stored pipeline (URL, query library): `off` names the disabled stages. */
export function cardsFromStages(stages: readonly ParsedStage[], off: readonly number[] = []): StageCard[] {
  return stages.map((stage, index) => ({
    ...newCard(stage.operator, stageValueText(stage.value)),
    enabled: !off.includes(index),
  }));
}

export type CardValue = { ok: true; value: JsonValue } | { ok: false; message: string; offset: number };

/** A card's value, or where its text stops being JSON. */
export function cardValue(card: Pick<StageCard, 'text'>): CardValue {
  try {
    return { ok: true, value: parseJson(card.text.trim() === '' ? 'null' : card.text) };
  } catch (error) {
    if (error instanceof JsonSyntaxError) return { ok: false, message: error.message, offset: error.offset };
    throw error;
  }
}

/** Every card as a stage document, or null while any card's text is not JSON. */
export function storedStages(cards: readonly StageCard[]): { stages: JsonValue[]; off: number[] } | null {
  const stages: JsonValue[] = [];
  const off: number[] = [];
  for (const [index, card] of cards.entries()) {
    const read = cardValue(card);
    if (!read.ok) return null;
    stages.push({ [card.operator]: read.value });
    if (!card.enabled) off.push(index);
  }
  return { stages, off };
}

/** The enabled cards with their indexes among the enabled ones (the index a fault names). */
export function enabledCards(cards: readonly StageCard[]): StageCard[] {
  return cards.filter((card) => card.enabled);
}

/**
 * The JSON editor's text: the enabled cards' texts placed verbatim in an array, so the editor
 * shows exactly what was typed on the cards (errors included).
 */
export function pipelineEditorText(cards: readonly StageCard[]): string {
  const enabled = enabledCards(cards);
  if (enabled.length === 0) return '[]';
  const body = enabled
    .map((card) => `  {${JSON.stringify(card.operator)}: ${indentAfterFirstLine(card.text.trim() || 'null', '  ')}}`)
    .join(',\n');
  return `[\n${body}\n]`;
}

function indentAfterFirstLine(text: string, indent: string): string {
  return text.replace(/\n/g, `\n${indent}`);
}

/**
 * Merges stages typed in the JSON editor into the cards: the i-th stage goes to the i-th enabled
 * card (its text kept when the value is the same), disabled cards keep their places, surplus
 * enabled cards go and extra stages become new cards at the end.
 */
export function mergeEditedStages(cards: readonly StageCard[], stages: readonly ParsedStage[]): StageCard[] {
  const out: StageCard[] = [];
  let next = 0;
  for (const card of cards) {
    if (!card.enabled) {
      out.push(card);
      continue;
    }
    const stage = stages[next];
    next += 1;
    if (stage === undefined) continue;
    const current = cardValue(card);
    const same =
      stage.operator === card.operator && current.ok && JSON.stringify(current.value) === JSON.stringify(stage.value);
    out.push(same ? card : { ...card, operator: stage.operator, text: stageValueText(stage.value) });
  }
  for (const stage of stages.slice(next)) out.push(newCard(stage.operator, stageValueText(stage.value)));
  return out;
}

export function moveCard(cards: readonly StageCard[], from: number, to: number): StageCard[] {
  if (from === to || to < 0 || to >= cards.length) return [...cards];
  const next = [...cards];
  const [card] = next.splice(from, 1);
  if (card) next.splice(to, 0, card);
  return next;
}

export function updateCard(cards: readonly StageCard[], id: string, patch: Partial<StageCard>): StageCard[] {
  return cards.map((card) => (card.id === id ? { ...card, ...patch, id } : card));
}

export function removeCard(cards: readonly StageCard[], id: string): StageCard[] {
  return cards.filter((card) => card.id !== id);
}

export function insertCard(cards: readonly StageCard[], at: number, card: StageCard): StageCard[] {
  const next = [...cards];
  next.splice(Math.max(0, Math.min(at, next.length)), 0, card);
  return next;
}
