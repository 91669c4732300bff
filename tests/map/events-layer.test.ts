/**
 * The events layer's pure parts: colour by active or ended, the marker
 * position (a geo-marker event at its marker position), the drawing order, and the targeted
 * event's ring. The drawing itself runs in Chromium (e2e/map-overlays.spec.ts).
 */
import { describe, expect, it } from 'vitest';
import type { PickingInfo } from '@deck.gl/core';
import { fromLocationWire, locationWireSchema, type LocationWireInput } from '../../src/domain/location';
import { STATUS_COLORS } from '../../src/map/icon-atlas';
import { EVENT_ACTIVE_COLOR, EVENT_ENDED_COLOR, EVENT_TARGET_COLOR } from '../../src/map/layers/overlay-style';
import { eventMarkerColor, eventMarkerPosition, eventMarkers, eventsLayers, type EventMarker } from '../../src/map/layers/events-layer';

function event(id: string, overrides: Partial<LocationWireInput> = {}) {
  return fromLocationWire(locationWireSchema.parse({ id, is_active: true, lat: 30.27, lng: -97.74, ...overrides }));
}

interface ScatterProps {
  id: string;
  data: EventMarker[];
  getPosition: (m: EventMarker) => [number, number];
  getFillColor: (m: EventMarker) => number[];
  getLineColor: number[];
  filled: boolean;
  pickable: boolean;
  onClick?: (info: PickingInfo<EventMarker>) => boolean;
}

describe('event markers', () => {
  it('an active event is drawn in the location status colour (part1 §4 status 0, red), an ended one muted', () => {
    expect(EVENT_ACTIVE_COLOR.slice(0, 3)).toEqual([...STATUS_COLORS[0]!]);
    expect(eventMarkerColor({ isActive: true })).toEqual(EVENT_ACTIVE_COLOR);
    expect(eventMarkerColor({ isActive: false })).toEqual(EVENT_ENDED_COLOR);
    expect(EVENT_ENDED_COLOR).not.toEqual(EVENT_ACTIVE_COLOR);
  });

  it.each([
    ['a plain event at its lat/lng', { is_geo_marker: false, marker_position: { lat: 30.5, lng: -97.5 } }, [-97.74, 30.27]],
    ['a geo-marker event at its marker position', { is_geo_marker: true, marker_position: { lat: 30.5, lng: -97.5 } }, [-97.5, 30.5]],
    ['a geo-marker event without a marker position at its lat/lng', { is_geo_marker: true, marker_position: null }, [-97.74, 30.27]],
  ] as const)('%s', (_label, overrides, position) => {
    expect(eventMarkerPosition(event('e', overrides))).toEqual(position);
  });

  it('ended events are drawn first so active ones lie on top', () => {
    const markers = eventMarkers([event('a1'), event('e1', { is_active: false }), event('a2'), event('e2', { is_active: false })]);
    expect(markers.map((m) => m.id)).toEqual(['e1', 'e2', 'a1', 'a2']);
  });

  it('one pickable layer of markers; the targeted event gets a ring of its own', () => {
    const markers = eventMarkers([
      event('a1'),
      event('e1', { is_active: false, is_geo_marker: true, marker_position: { lat: 30.4, lng: -97.6 } }),
    ]);
    const plain = eventsLayers({ markers, targetId: null });
    expect(plain.map((l) => l.id)).toEqual(['events']);
    const props = plain[0]!.props as unknown as ScatterProps;
    expect(props.pickable).toBe(true);
    expect(props.data.map((m) => props.getPosition(m))).toEqual([
      [-97.6, 30.4],
      [-97.74, 30.27],
    ]);
    expect(props.data.map((m) => props.getFillColor(m))).toEqual([EVENT_ENDED_COLOR, EVENT_ACTIVE_COLOR]);

    const targeted = eventsLayers({ markers, targetId: 'e1' });
    expect(targeted.map((l) => l.id)).toEqual(['events', 'events-target']);
    const ring = targeted[1]!.props as unknown as ScatterProps;
    expect(ring.data.map((m) => m.id)).toEqual(['e1']);
    expect(ring.filled).toBe(false);
    expect(ring.getLineColor).toEqual(EVENT_TARGET_COLOR);
    expect(ring.pickable).toBe(false);
    // A target that is not drawn (another kind's id, or filtered out) draws no ring.
    expect(eventsLayers({ markers, targetId: 'gone' }).map((l) => l.id)).toEqual(['events']);
  });

  it('hands its click handler to deck.gl', () => {
    const clicked: string[] = [];
    const markers = eventMarkers([event('a1')]);
    const [layer] = eventsLayers({ markers, targetId: null, onClick: (info) => (clicked.push(info.object!.id), true) });
    const props = layer!.props as unknown as ScatterProps;
    expect(props.onClick?.({ object: markers[0] } as PickingInfo<EventMarker>)).toBe(true);
    expect(clicked).toEqual(['a1']);
  });
});
