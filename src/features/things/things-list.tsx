/**
 * The Live section's list, /dashboard/things (part 1 §2 "Asset list"; §4 "Sorting and filtering"):
 * search, the Filters panel, group- and density-view toggles, Owned / Managed
 * toggles when relations exist (the worker's ownership counts, part 1 §3), counts per status, a progress bar while the fleet
 * loads, and the virtualized list in the worker's order. A row click targets the asset, opens its
 * detail and pans the map. Everything about the fleet comes from the worker through the bridge.
 */
import { useCallback, useEffect, useId, useState } from 'react';
import { useNavigate, useOutletContext } from 'react-router-dom';
import { useSnapshot } from 'valtio';
import { ASSET_STATUS, ASSET_STATUSES, statusLabel, type AssetStatus, type ResponderMix } from '../../domain/asset-status';
import { activeFilterCount } from '../../domain/asset-filter';
import { LIVE_LIST_TEXT, SECTION_LABEL, filtersActiveText, listLoadingText, listSizeText, assetCountText } from '../../domain/labels';
import type { Profile } from '../../domain/profile';
import type { LiveBridge } from '../../app/live/bridge';
import { defaultFilters, type LiveStore } from '../../app/live/store';
import type { MapState } from '../../app/map/map-state';
import { openAsset } from '../../app/section/focus-on';
import { itemHref } from '../../app/section/item-href';
import { ListFrame } from '../../app/section/list-frame';
import { useLive } from '../../app/live/hooks';
import type { ShellContext } from '../../app/shell/dashboard-layout';
import { Toggle } from '../../app/ui/toggle';
import type { AssetDetails } from '../../domain/live-diff';
import { AssetList } from './asset-list';
import { FiltersPanel, type PanelFilters } from './filters-panel';
import { ownershipChoice, showOwnershipToggles } from './organization-filter';
import './things.css';

export function ThingsList() {
  const { map, mix, profile } = useOutletContext<ShellContext>();
  const { store, bridge } = useLive();
  if (!bridge) return <ListFrame className="things-list" title={SECTION_LABEL.things} empty={null} />;
  return <LiveList store={store} bridge={bridge} map={map} mix={mix} profile={profile} />;
}

interface LiveListProps {
  store: LiveStore;
  bridge: LiveBridge;
  map: MapState;
  mix: ResponderMix;
  profile: Profile;
}

function LiveList({ store, bridge, map, mix, profile }: LiveListProps) {
  const snap = useSnapshot(store);
  const navigate = useNavigate();
  const panelId = useId();
  const [filtersOpen, setFiltersOpen] = useState(false);
  const { ownership } = snap.filters;
  const ownedOn = ownership !== 'managed';
  const managedOn = ownership !== 'owned';
  // A choice stays while the toggles show; when relations end, the whole fleet is listed again.
  const togglesShown = showOwnershipToggles(profile.acs, snap.ownership.relations);
  useEffect(() => {
    if (!togglesShown && ownership !== null) void bridge.setFilters({ ownership: null }).catch(() => undefined);
  }, [bridge, togglesShown, ownership]);

  const activate = useCallback(
    (asset: AssetDetails) => {
      // part 1 §2: a row click targets the asset, navigates to its id and pans the map.
      openAsset(map, bridge, asset);
      navigate(itemHref('things', asset.id));
    },
    [bridge, map, navigate],
  );

  const applyFilters = (filters: PanelFilters) => {
    setFiltersOpen(false);
    void bridge.setFilters(filters).catch(() => undefined);
  };
  const clearFilters = () => {
    setFiltersOpen(false);
    // The defaults of the panel's own filters; the search box and the organization toggles keep theirs.
    const { search: _search, ownership: _ownership, ...defaults } = defaultFilters(store.preferences.showOffline);
    void bridge.setFilters(defaults).catch(() => undefined);
  };

  const activeFilters = activeFilterCount(snap.filters, snap.preferences.showOffline);
  const { progress } = snap;
  // The map's basemap waits for this list's first rows (DashboardMap useBasemapHold), one flag
  // written here only: none to wait for in a list left empty once the load is over (the load's
  // progress ends before its last page's rows are listed, so progress.done alone would not do).
  const [rowsShown, setRowsShown] = useState(false);
  const showRows = useCallback(() => setRowsShown(true), []);
  const waiting = !rowsShown && !(snap.listLength === 0 && snap.phase === 'live');
  useEffect(() => {
    map.firstRowsPending = waiting;
    return () => {
      map.firstRowsPending = false;
    };
  }, [map, waiting]);
  return (
    <ListFrame
      className="things-list"
      title={SECTION_LABEL.things}
      search={{
        value: snap.filters.search,
        label: LIVE_LIST_TEXT.search,
        onSearch: (search) => void bridge.setFilters({ search }).catch(() => undefined),
      }}
      filters={
        <button
          type="button"
          className="button button-secondary"
          aria-expanded={filtersOpen}
          aria-controls={panelId}
          onClick={() => setFiltersOpen((open) => !open)}
        >
          {LIVE_LIST_TEXT.filters}
          {activeFilters > 0 && (
            <>
              {' '}
              <span className="filters-badge" aria-label={filtersActiveText(activeFilters)}>
                {activeFilters}
              </span>
            </>
          )}
        </button>
      }
      empty={
        snap.listLength === 0 && progress.done ? (
          <p className="things-empty" role="status">
            {LIVE_LIST_TEXT.empty}
          </p>
        ) : undefined
      }
      list={
        <AssetList
          store={store}
          version={snap.version}
          listLength={snap.listLength}
          mix={mix}
          timeZone={profile.timezone}
          selectedId={snap.selection.id}
          onActivate={activate}
          onFirstRows={showRows}
        />
      }
    >
      {filtersOpen && <FiltersPanel id={panelId} filters={snap.filters} mix={mix} onApply={applyFilters} onClear={clearFilters} />}
      <div className="things-toggles">
        <Toggle
          label={LIVE_LIST_TEXT.groupView}
          checked={snap.preferences.groupView}
          onChange={(groupView) => void bridge.setPreferences({ groupView })}
        />
        <Toggle
          label={LIVE_LIST_TEXT.densityView}
          checked={snap.preferences.densityView}
          onChange={(densityView) => void bridge.setPreferences({ densityView })}
        />
        {togglesShown && (
          <>
            <Toggle
              label={LIVE_LIST_TEXT.owned}
              note={assetCountText(snap.ownership.owned)}
              checked={ownedOn}
              // One of the two stays on: a list of no organization would show nothing.
              disabled={ownedOn && !managedOn}
              onChange={(owned) => void bridge.setFilters({ ownership: ownershipChoice(owned, managedOn) })}
            />
            <Toggle
              label={LIVE_LIST_TEXT.managed}
              note={assetCountText(snap.ownership.managed)}
              checked={managedOn}
              disabled={managedOn && !ownedOn}
              onChange={(managed) => void bridge.setFilters({ ownership: ownershipChoice(ownedOn, managed) })}
            />
          </>
        )}
      </div>
      {!progress.done && (
        <div className="things-progress">
          <progress
            max={Math.max(progress.total, 1)}
            value={progress.loaded}
            aria-valuenow={progress.loaded}
            aria-valuemin={0}
            aria-valuemax={progress.total}
            aria-label={listLoadingText(progress.loaded, progress.total)}
          />
          <span>{listLoadingText(progress.loaded, progress.total)}</span>
        </div>
      )}
      <StatusCounts counts={snap.listCounts} mix={mix} />
      {/* The Live list counts in words (part 1 §2), after its toggles and status counts. */}
      <p className="things-size">{listSizeText(snap.listLength, snap.total)}</p>
    </ListFrame>
  );
}

/** Counts of the listed assets per status (location … offline, then out of service when any). */
function StatusCounts({ counts, mix }: { counts: readonly number[]; mix: ResponderMix }) {
  const shown = ASSET_STATUSES.filter((status: AssetStatus) => status !== ASSET_STATUS.oos || (counts[status] ?? 0) > 0);
  return (
    <ul className="things-counts" aria-label={LIVE_LIST_TEXT.countsByStatus}>
      {shown.map((status) => (
        <li key={status} className="things-count">
          <span className="things-count-mark" style={{ background: `var(--status-${status})` }} aria-hidden="true" />
          <span className="things-count-label">{statusLabel(status, mix)}</span>{' '}
          <span className="things-count-value">{counts[status] ?? 0}</span>
        </li>
      ))}
    </ul>
  );
}
