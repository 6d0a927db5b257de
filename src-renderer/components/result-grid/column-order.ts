/**
 * The order of the grid's columns as the user dragged it (issue 44 item 10), kept per org and
 * collection in localStorage like the widths (column-widths.ts), so a collection opens as it was
 * left. Columns the stored order does not name keep their place after the ordered ones.
 */
import { useCallback, useState } from 'react';
import type { Column } from './columns';

export function orderKey(org: string, collection: string): string {
  return `console.browse.order.${org}.${collection}`;
}

/** A stored order: path strings only (storage is user-editable), each once, at most 500. */
export function parseOrder(text: string | null): string[] {
  if (text === null) return [];
  try {
    const value: unknown = JSON.parse(text);
    if (!Array.isArray(value)) return [];
    return [...new Set(value.filter((p): p is string => typeof p === 'string' && p.length <= 300))].slice(0, 500);
  } catch {
    return [];
  }
}

/** The columns in the stored order; those it does not name follow in their own order. */
export function applyOrder<T extends Pick<Column, 'path'>>(columns: readonly T[], order: readonly string[]): T[] {
  const rank = new Map(order.map((path, index) => [path, index]));
  const named = columns
    .filter((c) => rank.has(c.path))
    .sort((a, b) => (rank.get(a.path) ?? 0) - (rank.get(b.path) ?? 0));
  return [...named, ...columns.filter((c) => !rank.has(c.path))];
}

/**
 * The order after moving `path` to where `target` is (before it when moving left, after it when
 * moving right), given the columns as they show now. Unknown paths change nothing.
 */
export function moveColumn(shown: readonly string[], path: string, target: string): string[] {
  const from = shown.indexOf(path);
  const to = shown.indexOf(target);
  if (from === -1 || to === -1 || from === to) return [...shown];
  const next = shown.filter((p) => p !== path);
  next.splice(to, 0, path);
  return next;
}

export function useColumnOrder(org: string, collection: string): [string[], (order: string[]) => void] {
  const key = orderKey(org, collection);
  const [state, setState] = useState<{ key: string; order: string[] }>(() => ({ key, order: read(key) }));
  // Another collection: its own stored order (state derived from the key, not an effect).
  const order = state.key === key ? state.order : read(key);
  if (state.key !== key) setState({ key, order });
  const setOrder = useCallback(
    (next: string[]) => {
      try {
        window.localStorage.setItem(key, JSON.stringify(next));
      } catch {
        /* storage off: the order lasts for this visit */
      }
      setState({ key, order: next });
    },
    [key],
  );
  return [order, setOrder];
}

function read(key: string): string[] {
  try {
    return parseOrder(window.localStorage.getItem(key));
  } catch {
    return [];
  }
}
