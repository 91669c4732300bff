/**
 * The dashboard map's other markers: events (incidents) and areas with their asset
 * counts, with their popups (part 1 §2 Map: "Hover and pin popups exist", "Area markers show
 * asset counts").
 *
 * Events: the ones the events panel shows (the worker's current events query: display choice and
 * search), so the map and the panel agree; hidden by 'Display Incidents'/'Display Events'
 * (`display.events`). Areas (hidden by the layers control's 'Display Areas', `display.areas`): the organization's (GET /organization/exclusion_zone, cached), each
 * with the count of listed assets inside, counted by the worker. Hovering shows a popup; a click
 * pins it, targets the item and opens its page (/dashboard/events/{id}, /dashboard/areas/{id}).
 */
import { useCallback, useEffect, useMemo } from 'react';
import { useNavigate } from 'react-router-dom';
import { itemHref } from '../section/item-href';
import { proxy, ref, useSnapshot } from 'valtio';
import type { LayersList, PickingInfo } from '@deck.gl/core';
import { areaShape, type AreaShape } from '../../domain/area-shape';
import type { Location } from '../../domain/location';
import { areaMarkers, areasLayers, type AreaMarker } from '../../map/layers/areas-layer';
import { eventMarkers, eventsLayers, type EventMarker } from '../../map/layers/events-layer';
import type { DashboardMapProps } from './dashboard-map-props';
import { setTarget, type MapState } from './map-state';
import { AreaPopup, EventPopup, PinnedPopupAnchor } from './overlay-popup';
import { useAreas } from './use-areas';
import { useAreaCounts, useMapEvents } from './use-overlay-data';
import { useLive, useLiveValue } from '../live/hooks';

type OverlayKind = 'event' | 'area';

interface OverlayHover {
  kind: OverlayKind;
  id: string;
  /** Pixels from the map's top-left corner. */
  x: number;
  y: number;
}

/** What the popups read: the drawn markers (under ref: no proxy per item) and the hovered one. */
interface OverlayState {
  events: EventMarker[];
  areas: AreaMarker[];
  hover: OverlayHover | null;
  timeZone: string | undefined;
}

const overlayStates = new WeakMap<MapState, OverlayState>();

/** One overlay state per map: shared by the layers' hook and the popups beside them. */
function overlayStateOf(map: MapState): OverlayState {
  let state = overlayStates.get(map);
  if (!state) {
    state = proxy<OverlayState>({ events: ref([]), areas: ref([]), hover: null, timeZone: undefined });
    overlayStates.set(map, state);
  }
  return state;
}

function isOverlayKind(kind: string): kind is OverlayKind {
  return kind === 'event' || kind === 'area';
}

/** Steps per zoom level at which the area badges are thinned out again. */
const BADGE_ZOOM_STEPS = 4;

/**
 * The overlay's layers at their two heights: `under` the fleet, the area shapes; `over` the fleet,
 * the area badges and the event markers (an event at a scene is drawn, hovered and clicked over the
 * assets there), still under the control layers (the found location).
 */
export interface OverlayLayers {
  under: LayersList;
  over: LayersList;
}

export function useOverlayLayers({ map }: DashboardMapProps, display: { events: boolean; areas: boolean }): OverlayLayers {
  const navigate = useNavigate();
  const state = overlayStateOf(map);
  const { target, view } = useSnapshot(map);
  // The badges are thinned out per quarter zoom step, rounded down (the closer spacing: never an overlap).
  const badgeZoom = Math.floor(view.zoom * BADGE_ZOOM_STEPS) / BADGE_ZOOM_STEPS;
  const { bridge } = useLive();
  const organizationId = useLiveValue((store) => store.organizationId);
  const areas = useAreas(organizationId);
  const shapes = useMemo(() => areas.map(areaShape).filter((shape): shape is AreaShape => shape !== null), [areas]);
  const counts = useAreaCounts(shapes);
  const events: Location[] = useMapEvents(display.events);
  const eventMarks = useMemo(() => (display.events ? eventMarkers(events) : []), [events, display.events]);
  const areaMarks = useMemo(() => (display.areas ? areaMarkers(areas, counts) : []), [areas, counts, display.areas]);

  useEffect(() => {
    state.events = ref(eventMarks);
    state.areas = ref(areaMarks);
    if (state.hover && !(state.hover.kind === 'event' ? eventMarks : areaMarks).some((m) => m.id === state.hover?.id)) state.hover = null;
  }, [state, eventMarks, areaMarks]);
  const timeZone = useLiveValue((store) => store.events.query.timeZone);
  useEffect(() => {
    if (!bridge) return;
    state.timeZone = timeZone;
  }, [state, bridge, timeZone]);

  const hover = useCallback(
    (kind: OverlayKind, info: PickingInfo<EventMarker | AreaMarker>) => {
      if (info.object) state.hover = { kind, id: info.object.id, x: info.x, y: info.y };
      else if (state.hover?.kind === kind) state.hover = null;
    },
    [state],
  );
  const pin = useCallback(
    (kind: OverlayKind, info: PickingInfo<EventMarker | AreaMarker>): boolean => {
      const marker = info.object;
      if (!marker) return false;
      const [longitude, latitude] = marker.position;
      state.hover = null;
      map.popup = { kind, id: marker.id, longitude, latitude };
      setTarget(map, { kind, id: marker.id });
      navigate(itemHref(kind === 'event' ? 'events' : 'areas', marker.id));
      return true;
    },
    [state, map, navigate],
  );

  const eventTarget = target?.kind === 'event' ? target.id : null;
  const areaTarget = target?.kind === 'area' ? target.id : null;
  const areaLayers = useMemo(
    () =>
      areasLayers({
        markers: areaMarks,
        targetId: areaTarget,
        zoom: badgeZoom,
        onHover: (info) => hover('area', info),
        onClick: (info) => pin('area', info),
      }),
    [areaMarks, areaTarget, badgeZoom, hover, pin],
  );
  const eventLayers = useMemo(
    () =>
      display.events
        ? eventsLayers({
            markers: eventMarks,
            targetId: eventTarget,
            onHover: (info) => hover('event', info),
            onClick: (info) => pin('event', info),
          })
        : [],
    [eventMarks, eventTarget, display.events, hover, pin],
  );
  return useMemo<OverlayLayers>(
    () =>
      display.areas ? { under: [areaLayers.shapes], over: [areaLayers.badges, ...eventLayers] } : { under: [], over: [...eventLayers] },
    [areaLayers, eventLayers, display.areas],
  );
}

interface PopupContentProps {
  state: { events: readonly EventMarker[]; areas: readonly AreaMarker[]; timeZone: string | undefined };
  kind: OverlayKind;
  id: string;
  onClose?: () => void;
}

function PopupContent({ state, kind, id, onClose }: PopupContentProps) {
  if (kind === 'event') {
    const marker = state.events.find((m) => m.id === id);
    return marker ? <EventPopup event={marker.event} timeZone={state.timeZone} onClose={onClose} /> : null;
  }
  const marker = state.areas.find((m) => m.id === id);
  return marker ? <AreaPopup area={marker.area} count={marker.count} onClose={onClose} /> : null;
}

/** The event and area popups drawn over the map: the hovered one, and the pinned one (map state `popup`). */
export function OverlayPopups({ map }: DashboardMapProps) {
  const mapSnap = useSnapshot(map);
  const state = overlayStateOf(map);
  const snap = useSnapshot(state);
  // ref() values come out of a snapshot as they went in (valtio does not copy them).
  const events = snap.events as unknown as EventMarker[];
  const areas = snap.areas as unknown as AreaMarker[];
  const pinned = mapSnap.popup && isOverlayKind(mapSnap.popup.kind) ? mapSnap.popup : null;
  const pinnedKind = pinned && isOverlayKind(pinned.kind) ? pinned.kind : null;
  const pinnedMarker = pinned ? (pinnedKind === 'event' ? events : areas).find((m) => m.id === pinned.id) : undefined;
  const hovered = snap.hover && !(pinned && pinned.kind === snap.hover.kind && pinned.id === snap.hover.id) ? snap.hover : null;
  const popupState = { events, areas, timeZone: snap.timeZone };
  return (
    <div className="overlay-popups">
      {hovered ? (
        <div className="overlay-popup-anchor" style={{ left: hovered.x, top: hovered.y }}>
          <PopupContent state={popupState} kind={hovered.kind} id={hovered.id} />
        </div>
      ) : null}
      {pinned && pinnedKind && pinnedMarker ? (
        <PinnedPopupAnchor map={map} lng={pinnedMarker.position[0]} lat={pinnedMarker.position[1]}>
          <PopupContent
            state={popupState}
            kind={pinnedKind}
            id={pinned.id}
            onClose={() => {
              map.popup = null;
            }}
          />
        </PinnedPopupAnchor>
      ) : null}
    </div>
  );
}
