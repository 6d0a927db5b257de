import { useState } from 'react';

const BUILDER_OPEN_KEY = 'console.browse.builderOpen';

/** Whether the builder is expanded; remembered across visits, closed by default (Compass's bar). */
export function useBuilderOpen(): [boolean, (open: boolean) => void] {
  const [open, setOpen] = useState(() => readStored(BUILDER_OPEN_KEY) === 'true');
  return [
    open,
    (next) => {
      setOpen(next);
      writeStored(BUILDER_OPEN_KEY, String(next));
    },
  ];
}

function readStored(key: string): string | null {
  try {
    return window.localStorage.getItem(key);
  } catch {
    return null;
  }
}

function writeStored(key: string, value: string): void {
  try {
    window.localStorage.setItem(key, value);
  } catch {
    /* storage full or off: the choice lasts for this visit */
  }
}
