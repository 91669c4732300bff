/**
 * A list's search box (part 1 §2 "Search box"; §9 "Search debounce: ... accounts and lists
 * 250 ms"): what is typed is handed on once typing pauses (`delayMs`, LIST_SEARCH_DEBOUNCE_MS by
 * default; 0: at each keystroke, for a list whose reader debounces itself).
 */
import { useEffect, useId, useRef, useState } from 'react';
import { LIST_SEARCH_DEBOUNCE_MS } from '../../domain/constants';

export interface SearchBoxProps {
  /** The search the list applies now. */
  value: string;
  onSearch(search: string): void;
  /** The box's name (a visually hidden label) and its placeholder, unless `placeholder` differs. */
  label: string;
  placeholder?: string;
  delayMs?: number;
  maxLength?: number;
}

export function SearchBox({ value, onSearch, label, placeholder = label, delayMs = LIST_SEARCH_DEBOUNCE_MS, maxLength }: SearchBoxProps) {
  const id = useId();
  const [text, setText] = useState(value);
  const latest = useRef(onSearch);
  latest.current = onSearch;
  const sent = useRef(value);

  // A search changed elsewhere (e.g. an organization switch) shows here.
  useEffect(() => {
    if (value !== sent.current) {
      sent.current = value;
      setText(value);
    }
  }, [value]);

  useEffect(() => {
    if (text === sent.current) return;
    const send = () => {
      sent.current = text;
      latest.current(text);
    };
    if (delayMs <= 0) {
      send();
      return undefined;
    }
    const timer = setTimeout(send, delayMs);
    return () => clearTimeout(timer);
  }, [text, delayMs]);

  return (
    <div className="list-search">
      <label htmlFor={id} className="visually-hidden">
        {label}
      </label>
      <input
        id={id}
        type="search"
        value={text}
        placeholder={placeholder}
        maxLength={maxLength}
        autoComplete="off"
        onChange={(event) => setText(event.target.value)}
      />
    </div>
  );
}
