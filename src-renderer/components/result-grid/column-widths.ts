/**
 * Column widths the user dragged, kept per org and collection in localStorage, so a collection
 * opens as it was left and widths stay put between pages (the grid never sizes from content).
 */
import { useCallback, useState } from 'react';

export const MIN_COLUMN_WIDTH = 60;
export const MAX_COLUMN_WIDTH = 1200;

export type ColumnWidths = Readonly<Record<string, number>>;

export function widthsKey(org: string, collection: string): string {
  return `console.browse.widths.${org}.${collection}`;
}

/** Stored widths, ignoring anything that is not a sane number (storage is user-editable). */
export function parseWidths(text: string | null): ColumnWidths {
  if (text === null) return {};
  try {
    const value: unknown = JSON.parse(text);
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return {};
    const out: Record<string, number> = {};
    for (const [path, width] of Object.entries(value)) {
      if (typeof width === 'number' && Number.isFinite(width)) out[path] = clampWidth(width);
    }
    return out;
  } catch {
    return {};
  }
}

export function clampWidth(width: number): number {
  return Math.round(Math.min(MAX_COLUMN_WIDTH, Math.max(MIN_COLUMN_WIDTH, width)));
}

export function useColumnWidths(
  org: string,
  collection: string,
): [ColumnWidths, (path: string, width: number) => void] {
  const key = widthsKey(org, collection);
  const [state, setState] = useState<{ key: string; widths: ColumnWidths }>(() => ({ key, widths: read(key) }));
  // Another collection: its own stored widths (state derived from the key, not an effect).
  const widths = state.key === key ? state.widths : read(key);
  if (state.key !== key) setState({ key, widths });
  const setWidth = useCallback(
    (path: string, width: number) => {
      setState((old) => {
        const next = { ...(old.key === key ? old.widths : read(key)), [path]: clampWidth(width) };
        try {
          window.localStorage.setItem(key, JSON.stringify(next));
        } catch {
          /* storage off: widths last for this visit */
        }
        return { key, widths: next };
      });
    },
    [key],
  );
  return [widths, setWidth];
}

function read(key: string): ColumnWidths {
  try {
    return parseWidths(window.localStorage.getItem(key));
  } catch {
    return {};
  }
}
