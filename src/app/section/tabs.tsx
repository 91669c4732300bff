/**
 * An edit page's tabs (part 1 §2 asset edit; part 2 accounts): a keyboard-operable tablist
 * (arrows, Home, End move and focus), the chosen tab kept in the URL's `?tab=` (the first tab is
 * the default and leaves the URL bare), one panel for the chosen tab.
 */
import { useRef, type KeyboardEvent, type ReactNode } from 'react';
import { useSearchParams } from 'react-router-dom';
import './section.css';

export interface TabSpec<K extends string> {
  key: K;
  label: string;
}

/** The tab the URL asks for when it is one of `keys`, else the first. */
export function useTabParam<K extends string>(keys: readonly K[]): [K, (next: K) => void] {
  const [params, setParams] = useSearchParams();
  const asked = params.get('tab');
  const first = keys[0] as K;
  const tab = keys.find((key) => key === asked) ?? first;
  const choose = (next: K) => setParams(next === first ? {} : { tab: next }, { replace: true });
  return [tab, choose];
}

export interface TabsProps<K extends string> {
  tabs: readonly TabSpec<K>[];
  selected: K;
  onSelect(next: K): void;
  /** The tablist's name. */
  label: string;
  /** Ids of the tabs and panels: `${idPrefix}-tab-${key}`, `${idPrefix}-panel-${key}`. */
  idPrefix: string;
  /** The chosen tab's panel. */
  children: ReactNode;
}

export function Tabs<K extends string>({ tabs, selected, onSelect, label, idPrefix, children }: TabsProps<K>) {
  const refs = useRef<Partial<Record<K, HTMLButtonElement | null>>>({});
  const keys = tabs.map((tab) => tab.key);
  const onKeyDown = (event: KeyboardEvent<HTMLButtonElement>) => {
    const at = keys.indexOf(selected);
    const to =
      event.key === 'ArrowRight'
        ? (at + 1) % keys.length
        : event.key === 'ArrowLeft'
          ? (at - 1 + keys.length) % keys.length
          : event.key === 'Home'
            ? 0
            : event.key === 'End'
              ? keys.length - 1
              : -1;
    const next = keys[to];
    if (to < 0 || next === undefined) return;
    event.preventDefault();
    onSelect(next);
    refs.current[next]?.focus();
  };
  return (
    <>
      <div className="tabs" role="tablist" aria-label={label}>
        {tabs.map(({ key, label: tabLabel }) => (
          <button
            key={key}
            ref={(element) => {
              refs.current[key] = element;
            }}
            type="button"
            role="tab"
            id={`${idPrefix}-tab-${key}`}
            className="tab"
            aria-selected={key === selected}
            aria-controls={`${idPrefix}-panel-${key}`}
            tabIndex={key === selected ? 0 : -1}
            onClick={() => onSelect(key)}
            onKeyDown={onKeyDown}
          >
            {tabLabel}
          </button>
        ))}
      </div>
      <div role="tabpanel" id={`${idPrefix}-panel-${selected}`} aria-labelledby={`${idPrefix}-tab-${selected}`}>
        {children}
      </div>
    </>
  );
}
