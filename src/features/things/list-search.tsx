/**
 * The Live list's search box (part 1 §2 "Search box"; §4 "search text" filter): what is typed goes
 * to the worker once typing pauses (LIST_SEARCH_DEBOUNCE_MS), which narrows the list and the map.
 */
import { useEffect, useId, useRef, useState } from 'react';
import { LIST_SEARCH_DEBOUNCE_MS } from '../../domain/constants';
import { LIVE_LIST_TEXT } from '../../domain/labels';

export interface ListSearchProps {
  /** The search the worker applies now. */
  value: string;
  onSearch(search: string): void;
}

export function ListSearch({ value, onSearch }: ListSearchProps) {
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
    const timer = setTimeout(() => {
      sent.current = text;
      latest.current(text);
    }, LIST_SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [text]);

  return (
    <div className="list-search">
      <label htmlFor={id} className="visually-hidden">
        {LIVE_LIST_TEXT.search}
      </label>
      <input id={id} type="search" value={text} placeholder={LIVE_LIST_TEXT.search} autoComplete="off" onChange={(event) => setText(event.target.value)} />
    </div>
  );
}
