/**
 * part 1 §2 the coordinates search box (placeholder 'lat, lng'), §5: two comma-separated numbers,
 * lat -90..90, lng -180..180, otherwise the box is invalid. Enter goes to a valid point.
 */
import { useId, useState } from 'react';
import { parseCoordinateSearch, type LatLng } from '../../domain/coordinates';
import { MAP_CONTROL_TEXT, MAP_TEXT } from '../../domain/labels';

export function CoordinateSearch({ onGo }: { onGo: (point: LatLng) => void }) {
  const id = useId();
  const [text, setText] = useState('');
  const point = parseCoordinateSearch(text);
  const invalid = text.trim() !== '' && point === null;
  return (
    <form
      className="map-search"
      role="search"
      aria-label={MAP_CONTROL_TEXT.coordinateSearch}
      onSubmit={(event) => {
        event.preventDefault();
        if (point) onGo(point);
      }}
    >
      <label htmlFor={id} className="visually-hidden">
        {MAP_CONTROL_TEXT.coordinateSearch}
      </label>
      <input
        id={id}
        className={invalid ? 'map-input map-input-invalid' : 'map-input'}
        type="text"
        inputMode="decimal"
        autoComplete="off"
        spellCheck={false}
        placeholder={MAP_TEXT.coordinatePlaceholder}
        value={text}
        aria-invalid={invalid}
        aria-describedby={invalid ? `${id}-hint` : undefined}
        onChange={(event) => setText(event.target.value)}
      />
      {invalid && (
        <span id={`${id}-hint`} className="visually-hidden">
          {MAP_CONTROL_TEXT.coordinateInvalid}
        </span>
      )}
    </form>
  );
}
