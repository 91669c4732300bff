/**
 * The fleet on the dashboard map (part 1 §2 Map): the assets layer over the live
 * store's binary attributes, or — with the group view — the worker's clusters and station groups
 * (singles keep their real icon); the density and unit-availability views; the targeted asset's
 * ring; hover and pinned asset popups.
 *
 * Main-thread rule (ARCHITECTURE "Live data"): nothing here loops over the fleet or runs per asset
 * at socket rate. The worker answers per viewport (clusters, availability) or per fleet change
 * (density), each asked at most QUERY_INTERVAL_MS apart; singles and the target ring read a few
 * slots of the store's buffers per diff.
 *
 * Pin marker (part 1 §2 lists the preference without saying more; our reading, docs/decisions/spec.md "Values the spec does not give"): with it
 * on, a click on an asset pins its popup open (MapState.popup) — it follows the asset and stays
 * until its Close button, a click on empty map or Escape (popup-dismiss.ts); with it off, a click only targets the asset and opens its detail, and the
 * popup shows while the pointer is over the asset.
 */
import { useEffect, useMemo, useRef } from 'react';
import { useNavigate } from 'react-router-dom';
import { itemHref } from '../section/item-href';
import { useSnapshot } from 'valtio';
import { subscribeKey } from 'valtio/utils';
import type { Layer, LayersList, PickingInfo } from '@deck.gl/core';
import type { ResponderMix } from '../../domain/asset-status';
import { assetsLayer } from '../../map/layers/assets-layer';
import { availabilityLayer, availabilityPixels, availabilityShareText, type AvailabilityImage } from '../../map/layers/availability-layer';
import {
  clusterMarkers,
  clustersLayers,
  singleSlots,
  singlesLayerData,
  stationMarkers,
  type ClusterMarker,
  type StationMarker,
} from '../../map/layers/clusters-layer';
import { densityLayer } from '../../map/layers/density-layer';
import { slotPosition, targetLayer } from '../../map/layers/target-layer';
import { STATION_GROUPS_BELOW_ZOOM } from '../../workers/cluster-index';
import type { AssetDetails } from '../../domain/live-diff';
import type { ClusterAnswer } from '../../domain/cluster-answer';
import type { LiveBridge } from '../live/bridge';
import { useLive, useLiveValue, useResponderMix, useWorkerQuery } from '../live/hooks';
import { AssetPopup, GroupPopup, hoverPlacement } from './asset-popup';
import { assetMapState, hoverDetails, screenPoint, visibleBounds, type AssetMapState } from './asset-map-state';
import type { DashboardMapProps } from './dashboard-map-props';
import { centerOn, setTarget, type MapState } from './map-state';
import { padBounds } from './bounds';

/** At most 4 worker queries a second per view (never per asset). */
export const QUERY_INTERVAL_MS = 250;
/** Clusters are asked for a little more than the screen, so a small pan shows no empty edge. */
const CLUSTER_BOUNDS_MARGIN = 0.15;
/** The pinned popup re-reads its asset at most once a second (the batch rate, part 1 §4). */
const PINNED_REFRESH_MS = 1_000;

/** Re-asks when the map moves or is resized, without a render per frame. */
function watchView(map: MapState, ui: AssetMapState): (request: () => void) => () => void {
  return (request) => {
    const offs = [subscribeKey(map, 'view', request), subscribeKey(ui, 'size', request)];
    return () => offs.forEach((off) => off());
  };
}

function useClusterAnswer(enabled: boolean, map: MapState, ui: AssetMapState): ClusterAnswer | null {
  const clusterVersion = useLiveValue((store) => store.clusterVersion);
  const stationView = useLiveValue((store) => store.preferences.stationView);
  return useWorkerQuery<ClusterAnswer>(
    enabled
      ? async (bridge) => {
          const bounds = visibleBounds(map.view, ui.size);
          return bounds ? bridge.clusters(padBounds(bounds, CLUSTER_BOUNDS_MARGIN), map.view.zoom) : undefined;
        }
      : null,
    [clusterVersion, stationView],
    { throttleMs: QUERY_INTERVAL_MS, watch: watchView(map, ui) },
  );
}

function useDensityPositions(enabled: boolean): Float64Array | null {
  // The listed positions change only in a batch that bumps the group view's version.
  const clusterVersion = useLiveValue((store) => store.clusterVersion);
  return useWorkerQuery(enabled ? async (bridge) => (await bridge.listedPositions()).lngLat : null, [clusterVersion], {
    throttleMs: QUERY_INTERVAL_MS,
  });
}

function useAvailabilityImage(enabled: boolean, map: MapState, ui: AssetMapState): AvailabilityImage | null {
  const clusterVersion = useLiveValue((store) => store.clusterVersion);
  const radiusM = useLiveValue((store) => store.preferences.availabilityRadiusM);
  const image = useWorkerQuery<AvailabilityImage>(
    enabled
      ? async (bridge) => {
          const bounds = visibleBounds(map.view, ui.size);
          if (!bounds) return undefined;
          const answer = await bridge.availability(bounds);
          ui.availability = { coveredShare: answer.coveredShare, radiusM: answer.radiusM };
          return { bounds: answer.bbox, width: answer.columns, height: answer.rows, pixels: availabilityPixels(answer.mask) };
        }
      : null,
    [clusterVersion, radiusM],
    { throttleMs: QUERY_INTERVAL_MS, watch: watchView(map, ui) },
  );
  useEffect(() => {
    if (!enabled) ui.availability = null;
  }, [enabled, ui]);
  return image;
}

/** The targeted asset's slot: asked per target, and again when the fleet's size changes (an asset not in it yet). */
function useTargetSlot(map: MapState): number {
  const { target } = useSnapshot(map);
  const id = target?.kind === 'asset' ? target.id : null;
  const total = useLiveValue((store) => store.total);
  const found = useWorkerQuery(id ? async (bridge) => ({ id, slot: await bridge.slotOf(id) }) : null, [id, total]);
  return id && found?.id === id ? found.slot : -1;
}

interface Handlers {
  hoverAsset(slot: number, info: PickingInfo): void;
  clickAsset(slot: number): void;
  clickCluster(marker: ClusterMarker): void;
  clickStation(marker: StationMarker): void;
  hoverStation(marker: StationMarker | null, info: PickingInfo): void;
  hoverCluster(marker: ClusterMarker | null, info: PickingInfo): void;
}

function createHandlers(
  ui: AssetMapState,
  current: () => { bridge: LiveBridge | null; map: MapState; pinMarker: boolean; navigate: (path: string) => void },
): Handlers {
  return {
    hoverAsset(slot, info) {
      const { bridge } = current();
      const hover = ui.hover;
      if (slot < 0 || !bridge) {
        if (hover?.kind === 'asset') ui.hover = null;
        return;
      }
      if (hover?.kind === 'asset' && hover.slot === slot) {
        hover.x = info.x;
        hover.y = info.y;
        return;
      }
      ui.hover = { kind: 'asset', x: info.x, y: info.y, slot, details: null };
      void bridge.assetAtSlot(slot).then((details) => {
        const now = ui.hover;
        if (now?.kind === 'asset' && now.slot === slot) now.details = hoverDetails(details);
      });
    },
    clickAsset(slot) {
      const { bridge, map } = current();
      if (slot < 0 || !bridge) return;
      void bridge.assetAtSlot(slot).then((details: AssetDetails | null) => {
        if (!details) return;
        const { pinMarker, navigate } = current();
        setTarget(map, { kind: 'asset', id: details.id });
        map.popup = pinMarker
          ? { kind: 'asset', id: details.id, longitude: details.position.lng, latitude: details.position.lat }
          : map.popup?.kind === 'asset'
            ? null
            : map.popup;
        navigate(itemHref('things', details.id));
      });
    },
    clickCluster(marker) {
      const { bridge, map } = current();
      if (!bridge) return;
      void bridge.expansionZoom(marker.clusterId).then((zoom) => centerOn(map, marker.position[0], marker.position[1], zoom));
    },
    clickStation(marker) {
      const { map } = current();
      // part 1 §2: stations group assets when zoomed out; zooming to where groups end shows them.
      centerOn(map, marker.position[0], marker.position[1], STATION_GROUPS_BELOW_ZOOM);
    },
    hoverStation(marker, info) {
      if (marker)
        ui.hover = { kind: 'station', x: info.x, y: info.y, id: marker.id, name: marker.name, count: marker.count, mix: marker.mix };
      else if (ui.hover?.kind === 'station') ui.hover = null;
    },
    hoverCluster(marker, info) {
      if (marker) ui.hover = { kind: 'cluster', x: info.x, y: info.y, clusterId: marker.clusterId, count: marker.count, mix: marker.mix };
      else if (ui.hover?.kind === 'cluster') ui.hover = null;
    },
  };
}

export function useAssetLayers({ map }: DashboardMapProps, displayed: boolean): LayersList {
  const { store, bridge } = useLive();
  // Nothing is drawn until an engine runs (the placeholder store holds no fleet).
  const live = bridge ? store : null;
  const layerData = useLiveValue((snap) => snap.data);
  const data = live ? layerData : null;
  const prefs = useLiveValue((snap) => (live ? snap.preferences : null));
  const navigate = useNavigate();
  const ui = assetMapState(map);
  const groupOn = displayed && !!prefs?.groupView;
  const answer = useClusterAnswer(groupOn, map, ui);
  const density = useDensityPositions(displayed && !!prefs?.densityView);
  const availability = useAvailabilityImage(displayed && !!prefs?.availabilityView, map, ui);
  const targetSlot = useTargetSlot(map);

  const latest = useRef({ bridge, map, pinMarker: !!prefs?.pinMarker, navigate });
  useEffect(() => {
    latest.current = { bridge, map, pinMarker: !!prefs?.pinMarker, navigate };
  });
  const handlers = useMemo(() => createHandlers(ui, () => latest.current), [ui]);

  // A group answer's markers change only with the answer.
  const groups = useMemo(
    () => (answer ? { clusters: clusterMarkers(answer), stations: stationMarkers(answer), slots: singleSlots(answer) } : null),
    [answer],
  );

  // The cluster and station markers change only with an answer; the singles follow every diff.
  const groupLayers = useMemo<Layer[]>(
    () =>
      groups && displayed
        ? clustersLayers(groups.clusters, groups.stations, {
            onClusterClick: handlers.clickCluster,
            onStationClick: handlers.clickStation,
            onStationHover: handlers.hoverStation,
            onClusterHover: handlers.hoverCluster,
          })
        : [],
    [groups, displayed, handlers],
  );
  const fleetLayers = useMemo<Layer[]>(() => {
    if (!data || !displayed) return [];
    if (groups && live) {
      // Singles: a compact copy of their few slots, re-read per diff.
      const singles = singlesLayerData(groups.slots, live.buffers, data.version);
      const { slots } = groups;
      const slotAt = (index: number) => (index >= 0 && index < slots.length ? (slots[index] as number) : -1);
      return [
        ...groupLayers,
        assetsLayer(singles, {
          id: 'assets-singles',
          onHover: (info) => handlers.hoverAsset(slotAt(info.index), info),
          onClick: (info) => {
            handlers.clickAsset(slotAt(info.index));
            return true;
          },
        }),
      ];
    }
    // Group view off (or its first answer not in yet): every listed asset; a pick's index is its slot.
    return [
      assetsLayer(data, {
        onHover: (info) => handlers.hoverAsset(info.index, info),
        onClick: (info) => {
          handlers.clickAsset(info.index);
          return true;
        },
      }),
    ];
  }, [data, displayed, groups, groupLayers, live, handlers]);

  // Nothing hovered stays shown once the assets are hidden ('Display Assets' off).
  useEffect(() => {
    if (!displayed) ui.hover = null;
  }, [displayed, ui]);

  const densityLayers = useMemo<Layer[]>(() => (density && displayed ? [densityLayer(density)] : []), [density, displayed]);
  const availabilityLayers = useMemo<Layer[]>(() => {
    const layer = availability && displayed ? availabilityLayer(availability) : null;
    return layer ? [layer] : [];
  }, [availability, displayed]);
  const targetLayers = useMemo<Layer[]>(() => {
    if (!data || !live || targetSlot < 0 || !displayed) return [];
    const position = slotPosition(live.buffers, targetSlot);
    return position ? [targetLayer(position)] : [];
  }, [data, live, targetSlot, displayed]);

  return useMemo<LayersList>(
    () => [...availabilityLayers, ...densityLayers, ...fleetLayers, ...targetLayers],
    [availabilityLayers, densityLayers, fleetLayers, targetLayers],
  );
}

/** The pinned asset's popup: its details re-read per batch, placed at its position on the map. */
function PinnedAssetPopup({
  map,
  id,
  size,
  mix,
  timeZone,
}: {
  map: MapState;
  id: string;
  size: { width: number; height: number };
  mix: ResponderMix;
  timeZone: string | null;
}) {
  const { view } = useSnapshot(map);
  const version = useLiveValue((store) => store.version);
  const details = useWorkerQuery((bridge) => bridge.asset(id), [id, version], { throttleMs: PINNED_REFRESH_MS });
  if (!details || details.id !== id) return null;
  const { x, y } = screenPoint(view, size, details.position.lng, details.position.lat);
  return (
    <AssetPopup
      asset={details}
      mix={mix}
      x={x}
      y={y}
      timeZone={timeZone}
      onClose={() => {
        map.popup = null;
      }}
    />
  );
}

/** The asset popups (hover and pinned) and the availability legend, drawn over the map. */
/** `timeZone`: the user's, for 'Last sync' as every other time shown (part 1), not the browser's. */
export function AssetPopups({ map, timeZone = null }: DashboardMapProps & { timeZone?: string | null }) {
  const ui = assetMapState(map);
  const snap = useSnapshot(ui);
  const { popup } = useSnapshot(map);
  const mix = useResponderMix();
  const overlay = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const element = overlay.current;
    if (!element) return undefined;
    const measure = () => {
      const { clientWidth: width, clientHeight: height } = element;
      if (ui.size?.width !== width || ui.size?.height !== height) ui.size = width > 0 && height > 0 ? { width, height } : null;
    };
    measure();
    if (typeof ResizeObserver === 'undefined') return undefined;
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    return () => observer.disconnect();
  }, [ui]);

  // The hover popup goes as soon as the pointer leaves the map (deck.gl's own leave pick waits for a frame).
  useEffect(() => {
    const host = overlay.current?.parentElement;
    if (!host) return undefined;
    const leave = () => {
      ui.hover = null;
    };
    host.addEventListener('pointerleave', leave);
    return () => host.removeEventListener('pointerleave', leave);
  }, [ui]);

  const hover = snap.hover;
  const pinnedId = popup?.kind === 'asset' ? popup.id : null;
  return (
    <div ref={overlay} className="asset-popups">
      {hover?.kind === 'asset' && hover.details && hover.details.id !== pinnedId && (
        <AssetPopup
          asset={hover.details as AssetDetails}
          mix={mix}
          x={hover.x}
          y={hover.y}
          timeZone={timeZone}
          placement={hoverPlacement(hover.x, hover.y, snap.size)}
        />
      )}
      {(hover?.kind === 'station' || hover?.kind === 'cluster') && (
        <GroupPopup
          kind={hover.kind}
          name={hover.kind === 'station' ? hover.name : undefined}
          count={hover.count}
          mix={hover.mix}
          responderMix={mix}
          x={hover.x}
          y={hover.y}
          placement={hoverPlacement(hover.x, hover.y, snap.size)}
        />
      )}
      {pinnedId && snap.size && <PinnedAssetPopup map={map} id={pinnedId} size={snap.size} mix={mix} timeZone={timeZone} />}
      {snap.availability && (
        <div className="availability-legend" data-testid="availability-share">
          <span className="availability-legend__swatch" aria-hidden="true" />
          {availabilityShareText(snap.availability.coveredShare, snap.availability.radiusM)}
        </div>
      )}
    </div>
  );
}
