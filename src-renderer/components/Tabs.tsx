interface TabsProps<T extends string> {
  tabs: readonly T[];
  labels: Record<T, string>;
  current: T;
  onChange: (tab: T) => void;
  /** Accessible name of the tab list. */
  label: string;
  /** Prefix of each tab's test id: `<id>-<tab>`. */
  testId: string;
}

/** A row of tabs over one panel; the current tab usually lives in the URL. */
export function Tabs<T extends string>({ tabs, labels, current, onChange, label, testId }: TabsProps<T>) {
  return (
    <div className="segmented" role="tablist" aria-label={label}>
      {tabs.map((tab) => (
        <button
          key={tab}
          type="button"
          role="tab"
          aria-selected={current === tab}
          className={current === tab ? 'segmented__item segmented__item--on' : 'segmented__item'}
          data-testid={`${testId}-${tab}`}
          onClick={() => onChange(tab)}
        >
          {labels[tab]}
        </button>
      ))}
    </div>
  );
}
