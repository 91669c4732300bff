/**
 * part 2 §2 Trips "a live path exists for an asset" (the Live path tab): one asset, chosen with the
 * shared picker and remembered (use-trips-memory.ts `liveThingId`), its path drawn on the map as
 * it grows from the live data since the page opened (use-live-path.ts keeps the trail).
 */
import { useMemo } from 'react';
import { useOutletContext } from 'react-router-dom';
import type { FleetEntry } from '../../app/fleet-list';
import { fitBounds } from '../../app/map/map-state';
import { useMapOverlay } from '../../app/map/use-map-overlay';
import type { ShellContext } from '../../app/shell/dashboard-layout';
import { AssetPicker } from '../../app/ui/asset-picker';
import { boundsOf } from '../../domain/geometry';
import { TRIPS_TEXT } from '../../domain/labels';
import { formatDateTime } from '../../domain/time';
import { livePathLayers } from '../../map/layers/trips-layer';
import type { LivePoint } from './use-live-path';

export interface LivePathPanelProps {
  entries: readonly FleetEntry[] | null;
  thingId: string | null;
  trail: readonly LivePoint[];
  onChange(thingId: string | null): void;
  timeZone: string | null;
}

export function LivePathPanel({ entries, thingId, trail, onChange, timeZone }: LivePathPanelProps) {
  const { map } = useOutletContext<ShellContext>();
  const overlay = useMemo(() => {
    const [path, head] = livePathLayers(trail);
    return { under: [path], over: [head] };
  }, [trail]);
  useMapOverlay(map, 'trips-live', thingId === null ? null : overlay);
  const show = () => {
    const bounds = boundsOf(trail);
    if (bounds) fitBounds(map, [bounds.west, bounds.south, bounds.east, bounds.north]);
  };
  return (
    <div className="trips-live">
      <AssetPicker
        label={TRIPS_TEXT.liveAsset}
        entries={entries}
        chosen={thingId === null ? [] : [thingId]}
        onChange={(ids) => onChange(ids[0] ?? null)}
        single
        loadingText={TRIPS_TEXT.loadingAssets}
        emptyText={TRIPS_TEXT.noAssets}
      />
      {thingId === null ? (
        <p className="report-note">{TRIPS_TEXT.livePickFirst}</p>
      ) : trail.length === 0 ? (
        <p className="report-note" role="status">
          {TRIPS_TEXT.liveWaiting}
        </p>
      ) : (
        <>
          <p className="report-note" data-testid="live-path-count">
            {TRIPS_TEXT.livePoints(trail.length, formatDateTime(trail[0]!.at, timeZone))}
          </p>
          <button type="button" className="button button-secondary" onClick={show}>
            {TRIPS_TEXT.liveShow}
          </button>
        </>
      )}
    </div>
  );
}
