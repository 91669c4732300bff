/**
 * The dashboard map's controls (part 1 §2 Map): zoom, map type, find my
 * location, the right-click menu, show-all fit, the coordinate search box, the labelled toggles,
 * 'Jump to your saved areas...', the display panel with the layers control (docs/map.md "Layers") and '+ Add' / 'Zoom to Add' — grouped at the
 * map's corners. The drawing parts live in src/map/controls; this file wires them to the map
 * state, the live bridge, the router and the browser (geolocation, clipboard), which tests inject.
 */
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import { proxy, useSnapshot } from 'valtio';
import { ScatterplotLayer } from '@deck.gl/layers';
import type { LayersList } from '@deck.gl/core';
import {
  ADD_ZOOM_AREAS_CLOSURES,
  FOUND_LOCATION_ZOOM,
  GEOLOCATION_OPTIONS,
  HAZARD_SEVERITIES,
  MAP_MAX_ZOOM,
  MAP_MIN_ZOOM,
  MAP_TYPES,
  MAP_ZOOM_STEP,
  type MapType,
} from '../../domain/constants';
import { isValidLatLng, type LatLng } from '../../domain/coordinates';
import {
  CLOSURE_TEXT,
  GEOLOCATION_TEXT,
  HAZARD_SEVERITY_LABEL,
  MAP_CONTROL_TEXT,
  MAP_LAYERS_TEXT,
  MAP_POPUP_TEXT,
  MAP_TEXT,
  ZONES_TEXT,
  geolocationErrorText,
} from '../../domain/labels';
import { CLOSURE_STATUSES } from '../../domain/closure';
import { ZONE_STATUSES } from '../../domain/alerting-zone';
import { allowedMapLayers, mayShowMapLayer, type MapLayerKey, type MapLayers } from '../../domain/map-layers';
import { CLOSURE_STYLE } from '../../map/layers/closures-style';
import { hazardCssColor } from '../../map/layers/hazards-layer';
import { AREA_LINE_COLOR, EVENT_ACTIVE_COLOR, EVENT_ENDED_COLOR, cssColor } from '../../map/layers/overlay-style';
import { ZONE_STYLE } from '../../map/layers/zones-layer';
import { canAddArea, canAddClosure, DASHBOARD_PATH, type PermissionList } from '../../domain/permissions';
import { AddButton } from '../../map/controls/add-button';
import { AreaJump, type AreaChoice } from '../../map/controls/area-jump';
import { CoordinateSearch } from '../../map/controls/coordinate-search';
import { DisplayPanel, type LegendGroup } from '../../map/controls/display-panel';
import { LocateButton, LocateStatus, type LocateState } from '../../map/controls/locate-control';
import { MapContextMenu, type ThreeWordState } from '../../map/controls/map-context-menu';
import { MapTypeControl } from '../../map/controls/map-type-control';
import { ShowAllButton } from '../../map/controls/show-all-button';
import { ZoomControl } from '../../map/controls/zoom-control';
import '../../map/controls/map-controls.css';
import { threeWordProviderFromEnv, type ThreeWordProvider } from '../../map/three-words';
import type { LiveBridge } from '../live/bridge';
import { useLive, useLiveValue, useResponderMix } from '../live/hooks';
import type { LivePreferences } from '../live/store';
import { Toggle } from '../ui/toggle';
import type { DashboardMapProps } from './dashboard-map-props';
import { useIsMobile } from '../shell/use-media';
import { showListedAssets, useFirstFleetView } from './first-view';
import { viewportOf } from './asset-map-state';
import { centerOn, type MapState } from './map-state';
import { panTo } from '../section/focus-on';
import { useAreas } from './use-areas';
import { focusArea, hasMapPlace } from './area-focus';
import { itemHref } from '../section/item-href';
import { useServices } from '../services';
import { useMapLayersMemory } from './use-map-layers-memory';

/** What the controls take from the browser; tests pass fakes. */
export interface ControlsEnvironment {
  /** null: the browser has no geolocation (§8 'Your browser does not support geolocation'). */
  geolocation: Pick<Geolocation, 'getCurrentPosition'> | null;
  clipboard: { writeText(text: string): Promise<void> } | null;
  threeWords: ThreeWordProvider;
  /** The map types offered; by default those of the provider drawing now (the standalone map draws one basemap). */
  mapTypes?: readonly MapType[];
}

export function browserControlsEnvironment(): ControlsEnvironment {
  const nav = globalThis.navigator as Navigator | undefined;
  return {
    geolocation: nav?.geolocation ?? null,
    clipboard: nav?.clipboard ?? null,
    threeWords: threeWordProviderFromEnv(),
  };
}

/** The controls' own state beside one map (shared by `MapControls` and `useControlLayers`). */
interface ControlsState {
  locate: LocateState;
  found: { longitude: number; latitude: number; accuracy: number } | null;
}

const controlsStates = new WeakMap<MapState, ControlsState>();

function controlsStateOf(map: MapState): ControlsState {
  let state = controlsStates.get(map);
  if (!state) {
    state = proxy<ControlsState>({ locate: { kind: 'idle' }, found: null });
    controlsStates.set(map, state);
  }
  return state;
}

/**
 * §9: add thresholds — areas and closures 15.5 (trip points 17 and the default 16.25 have no add
 * page: zones and trips are not made on the map).
 */
const ADD_SECTIONS: Readonly<Record<string, number>> = {
  areas: ADD_ZOOM_AREAS_CLOSURES,
  closures: ADD_ZOOM_AREAS_CLOSURES,
};

/** The section whose add button shows at a path (not on its new or edit pages), with its zoom. */
export function addSectionOf(pathname: string): { section: string; addZoom: number } | null {
  const prefix = `${DASHBOARD_PATH}/`;
  if (!pathname.startsWith(prefix)) return null;
  const parts = pathname.slice(prefix.length).split('/').filter(Boolean);
  const section = parts[0] ?? '';
  const addZoom = ADD_SECTIONS[section];
  if (addZoom === undefined || parts.includes('new') || parts.includes('edit')) return null;
  return { section, addZoom };
}

/** The point under a pixel of the map (lng wrapped into -180..180), null when unresolvable. */
export function pointAtPixel(
  view: { longitude: number; latitude: number; zoom: number },
  size: { width: number; height: number },
  x: number,
  y: number,
): LatLng | null {
  if (!(size.width > 0 && size.height > 0)) return null;
  const [lng = NaN, lat = NaN] = viewportOf(view, size).unproject([x, y]);
  // Unprojection leaves binary noise (-97.7399999999 for -97.74) that truncation would keep:
  // snap to 1e-9° (far below a pixel) before the menu truncates to 5 decimals.
  const point = { lat: snap(lat), lng: snap(((((lng + 180) % 360) + 360) % 360) - 180) };
  return isValidLatLng(point) ? point : null;
}

const SNAP_DECIMALS = 9;

function snap(value: number): number {
  return Number.isFinite(value) ? Number(value.toFixed(SNAP_DECIMALS)) : value;
}

function clampZoom(zoom: number): number {
  return Math.min(MAP_MAX_ZOOM, Math.max(MAP_MIN_ZOOM, zoom));
}

/** A camera request takes this long to play (dashboard-map's fly-to); zoom clicks during it build on its target. */
const ZOOM_SETTLE_MS = 700;

interface MenuState {
  x: number;
  y: number;
  width: number;
  height: number;
  point: LatLng | null;
}

const TOGGLES: readonly { key: keyof LivePreferences; label: string }[] = [
  { key: 'groupView', label: MAP_CONTROL_TEXT.groupView },
  { key: 'densityView', label: MAP_CONTROL_TEXT.densityView },
  { key: 'stationView', label: MAP_CONTROL_TEXT.stationView },
  { key: 'pinMarker', label: MAP_CONTROL_TEXT.pinMarker },
  { key: 'showOffline', label: MAP_CONTROL_TEXT.showOffline },
  { key: 'availabilityView', label: MAP_CONTROL_TEXT.unitAvailability },
];

/**
 * part 1 §2: the labelled toggles, kept in local storage by the bridge. On a phone they fold under
 * their title (closed at first) so that they do not cover a quarter of the map.
 */
function MapToggles({ bridge, folded }: { bridge: LiveBridge; folded: boolean }) {
  const preferences = useLiveValue((store) => store.preferences);
  const toggles = (
    <div className={folded ? 'map-toggles' : 'map-panel map-toggles'} role="group" aria-label={MAP_CONTROL_TEXT.toggles}>
      {TOGGLES.map(({ key, label }) => (
        <Toggle
          key={key}
          label={label}
          checked={preferences[key] === true}
          onChange={(checked) => void bridge.setPreferences({ [key]: checked }).catch(() => undefined)}
        />
      ))}
    </div>
  );
  if (!folded) return toggles;
  return (
    <details className="map-panel map-toggles-folded">
      <summary>{MAP_CONTROL_TEXT.toggles}</summary>
      {toggles}
    </details>
  );
}

/** The layers control's toggles after 'Display Assets' and 'Display Incidents', in this order (docs/map.md "Layers"). */
const LAYER_TOGGLES: readonly { key: MapLayerKey; label: string }[] = [
  { key: 'areas', label: MAP_LAYERS_TEXT.areas },
  { key: 'closuresActive', label: MAP_LAYERS_TEXT.closuresActive },
  { key: 'closuresScheduled', label: MAP_LAYERS_TEXT.closuresScheduled },
  { key: 'zones', label: MAP_LAYERS_TEXT.zones },
  { key: 'hazards', label: MAP_LAYERS_TEXT.hazards },
];

/** What the drawn layers' colours mean: the layers' own colour tables (src/map/layers/*style*.ts). */
function layersLegend(display: MapLayers, eventsLabel: string): LegendGroup[] {
  const groups: LegendGroup[] = [];
  if (display.events) {
    groups.push({
      key: 'events',
      title: eventsLabel,
      entries: [
        { label: MAP_POPUP_TEXT.eventActive, color: cssColor(EVENT_ACTIVE_COLOR) },
        { label: MAP_POPUP_TEXT.eventEnded, color: cssColor(EVENT_ENDED_COLOR) },
      ],
    });
  }
  if (display.areas)
    groups.push({
      key: 'areas',
      title: MAP_LAYERS_TEXT.areas,
      entries: [{ label: MAP_LAYERS_TEXT.area, color: cssColor(AREA_LINE_COLOR) }],
    });
  if (display.closuresActive || display.closuresScheduled) {
    groups.push({
      key: 'closures',
      title: CLOSURE_TEXT.list,
      entries: [
        ...CLOSURE_STATUSES.map((status) => ({ label: CLOSURE_TEXT.statuses[status], color: cssColor(CLOSURE_STYLE.status[status]) })),
        { label: MAP_LAYERS_TEXT.closureStart, color: cssColor(CLOSURE_STYLE.start) },
        { label: MAP_LAYERS_TEXT.closureEnd, color: cssColor(CLOSURE_STYLE.end) },
      ],
    });
  }
  if (display.zones) {
    groups.push({
      key: 'zones',
      title: MAP_LAYERS_TEXT.zones,
      entries: ZONE_STATUSES.map((status) => ({ label: ZONES_TEXT.statusLabel[status], color: cssColor(ZONE_STYLE.status[status]) })),
    });
  }
  if (display.hazards) {
    groups.push({
      key: 'hazards',
      title: MAP_LAYERS_TEXT.hazards,
      entries: HAZARD_SEVERITIES.map((severity) => ({ label: HAZARD_SEVERITY_LABEL[severity], color: hazardCssColor(severity) })),
    });
  }
  return groups;
}

/**
 * part 1 §2's layer panel ('Display Assets', 'Display Incidents' or 'Display Events' by the
 * fleet's responder mix) with the layers control's toggles and legend (docs/map.md "Layers"): a
 * layer the user's permissions do not allow is not offered. The choice is remembered per user. On
 * a phone the panel folds under its title as the map's toggles do.
 */
function LayersControl({ map, folded }: { map: MapState; folded: boolean }) {
  const { display } = useSnapshot(map);
  const { session } = useServices();
  const { profile } = useSnapshot(session.state);
  useMapLayersMemory(map, profile?.id ?? null);
  const permissions = profile?.permissions ?? null;
  const shown = allowedMapLayers(display, permissions);
  const mix = useResponderMix();
  const eventsLabel = mix === 'all' ? MAP_TEXT.displayIncidents : MAP_TEXT.displayEvents;
  const layers = LAYER_TOGGLES.filter(({ key }) => mayShowMapLayer(permissions, key)).map(({ key, label }) => ({
    key,
    label,
    checked: display[key],
  }));
  const panel = (
    <DisplayPanel
      assets={display.assets}
      events={display.events}
      assetsLabel={MAP_TEXT.displayAssets}
      eventsLabel={eventsLabel}
      onChange={(patch) => Object.assign(map.display, patch)}
      layers={layers}
      onLayerChange={(key, checked) => {
        map.display[key as MapLayerKey] = checked;
      }}
      legend={layersLegend(shown, eventsLabel)}
      bare={folded}
    />
  );
  if (!folded) return panel;
  return (
    <details className="map-panel map-toggles-folded map-layers-folded">
      <summary>{MAP_LAYERS_TEXT.title}</summary>
      {panel}
    </details>
  );
}

/** part 2 §2: 'Jump to your saved areas...' opens the area as its list row does: targeted, the map fitted to it, its detail. */
function AreaJumpControl({ map }: { map: MapState }) {
  const navigate = useNavigate();
  const areas = useAreas(useLiveValue((store) => store.organizationId));
  const choices = useMemo<AreaChoice[]>(() => areas.filter(hasMapPlace).map((area) => ({ id: area.id, name: area.displayName })), [areas]);
  const pick = (id: string) => {
    const area = areas.find((candidate) => candidate.id === id);
    if (!area) return;
    focusArea(map, area);
    navigate(itemHref('areas', area.id));
  };
  return <AreaJump areas={choices} onPick={pick} />;
}

/**
 * part 2 §6: the map's '+ Add' of a section shows only to a user who may add there, and where its
 * new page opens (part 2 §2: no new area on a phone; closures use the mobile permissions there).
 */
function canAddIn(section: string, permissions: PermissionList, organizationId: string | null, userOrgId: string, phone: boolean): boolean {
  // An area is added to the organization shown; the server asks that the user's own be its owner.
  if (section === 'areas') return !phone && canAddArea(permissions, organizationId, userOrgId);
  if (section === 'closures') return canAddClosure(permissions, { mobile: phone });
  return false;
}

function AddControl({ map }: { map: MapState }) {
  const { pathname } = useLocation();
  const navigate = useNavigate();
  const { view } = useSnapshot(map);
  const { session } = useServices();
  const { profile } = useSnapshot(session.state);
  const organizationId = useLiveValue((store) => store.organizationId);
  const phone = useIsMobile();
  const add = addSectionOf(pathname);
  if (!add || !profile || !canAddIn(add.section, profile.permissions, organizationId, profile.organizationId, phone)) return null;
  return (
    <AddButton
      zoom={view.zoom}
      addZoom={add.addZoom}
      onAdd={() => navigate(`${DASHBOARD_PATH}/${add.section}/new`)}
      onZoomToAdd={() => centerOn(map, map.view.longitude, map.view.latitude, add.addZoom)}
    />
  );
}

export type MapControlsProps = DashboardMapProps & { environment?: Partial<ControlsEnvironment> };

export function MapControls({ map, environment }: MapControlsProps) {
  const { bridge } = useLive();
  const env = useMemo(() => ({ ...browserControlsEnvironment(), ...environment }), [environment]);
  const { mapType, view, provider } = useSnapshot(map);
  // The Google provider draws every type; the standalone map (also after Google failed) only its road basemap.
  const mapTypes = env.mapTypes ?? (provider === 'google' ? MAP_TYPES : (['roadmap'] as const));
  const controls = controlsStateOf(map);
  const { locate } = useSnapshot(controls);
  const root = useRef<HTMLDivElement>(null);
  const [menu, setMenu] = useState<MenuState | null>(null);
  const [words, setWords] = useState<ThreeWordState>({ kind: 'locating' });
  const zoomRequest = useRef<{ zoom: number; at: number } | null>(null);
  useFirstFleetView(map);
  const phone = useIsMobile();

  const zoomBy = (step: number) => {
    const recent = zoomRequest.current && Date.now() - zoomRequest.current.at < ZOOM_SETTLE_MS ? zoomRequest.current.zoom : map.view.zoom;
    const zoom = clampZoom(recent + step);
    zoomRequest.current = { zoom, at: Date.now() };
    centerOn(map, map.view.longitude, map.view.latitude, zoom);
  };

  const findMyLocation = () => {
    const geolocation = env.geolocation;
    if (!geolocation) {
      controls.locate = { kind: 'error', message: GEOLOCATION_TEXT.unsupported };
      return;
    }
    controls.locate = { kind: 'requesting' };
    geolocation.getCurrentPosition(
      (position) => {
        const { longitude, latitude, accuracy } = position.coords;
        controls.found = { longitude, latitude, accuracy };
        controls.locate = { kind: 'found' };
        centerOn(map, longitude, latitude, FOUND_LOCATION_ZOOM);
      },
      (error) => {
        controls.found = null;
        controls.locate = { kind: 'error', message: geolocationErrorText(error.code) };
      },
      { ...GEOLOCATION_OPTIONS },
    );
  };

  const clearLocation = () => {
    controls.found = null;
    controls.locate = { kind: 'idle' };
  };

  const showAll = () => {
    if (!bridge) return;
    showListedAssets(map, bridge);
  };

  // part 1 §2: the right-click menu on the map (not on the controls over it).
  useEffect(() => {
    const container = root.current?.parentElement;
    if (!container) return undefined;
    const onContextMenu = (event: MouseEvent) => {
      const target = event.target instanceof Node ? event.target : null;
      const surface = container.querySelector('.lightbar-map');
      if (!target || !surface?.contains(target)) return;
      event.preventDefault();
      const rect = container.getBoundingClientRect();
      const x = event.clientX - rect.left;
      const y = event.clientY - rect.top;
      const size = { width: rect.width, height: rect.height };
      setMenu({ x, y, ...size, point: pointAtPixel(map.view, size, x, y) });
    };
    container.addEventListener('contextmenu', onContextMenu);
    return () => container.removeEventListener('contextmenu', onContextMenu);
  }, [map]);

  // The three-word address of the menu's point; a newer menu or closing it drops the answer.
  const menuPoint = menu?.point ?? null;
  useEffect(() => {
    if (!menuPoint) return undefined;
    const abort = new AbortController();
    setWords({ kind: 'locating' });
    env.threeWords.lookup(menuPoint, abort.signal).then(
      (found) => {
        if (!abort.signal.aborted) setWords(found ? { kind: 'found', words: found } : { kind: 'notFound' });
      },
      () => {
        if (!abort.signal.aborted) setWords({ kind: 'notFound' });
      },
    );
    return () => abort.abort();
  }, [menuPoint, env.threeWords]);

  const closeMenu = useCallback(() => setMenu(null), []);
  const clipboard = env.clipboard;
  const copy = useCallback(
    (text: string) => (clipboard ? clipboard.writeText(text) : Promise.reject(new Error('no clipboard'))),
    [clipboard],
  );

  return (
    <div ref={root} className="map-controls" aria-label={MAP_CONTROL_TEXT.controls} role="region">
      <div className="map-corner map-corner-top-left">
        <CoordinateSearch onGo={(point) => panTo(map, point)} />
        <AreaJumpControl map={map} />
      </div>
      <div className="map-corner map-corner-top-center">
        <AddControl map={map} />
      </div>
      <div className="map-corner map-corner-top-right">
        <MapTypeControl value={mapType} available={mapTypes} onChange={(type) => (map.mapType = type)} />
        <LayersControl map={map} folded={phone} />
      </div>
      <div className="map-corner map-corner-bottom-left">{bridge && <MapToggles bridge={bridge} folded={phone} />}</div>
      <div className="map-corner map-corner-bottom-center">
        <LocateStatus state={locate as LocateState} onClear={clearLocation} />
      </div>
      <div className="map-corner map-corner-bottom-right">
        <div className="map-button-group">
          <LocateButton state={locate as LocateState} onLocate={findMyLocation} />
          <ShowAllButton onShowAll={showAll} disabled={!bridge} />
        </div>
        <ZoomControl
          onZoomIn={() => zoomBy(MAP_ZOOM_STEP)}
          onZoomOut={() => zoomBy(-MAP_ZOOM_STEP)}
          canZoomIn={view.zoom < MAP_MAX_ZOOM}
          canZoomOut={view.zoom > MAP_MIN_ZOOM}
        />
      </div>
      {menu && <MapContextMenu {...menu} words={words} copy={copy} onClose={closeMenu} />}
    </div>
  );
}

const FOUND_COLOR: [number, number, number] = [21, 101, 192];

/** Layers the controls draw: the found location (a dot with its accuracy circle). */
export function useControlLayers({ map }: DashboardMapProps): LayersList {
  const { found } = useSnapshot(controlsStateOf(map));
  return useMemo<LayersList>(() => {
    if (!found) return [];
    const data = [found];
    return [
      new ScatterplotLayer<typeof found>({
        id: 'found-location-accuracy',
        data,
        getPosition: (d) => [d.longitude, d.latitude],
        getRadius: (d) => d.accuracy,
        radiusUnits: 'meters',
        radiusMinPixels: 0,
        getFillColor: [...FOUND_COLOR, 40],
        getLineColor: [...FOUND_COLOR, 120],
        stroked: true,
        lineWidthMinPixels: 1,
      }),
      new ScatterplotLayer<typeof found>({
        id: 'found-location',
        data,
        getPosition: (d) => [d.longitude, d.latitude],
        getRadius: 7,
        radiusUnits: 'pixels',
        getFillColor: FOUND_COLOR,
        getLineColor: [255, 255, 255],
        stroked: true,
        lineWidthUnits: 'pixels',
        getLineWidth: 2,
      }),
    ];
  }, [found]);
}
