/**
 * The events (incidents) on the dashboard map (part 1 §2): one marker per
 * event the events panel shows, active events in the colour of an asset at an incident location
 * (status 0, red), ended ones muted and drawn beneath; a geo-marker event sits at its marker
 * position. The targeted event (map state `target`) gets a ring. At most EVENTS_KEPT (500)
 * events exist, so accessors per event are fine here (unlike the fleet's binary layer).
 */
import type { Layer, PickingInfo } from '@deck.gl/core';
import { ScatterplotLayer } from '@deck.gl/layers';
import type { Location } from '../../domain/location';
import {
  EVENT_ACTIVE_COLOR,
  EVENT_ENDED_COLOR,
  EVENT_OUTLINE_COLOR,
  EVENT_OUTLINE_PX,
  EVENT_RADIUS_PX,
  EVENT_TARGET_COLOR,
  EVENT_TARGET_LINE_PX,
  EVENT_TARGET_RADIUS_PX,
  type Rgba,
} from './overlay-style';

export interface EventMarker {
  id: string;
  /** [lng, lat] */
  position: [number, number];
  active: boolean;
  event: Location;
}

export function eventMarkerColor(event: Pick<Location, 'isActive'>): Rgba {
  return event.isActive ? EVENT_ACTIVE_COLOR : EVENT_ENDED_COLOR;
}

/** Where an event's marker sits, [lng, lat]: a geo-marker event at its marker position (when it has one). */
export function eventMarkerPosition(event: Pick<Location, 'isGeoMarker' | 'markerPosition' | 'lat' | 'lng'>): [number, number] {
  if (event.isGeoMarker && event.markerPosition) return [event.markerPosition.lng, event.markerPosition.lat];
  return [event.lng, event.lat];
}

/** The markers of the events, ended ones first so active ones are drawn over them. */
export function eventMarkers(events: readonly Location[]): EventMarker[] {
  const markers = events.map((event) => ({ id: event.id, position: eventMarkerPosition(event), active: event.isActive, event }));
  return [...markers.filter((m) => !m.active), ...markers.filter((m) => m.active)];
}

export interface EventsLayerProps {
  markers: readonly EventMarker[];
  /** The targeted event's id (ringed), null for none. */
  targetId: string | null;
  onHover?: (info: PickingInfo<EventMarker>) => void;
  /** Returns true when handled (deck.gl then stops the click there). */
  onClick?: (info: PickingInfo<EventMarker>) => boolean;
}

export function eventsLayers({ markers, targetId, onHover, onClick }: EventsLayerProps): Layer[] {
  const layers: Layer[] = [
    new ScatterplotLayer<EventMarker>({
      id: 'events',
      data: markers as EventMarker[],
      getPosition: (m) => m.position,
      getFillColor: (m) => eventMarkerColor(m.event),
      getLineColor: EVENT_OUTLINE_COLOR,
      getRadius: EVENT_RADIUS_PX,
      radiusUnits: 'pixels',
      lineWidthUnits: 'pixels',
      getLineWidth: EVENT_OUTLINE_PX,
      stroked: true,
      filled: true,
      pickable: true,
      ...(onHover ? { onHover } : {}),
      ...(onClick ? { onClick } : {}),
    }),
  ];
  const target = targetId === null ? undefined : markers.find((m) => m.id === targetId);
  if (target) {
    layers.push(
      new ScatterplotLayer<EventMarker>({
        id: 'events-target',
        data: [target],
        getPosition: (m) => m.position,
        getLineColor: EVENT_TARGET_COLOR,
        getRadius: EVENT_TARGET_RADIUS_PX,
        radiusUnits: 'pixels',
        lineWidthUnits: 'pixels',
        getLineWidth: EVENT_TARGET_LINE_PX,
        stroked: true,
        filled: false,
        pickable: false,
      }),
    );
  }
  return layers;
}
