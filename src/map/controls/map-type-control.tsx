/**
 * part 1 §2 Map: the map type control (roadmap, satellite, hybrid; terrain also exists). The
 * standalone map draws one offline basemap for every type, so only the types the drawing
 * provider can show are offered; the others stay visible, disabled, with a note saying why.
 */
import { MAP_TYPES, type MapType } from '../../domain/constants';
import { MAP_CONTROL_TEXT } from '../../domain/labels';

export interface MapTypeControlProps {
  value: MapType;
  /** The types the current provider draws. */
  available: readonly MapType[];
  onChange: (type: MapType) => void;
}

export function MapTypeControl({ value, available, onChange }: MapTypeControlProps) {
  const limited = MAP_TYPES.some((type) => !available.includes(type));
  return (
    <div className="map-panel map-type">
      <div className="map-segmented" role="radiogroup" aria-label={MAP_CONTROL_TEXT.mapType}>
        {MAP_TYPES.map((type) => {
          const enabled = available.includes(type);
          return (
            <button
              key={type}
              type="button"
              role="radio"
              aria-checked={value === type}
              className={value === type ? 'map-segment map-segment-on' : 'map-segment'}
              disabled={!enabled}
              title={enabled ? MAP_CONTROL_TEXT.mapTypes[type] : MAP_CONTROL_TEXT.mapTypesNeedGoogle}
              onClick={() => onChange(type)}
            >
              {MAP_CONTROL_TEXT.mapTypes[type]}
            </button>
          );
        })}
      </div>
      {limited && <p className="map-note">{MAP_CONTROL_TEXT.mapTypesNeedGoogle}</p>}
    </div>
  );
}
