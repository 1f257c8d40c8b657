import { useId, useRef, type KeyboardEvent, type ReactNode } from 'react';

export interface Tab {
  id: string;
  /** The tab's label, already translated. */
  label: string;
  panel: ReactNode;
}

export interface TabsProps {
  tabs: readonly Tab[];
  selected: string;
  onSelect: (id: string) => void;
  /** Accessible name of the tab list. */
  label: string;
}

/**
 * An accessible tab list (WAI-ARIA tabs pattern): arrow keys move between tabs and select
 * them, Home and End go to the first and last, only the selected tab is in the tab order.
 *
 * Exactly one tab is in the tab order from the first render on: an unknown `selected` falls
 * back to the first tab. The keys move from the tab that has the focus (the key's target), so
 * a key pressed before the last selection has rendered still goes to the right neighbour.
 */
export function Tabs({ tabs, selected, onSelect, label }: TabsProps) {
  const id = useId();
  const refs = useRef<Record<string, HTMLButtonElement | null>>({});
  const index = Math.max(
    0,
    tabs.findIndex((t) => t.id === selected),
  );
  const current = tabs[index]?.id;

  const onKeyDown = (e: KeyboardEvent) => {
    const last = tabs.length - 1;
    const at = tabs.findIndex((t) => refs.current[t.id] === e.target);
    const from = at < 0 ? index : at;
    const next =
      e.key === 'ArrowRight'
        ? (from + 1) % tabs.length
        : e.key === 'ArrowLeft'
          ? (from - 1 + tabs.length) % tabs.length
          : e.key === 'Home'
            ? 0
            : e.key === 'End'
              ? last
              : -1;
    if (next < 0) return;
    e.preventDefault();
    const tab = tabs[next]!;
    onSelect(tab.id);
    refs.current[tab.id]?.focus();
  };

  return (
    <div className="tabs">
      <div
        className="tabs__list"
        role="tablist"
        aria-label={label}
        part="tablist"
        onKeyDown={onKeyDown}
      >
        {tabs.map((tab) => (
          <button
            key={tab.id}
            ref={(el) => {
              refs.current[tab.id] = el;
            }}
            type="button"
            role="tab"
            id={`${id}-tab-${tab.id}`}
            aria-selected={tab.id === current}
            aria-controls={`${id}-panel-${tab.id}`}
            tabIndex={tab.id === current ? 0 : -1}
            className="tabs__tab"
            part={tab.id === current ? 'tab tab-selected' : 'tab'}
            onClick={() => onSelect(tab.id)}
          >
            {tab.label}
          </button>
        ))}
      </div>
      {tabs.map((tab) => (
        <div
          key={tab.id}
          role="tabpanel"
          id={`${id}-panel-${tab.id}`}
          aria-labelledby={`${id}-tab-${tab.id}`}
          hidden={tab.id !== current}
          tabIndex={0}
          className="tabs__panel"
          part="tabpanel"
        >
          {tab.id === current && tab.panel}
        </div>
      ))}
    </div>
  );
}
