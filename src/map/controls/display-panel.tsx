/**
 * part 1 §2: the panel that toggles 'Display Assets' and 'Display Incidents' (or 'Display Events');
 * the layers control adds its own toggles below them and a legend of the colours drawn
 * (docs/map.md "Layers").
 */
import { useId } from 'react';
import { MAP_CONTROL_TEXT, MAP_LAYERS_TEXT } from '../../domain/labels';

/** One more layer's checkbox. */
export interface LayerToggle {
  key: string;
  label: string;
  checked: boolean;
}

/** What one drawn layer's colours mean. */
export interface LegendGroup {
  key: string;
  title: string;
  entries: readonly { label: string; color: string }[];
}

export interface DisplayPanelProps {
  assets: boolean;
  events: boolean;
  /** MAP_TEXT.displayIncidents or MAP_TEXT.displayEvents, by the fleet's responder mix. */
  eventsLabel: string;
  assetsLabel: string;
  onChange: (patch: { assets?: boolean; events?: boolean }) => void;
  /** The layers control's toggles, after the two above. */
  layers?: readonly LayerToggle[];
  onLayerChange?: (key: string, checked: boolean) => void;
  /** The legend of the layers drawn (none: no legend). */
  legend?: readonly LegendGroup[];
  /** Drawn inside a folded panel (a phone): no frame of its own, and the layers not folded again. */
  bare?: boolean;
}

export function DisplayPanel({
  assets,
  events,
  assetsLabel,
  eventsLabel,
  onChange,
  layers,
  onLayerChange,
  legend,
  bare,
}: DisplayPanelProps) {
  const id = useId();
  const layersOn = layers?.filter((layer) => layer.checked).length ?? 0;
  const more = (
    <>
      {layers?.map((layer) => (
        <label key={layer.key} className="map-check" htmlFor={`${id}-${layer.key}`}>
          <input
            id={`${id}-${layer.key}`}
            type="checkbox"
            checked={layer.checked}
            onChange={(event) => onLayerChange?.(layer.key, event.target.checked)}
          />
          {layer.label}
        </label>
      ))}
      {legend && legend.length > 0 ? (
        <div className="map-legend" role="group" aria-label={MAP_LAYERS_TEXT.legend}>
          {legend.map((group) => (
            <div key={group.key} className="map-legend-group" data-legend={group.key}>
              <span className="map-legend-title">{group.title}</span>
              <ul className="map-legend-entries">
                {group.entries.map((entry) => (
                  <li key={entry.label}>
                    <span className="map-legend-swatch" style={{ background: entry.color }} aria-hidden="true" />
                    {entry.label}
                  </li>
                ))}
              </ul>
            </div>
          ))}
        </div>
      ) : null}
    </>
  );
  return (
    <fieldset className={bare ? 'map-display' : 'map-panel map-display'}>
      <legend className="visually-hidden">{MAP_CONTROL_TEXT.display}</legend>
      <label className="map-check" htmlFor={`${id}-assets`}>
        <input id={`${id}-assets`} type="checkbox" checked={assets} onChange={(event) => onChange({ assets: event.target.checked })} />
        {assetsLabel}
      </label>
      <label className="map-check" htmlFor={`${id}-events`}>
        <input id={`${id}-events`} type="checkbox" checked={events} onChange={(event) => onChange({ events: event.target.checked })} />
        {eventsLabel}
      </label>
      {bare || (!layers?.length && !legend?.length) ? (
        more
      ) : (
        // The other layers and the legend fold under 'Layers' (closed at first): the panel keeps the
        // footprint of part 1 §2's two toggles, so it never covers a narrow map.
        <details className="map-layers-more" data-testid="map-layers-more">
          <summary>{layersOn > 0 ? MAP_LAYERS_TEXT.titleCount(layersOn) : MAP_LAYERS_TEXT.title}</summary>
          {more}
        </details>
      )}
    </fieldset>
  );
}
