/**
 * A searchable, virtualized asset picker (part 2 §2 Trips "The user picks 1 to 5 assets"; R2R's
 * asset; §9 "Lists over 20 options are virtualized"): a search box over the names, then one
 * checkbox row per matching asset drawn by react-window, with the chosen ones listed above as
 * removable chips. `single` makes a choice replace the previous one. The limits are the form's
 * (its schema's texts show under the picker), so the picker itself refuses nothing.
 */
import { useId, useMemo, useState, type ReactNode } from 'react';
import { List, type RowComponentProps } from 'react-window';
import type { FleetEntry } from '../fleet-list';
import './asset-picker.css';

/** px: one row of the picker. */
export const PICKER_ROW_PX = 34;
/** Rows shown before the list scrolls. */
export const PICKER_VISIBLE_ROWS = 7;

export interface AssetPickerProps {
  label: string;
  entries: readonly FleetEntry[] | null;
  chosen: readonly string[];
  onChange(next: string[]): void;
  single?: boolean;
  /** Shown under the picker (the form's message), linked to it for assistive technology. */
  error?: string | null;
  /** The chip of a chosen asset may carry a mark (the trips page's colour swatch). */
  chipMark?: (id: string, index: number) => ReactNode;
  loadingText: string;
  emptyText: string;
}

interface RowProps {
  rows: readonly FleetEntry[];
  chosen: ReadonlySet<string>;
  toggle(id: string): void;
  name: string;
}

function PickerRow({ index, style, rows, chosen, toggle, name }: RowComponentProps<RowProps>) {
  const entry = rows[index];
  if (!entry) return null;
  return (
    <label className="asset-picker-row" style={style}>
      <input type="checkbox" name={name} checked={chosen.has(entry.id)} onChange={() => toggle(entry.id)} />
      <span>{entry.name}</span>
    </label>
  );
}

export function AssetPicker({ label, entries, chosen, onChange, single, error, chipMark, loadingText, emptyText }: AssetPickerProps) {
  const id = useId();
  const [search, setSearch] = useState('');
  const chosenSet = useMemo(() => new Set(chosen), [chosen]);
  const rows = useMemo(() => {
    const needle = search.trim().toLowerCase();
    const all = entries ?? [];
    return needle ? all.filter((entry) => entry.name.toLowerCase().includes(needle) || entry.id.toLowerCase() === needle) : all;
  }, [entries, search]);
  const names = useMemo(() => new Map((entries ?? []).map((entry) => [entry.id, entry.name])), [entries]);
  const toggle = (thingId: string) => {
    if (chosenSet.has(thingId)) onChange(chosen.filter((other) => other !== thingId));
    else onChange(single ? [thingId] : [...chosen, thingId]);
  };
  const errorId = `${id}-error`;
  return (
    <fieldset className="asset-picker" aria-describedby={error ? errorId : undefined} aria-invalid={error ? true : undefined}>
      <legend>{label}</legend>
      {chosen.length > 0 && (
        <ul className="asset-picker-chips" aria-label={`${label}: chosen`}>
          {chosen.map((thingId, index) => (
            <li key={thingId} className="asset-picker-chip">
              {chipMark?.(thingId, index)}
              <span>{names.get(thingId) ?? thingId}</span>
              <button type="button" aria-label={`Remove ${names.get(thingId) ?? thingId}`} onClick={() => toggle(thingId)}>
                ×
              </button>
            </li>
          ))}
        </ul>
      )}
      <input
        className="asset-picker-search"
        type="search"
        aria-label={`Search ${label}`}
        placeholder="Search"
        value={search}
        onChange={(event) => setSearch(event.target.value)}
      />
      {entries === null ? (
        <p className="asset-picker-note">{loadingText}</p>
      ) : rows.length === 0 ? (
        <p className="asset-picker-note">{emptyText}</p>
      ) : (
        <List<RowProps>
          className="asset-picker-list"
          // Rows are labelled checkboxes, not list items.
          role="group"
          aria-label={label}
          style={{ height: Math.min(rows.length, PICKER_VISIBLE_ROWS) * PICKER_ROW_PX }}
          rowComponent={PickerRow}
          rowCount={rows.length}
          rowHeight={PICKER_ROW_PX}
          rowProps={{ rows, chosen: chosenSet, toggle, name: `${id}-asset` }}
          defaultHeight={PICKER_VISIBLE_ROWS * PICKER_ROW_PX}
          overscanCount={4}
        />
      )}
      {error && (
        <p id={errorId} className="field-error" role="alert">
          {error}
        </p>
      )}
    </fieldset>
  );
}
