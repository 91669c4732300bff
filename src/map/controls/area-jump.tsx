/**
 * part 1 §2: the area search 'Jump to your saved areas...' — a combobox over the organization's
 * areas (WAI-ARIA combobox with a listbox popup: arrows move, Enter picks, Escape closes).
 */
import { useId, useMemo, useState } from 'react';
import { MAP_CONTROL_TEXT, MAP_TEXT } from '../../domain/labels';

export interface AreaChoice {
  id: string;
  name: string;
}

/** Shown at most; typing narrows the rest (an organization may have hundreds of areas). */
const MAX_OPTIONS = 50;

export function matchAreas(areas: readonly AreaChoice[], query: string): AreaChoice[] {
  const q = query.trim().toLowerCase();
  const matched = q ? areas.filter((area) => area.name.toLowerCase().includes(q)) : [...areas];
  return matched.sort((a, b) => a.name.localeCompare(b.name)).slice(0, MAX_OPTIONS);
}

export function AreaJump({ areas, onPick }: { areas: readonly AreaChoice[]; onPick: (id: string) => void }) {
  const id = useId();
  const listId = `${id}-list`;
  const [query, setQuery] = useState('');
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(0);
  const options = useMemo(() => matchAreas(areas, query), [areas, query]);
  const shown = open && areas.length > 0;
  const current = options[Math.min(active, options.length - 1)];
  const pick = (choice: AreaChoice) => {
    onPick(choice.id);
    setQuery('');
    setOpen(false);
  };
  return (
    <div className="map-combobox">
      <label htmlFor={id} className="visually-hidden">
        {MAP_TEXT.areaSearch}
      </label>
      <input
        id={id}
        className="map-input"
        type="text"
        role="combobox"
        autoComplete="off"
        placeholder={MAP_TEXT.areaSearch}
        value={query}
        aria-expanded={shown}
        aria-controls={listId}
        aria-autocomplete="list"
        aria-activedescendant={shown && current ? `${id}-${current.id}` : undefined}
        onFocus={() => setOpen(true)}
        onBlur={() => setOpen(false)}
        onChange={(event) => {
          setQuery(event.target.value);
          setActive(0);
          setOpen(true);
        }}
        onKeyDown={(event) => {
          if (event.key === 'ArrowDown') {
            event.preventDefault();
            setOpen(true);
            setActive((i) => Math.min(i + 1, Math.max(0, options.length - 1)));
          } else if (event.key === 'ArrowUp') {
            event.preventDefault();
            setActive((i) => Math.max(0, i - 1));
          } else if (event.key === 'Enter') {
            event.preventDefault();
            if (shown && current) pick(current);
          } else if (event.key === 'Escape') {
            setOpen(false);
          }
        }}
      />
      {shown && (
        <ul id={listId} role="listbox" className="map-listbox" aria-label={MAP_TEXT.areaSearch}>
          {options.length === 0 && <li className="map-listbox-empty">{MAP_CONTROL_TEXT.noAreas}</li>}
          {options.map((choice) => (
            <li
              key={choice.id}
              id={`${id}-${choice.id}`}
              role="option"
              aria-selected={choice === current}
              className={choice === current ? 'map-option map-option-active' : 'map-option'}
              // mousedown: pick before the input's blur closes the list.
              onMouseDown={(event) => {
                event.preventDefault();
                pick(choice);
              }}
            >
              {choice.name}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
