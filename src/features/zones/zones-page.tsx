/**
 * /dashboard/zones (part 2 §2 Alerting zones, §3, §4, §8 Zones fetch; desktop only — the shell's
 * SectionPage shows the §2 mobile text): the organization's zones as a list or on the map (the
 * choice remembered per user in this browser), filtered by zone type (unticking hides the type),
 * status (Active / Standby) and a search (zone id, external id, description, its assets' ids and
 * names; empty matches all), with 'Showing (x/total)'. The zones stay drawn on the map while the
 * page is mounted; in Map mode the list collapses to the filters and the map fits the shown zones.
 * 'Show things on map' rings the shown zones' assets on the live map.
 *
 * part 2 §2 re-test rule: a filter change runs `refilterZones` over the zones as they are shown
 * (loosening re-tests the hidden zones, otherwise the shown ones are re-tested). A refetch (every
 * ZONES_POLL_MS) updates each zone in place and keeps it where it was, shown or hidden; a zone new
 * to the page is tested against the filter.
 */
import { useEffect, useMemo, useRef, useState, type CSSProperties } from 'react';
import { useOutletContext } from 'react-router-dom';
import { useLive, useLiveValue, useWorkerQuery } from '../../app/live/hooks';
import { Fact, PinnedPopupAnchor, PopupFrame, type PopupLink } from '../../app/map/overlay-popup';
import { fitBounds, type MapState } from '../../app/map/map-state';
import { useMapOverlay } from '../../app/map/use-map-overlay';
import { ListFrame } from '../../app/section/list-frame';
import type { ShellContext } from '../../app/shell/dashboard-layout';
import {
  defaultZoneFilter,
  refilterZones,
  toZoneView,
  zoneMatchesFilter,
  ZONE_STATUSES,
  type AlertingZone,
  type ZoneFilter,
  type ZoneStatus,
  type ZoneView,
} from '../../domain/alerting-zone';
import { boundsOf } from '../../domain/geometry';
import { ZONES_TEXT } from '../../domain/labels';
import { zonePositions, zonesLayers, zoneThingsLayer, type ZonePick } from '../../map/layers/zones-layer';
import { useZonesQuery } from './calls';
import { useZonesViewMode, type ZonesViewMode } from './use-zones-view-mode';
import './zones.css';

/** chosen: a row holds the description, type and status, external id and the assets' names. */
export const ZONE_ROW_HEIGHT = 96;

const zoneTitle = (zone: Pick<AlertingZone, 'description' | 'id'>): string => zone.description.trim() || zone.id;

/** The zone types present, alphabetically (part 2 §2 "filters by zone type"). */
function typesOf(zones: readonly AlertingZone[]): string[] {
  return [...new Set(zones.map((zone) => zone.typeName))].sort((a, b) => a.localeCompare(b));
}

function toggled<T>(list: readonly T[], value: T, on: boolean): T[] {
  return on ? [...list.filter((v) => v !== value), value] : list.filter((v) => v !== value);
}

/** Which zones are shown, by the re-test rule (see the file comment). */
interface Placement {
  /** The zone ids known to the page: shown or hidden. */
  known: ReadonlySet<string>;
  shown: ReadonlySet<string>;
}

function placeNew(views: readonly ZoneView[], filter: ZoneFilter, previous: Placement | null): Placement {
  const known = new Set<string>();
  const shown = new Set<string>();
  for (const view of views) {
    known.add(view.id);
    const wasShown = previous?.known.has(view.id) ? previous.shown.has(view.id) : zoneMatchesFilter(view, filter);
    if (wasShown) shown.add(view.id);
  }
  return { known, shown };
}

export function useZonePlacement(zones: readonly AlertingZone[]) {
  const views = useMemo(() => zones.map(toZoneView), [zones]);
  const [filter, setFilterState] = useState<ZoneFilter>(defaultZoneFilter);
  const placementRef = useRef<{ views: readonly ZoneView[]; placement: Placement } | null>(null);
  if (placementRef.current?.views !== views) {
    placementRef.current = { views, placement: placeNew(views, filter, placementRef.current?.placement ?? null) };
  }
  const placement = placementRef.current.placement;
  const changeFilter = (next: ZoneFilter) => {
    const shown = views.filter((view) => placement.shown.has(view.id));
    const hidden = views.filter((view) => !placement.shown.has(view.id));
    const result = refilterZones(filter, next, shown, hidden, (view) => zoneMatchesFilter(view, next));
    placementRef.current = { views, placement: { known: placement.known, shown: new Set(result.shown.map((view) => view.id)) } };
    setFilterState(next);
  };
  // Shown in the list's order (active first, §4).
  const shownZones = zones.filter((zone) => placement.shown.has(zone.id));
  return { filter, changeFilter, shownZones };
}

interface ZoneRowProps {
  zones: readonly AlertingZone[];
  onOpen(zone: AlertingZone): void;
}

function StatusBadge({ status }: { status: ZoneStatus }) {
  return (
    <span className="zone-status" data-status={status}>
      <span className="zone-status-dot" aria-hidden="true" />
      {ZONES_TEXT.statusLabel[status]}
    </span>
  );
}

function ZoneRow({
  index,
  style,
  ariaAttributes,
  zones,
  onOpen,
}: ZoneRowProps & {
  index: number;
  style: CSSProperties;
  ariaAttributes: { 'aria-posinset': number; 'aria-setsize': number; role: 'listitem' };
}) {
  const zone = zones[index];
  if (!zone) return null;
  const names = zone.activeThings.map((thing) => thing.thingName).join(', ');
  return (
    <div style={style} {...ariaAttributes} className="zone-row-slot" data-zone-id={zone.id}>
      <button type="button" className="zone-row" onClick={() => onOpen(zone)}>
        <span className="zone-row-head">
          <span className="zone-row-name">{zoneTitle(zone)}</span>
          <StatusBadge status={zone.status} />
        </span>
        <span className="zone-row-type">
          {zone.typeName}
          {zone.externalId && (
            <span className="zone-row-external">
              {' · '}
              {ZONES_TEXT.externalId} {zone.externalId}
            </span>
          )}
        </span>
        <span className="zone-row-assets">
          {ZONES_TEXT.assets}: {names || ZONES_TEXT.noAssets}
        </span>
      </button>
    </div>
  );
}

function fitZones(map: MapState, zones: readonly AlertingZone[]): void {
  const box = boundsOf(zonePositions(zones));
  if (box) fitBounds(map, [box.west, box.south, box.east, box.north]);
}

/** A zone's popup on the map: this page's, and the layers control's with a link here (`link`). */
export function ZonePopup({
  zone,
  onClose,
  link,
}: {
  zone: AlertingZone;
  onClose?: (() => void) | undefined;
  link?: PopupLink | undefined;
}) {
  return (
    <PopupFrame title={zoneTitle(zone)} onClose={onClose} testId="zone-popup" link={link}>
      <Fact label={ZONES_TEXT.type}>{zone.typeName}</Fact>
      <Fact label={ZONES_TEXT.status}>{ZONES_TEXT.statusLabel[zone.status]}</Fact>
      {zone.alertMessage && <Fact label={ZONES_TEXT.alertMessage}>{zone.alertMessage}</Fact>}
    </PopupFrame>
  );
}

/**
 * 'Show things on map' (part 2 §2): the live positions of the shown zones' assets, read from the
 * live store's buffers at the slots the worker names (asked again when the fleet's size changes).
 */
function useThingPositions(thingIds: readonly string[], on: boolean): [number, number][] {
  const { store } = useLive();
  const total = useLiveValue((s) => s.total);
  const key = thingIds.join(',');
  const slots = useWorkerQuery(on && thingIds.length > 0 ? (bridge) => Promise.all(thingIds.map((id) => bridge.slotOf(id))) : null, [
    key,
    total,
    on,
  ]);
  // A new diff moves the assets: read the positions again.
  const version = useLiveValue((s) => (on ? s.version : 0));
  return useMemo(() => {
    void version;
    if (!on || !slots) return [];
    const { lngLat, capacity } = store.buffers;
    const positions: [number, number][] = [];
    for (const slot of slots) {
      if (slot < 0 || slot >= capacity) continue;
      const lng = lngLat[slot * 2]!;
      const lat = lngLat[slot * 2 + 1]!;
      if (Number.isFinite(lng) && Number.isFinite(lat) && (lng !== 0 || lat !== 0)) positions.push([lng, lat]);
    }
    return positions;
  }, [on, slots, store, version]);
}

function ZonesOverlay({ map, zones, showThings }: { map: MapState; zones: readonly AlertingZone[]; showThings: boolean }) {
  const [hover, setHover] = useState<ZonePick | null>(null);
  const [pinned, setPinned] = useState<ZonePick | null>(null);
  const layers = useMemo(() => zonesLayers({ zones, onHover: setHover, onClick: setPinned }), [zones]);
  const thingIds = useMemo(() => [...new Set(zones.flatMap((zone) => zone.activeThings.map((thing) => thing.thingId)))], [zones]);
  const positions = useThingPositions(thingIds, showThings);
  const thingsLayer = useMemo(() => (showThings ? zoneThingsLayer(positions) : null), [showThings, positions]);
  const byId = (pick: ZonePick | null) => (pick ? (zones.find((zone) => zone.id === pick.id) ?? null) : null);
  const hovered = hover && hover.id !== pinned?.id ? byId(hover) : null;
  const pinnedZone = byId(pinned);
  const overlay = useMemo(
    () => ({
      under: layers,
      over: thingsLayer ? [thingsLayer] : [],
      children: (
        <>
          {hovered && hover ? (
            <div className="overlay-popup-anchor" style={{ left: hover.x, top: hover.y }}>
              <ZonePopup zone={hovered} />
            </div>
          ) : null}
          {pinnedZone && pinned ? (
            <PinnedPopupAnchor map={map} lng={pinned.lng} lat={pinned.lat}>
              <ZonePopup zone={pinnedZone} onClose={() => setPinned(null)} />
            </PinnedPopupAnchor>
          ) : null}
        </>
      ),
    }),
    [layers, thingsLayer, hovered, hover, pinnedZone, pinned, map],
  );
  useMapOverlay(map, 'zones', overlay);
  return null;
}

function ZoneFilters({
  types,
  filter,
  onChange,
  mode,
  onMode,
  showThings,
  onShowThings,
}: {
  types: readonly string[];
  filter: ZoneFilter;
  onChange(next: ZoneFilter): void;
  mode: ZonesViewMode;
  onMode(mode: ZonesViewMode): void;
  showThings: boolean;
  onShowThings(on: boolean): void;
}) {
  return (
    <div className="zone-filters">
      <fieldset className="zone-filter-group zone-view-switch">
        <legend>{ZONES_TEXT.view}</legend>
        {(['list', 'map'] as const).map((choice) => (
          <label key={choice} className="zone-filter-option">
            <input type="radio" name="zones-view" value={choice} checked={mode === choice} onChange={() => onMode(choice)} />
            {ZONES_TEXT[choice]}
          </label>
        ))}
      </fieldset>
      {types.length > 0 && (
        <fieldset className="zone-filter-group">
          <legend>{ZONES_TEXT.types}</legend>
          {types.map((type) => (
            <label key={type} className="zone-filter-option">
              <input
                type="checkbox"
                checked={!filter.hiddenTypes.includes(type)}
                onChange={(event) => onChange({ ...filter, hiddenTypes: toggled(filter.hiddenTypes, type, !event.target.checked) })}
              />
              {type}
            </label>
          ))}
        </fieldset>
      )}
      <fieldset className="zone-filter-group">
        <legend>{ZONES_TEXT.status}</legend>
        {ZONE_STATUSES.map((status) => (
          <label key={status} className="zone-filter-option">
            <input
              type="checkbox"
              checked={filter.statuses.includes(status)}
              onChange={(event) => onChange({ ...filter, statuses: toggled(filter.statuses, status, event.target.checked) })}
            />
            {ZONES_TEXT.statusLabel[status]}
          </label>
        ))}
      </fieldset>
      <label className="zone-filter-option zone-show-things">
        <input type="checkbox" checked={showThings} onChange={(event) => onShowThings(event.target.checked)} />
        {ZONES_TEXT.showThings}
      </label>
    </div>
  );
}

const NO_ZONES: AlertingZone[] = [];

export function ZonesPage() {
  const { map, organizationId, profile } = useOutletContext<ShellContext>();
  const query = useZonesQuery(organizationId);
  const zones = query.data ?? NO_ZONES;
  const { filter, changeFilter, shownZones } = useZonePlacement(zones);
  const [mode, setMode] = useZonesViewMode(profile.id);
  const [showThings, setShowThings] = useState(false);
  const types = useMemo(() => typesOf(zones), [zones]);

  // The drawn zones change only when the shown zones or their data change.
  const shownKey = shownZones.map((zone) => zone.id).join(',');
  // eslint-disable-next-line react-hooks/exhaustive-deps -- keyed on the shown ids and the answer
  const drawn = useMemo(() => shownZones, [shownKey, zones]);

  // Map mode: fit the shown zones when the mode opens and when the shown set changes.
  useEffect(() => {
    if (mode === 'map') fitZones(map, drawn);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- not on a refetch of the same zones
  }, [mode, shownKey, map]);

  let empty: React.ReactNode | undefined;
  if (query.isPending)
    empty = (
      <p className="zones-empty" role="status">
        {ZONES_TEXT.loading}
      </p>
    );
  else if (query.isError)
    empty = (
      <p className="zones-empty" role="alert">
        {query.error.userError.text}
      </p>
    );
  else if (shownZones.length === 0) empty = <p className="zones-empty">{zones.length === 0 ? ZONES_TEXT.none : ZONES_TEXT.empty}</p>;
  else if (mode === 'map') empty = <p className="zones-map-hint">{ZONES_TEXT.mapHint}</p>;

  return (
    <>
      <ZonesOverlay map={map} zones={drawn} showThings={showThings} />
      <ListFrame
        className={mode === 'map' ? 'zones-list zones-list-map' : 'zones-list'}
        title={ZONES_TEXT.title}
        search={{ value: filter.search, label: ZONES_TEXT.search, onSearch: (search) => changeFilter({ ...filter, search }) }}
        filters={
          <ZoneFilters
            types={types}
            filter={filter}
            onChange={changeFilter}
            mode={mode}
            onMode={setMode}
            showThings={showThings}
            onShowThings={setShowThings}
          />
        }
        shown={query.isSuccess ? shownZones.length : undefined}
        total={query.isSuccess ? zones.length : undefined}
        empty={empty}
        rows={{
          className: 'zones-rows',
          label: ZONES_TEXT.title,
          role: 'list',
          rowComponent: ZoneRow,
          rowCount: shownZones.length,
          rowHeight: ZONE_ROW_HEIGHT,
          rowProps: { zones: shownZones, onOpen: (zone: AlertingZone) => fitZones(map, [zone]) },
        }}
      />
    </>
  );
}
