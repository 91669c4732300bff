/** part 1 §2: the panel that toggles 'Display Assets' and 'Display Incidents' (or 'Display Events'). */
import { useId } from 'react';
import { MAP_CONTROL_TEXT } from '../../domain/labels';

export interface DisplayPanelProps {
  assets: boolean;
  events: boolean;
  /** MAP_TEXT.displayIncidents or MAP_TEXT.displayEvents, by the fleet's responder mix. */
  eventsLabel: string;
  assetsLabel: string;
  onChange: (patch: { assets?: boolean; events?: boolean }) => void;
}

export function DisplayPanel({ assets, events, assetsLabel, eventsLabel, onChange }: DisplayPanelProps) {
  const id = useId();
  return (
    <fieldset className="map-panel map-display">
      <legend className="visually-hidden">{MAP_CONTROL_TEXT.display}</legend>
      <label className="map-check" htmlFor={`${id}-assets`}>
        <input id={`${id}-assets`} type="checkbox" checked={assets} onChange={(event) => onChange({ assets: event.target.checked })} />
        {assetsLabel}
      </label>
      <label className="map-check" htmlFor={`${id}-events`}>
        <input id={`${id}-events`} type="checkbox" checked={events} onChange={(event) => onChange({ events: event.target.checked })} />
        {eventsLabel}
      </label>
    </fieldset>
  );
}
