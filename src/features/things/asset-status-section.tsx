/**
 * The detail's Status section (part 1 §2 "Asset detail"): the status label by the responder mix
 * (§4); on scene (location) the arrival time and duration; pending and offline the last time
 * online; any other status the direction (8-point compass, §3), speed and last sync; an active run
 * adds run start, run time and alert points. Times are in the organization's timezone when known.
 */
import { useId } from 'react';
import { ASSET_STATUS, displayStatus, statusLabel, type AssetStatus, type ResponderMix } from '../../domain/asset-status';
import { formatDateTime, formatDuration } from '../../domain/time';
import type { AssetDetails } from '../../domain/live-diff';
import { ASSET_TEXT } from '../../domain/labels';
import { SECOND_MS } from '../../domain/constants';
import { useNow } from '../../app/section/use-now';

/** The shown durations move once a second. */
const CLOCK_MS = SECOND_MS;

/** Status rows' words (the spec names them: "arrival time", "last online", ...). */
export const STATUS_FIELD = {
  status: 'Status',
  arrived: 'Arrived',
  duration: 'Duration',
  lastOnline: 'Last Online',
  direction: 'Direction',
  speed: 'Speed',
  lastSync: 'Last Sync',
  runStart: 'Run Start',
  runTime: 'Run Time',
  alertPoints: 'Alert Points',
  none: '—',
} as const;

/** Speeds are miles per hour on the wire (docs/api/seed.md). */
export function formatSpeed(speed: number): string {
  return `${Math.round(speed)} mph`;
}

function Row({ term, value }: { term: string; value: string }) {
  return (
    <div className="detail-row">
      <dt>{term}</dt>
      <dd>{value}</dd>
    </div>
  );
}

export function AssetStatusSection({ asset, mix, timeZone }: { asset: AssetDetails; mix: ResponderMix; timeZone: string | null }) {
  const titleId = useId();
  const now = useNow(CLOCK_MS);
  const status = displayStatus(asset.status as AssetStatus, asset.inService);
  const time = (ms: number | null) => (ms === null ? STATUS_FIELD.none : formatDateTime(ms, timeZone));
  const rows: { term: string; value: string }[] = [];
  if (asset.status === ASSET_STATUS.location && asset.detailsPending) {
    // The incident times are not in the fleet snapshot: they come with the asset's page.
    rows.push({ term: STATUS_FIELD.arrived, value: ASSET_TEXT.detailsLoading });
    rows.push({ term: STATUS_FIELD.duration, value: ASSET_TEXT.detailsLoading });
  } else if (asset.status === ASSET_STATUS.location) {
    rows.push({ term: STATUS_FIELD.arrived, value: time(asset.incidentStartTime) });
    rows.push({
      term: STATUS_FIELD.duration,
      value: asset.incidentStartTime === null ? STATUS_FIELD.none : formatDuration(now - asset.incidentStartTime),
    });
  } else if (asset.status === ASSET_STATUS.pending || asset.status === ASSET_STATUS.offline) {
    rows.push({ term: STATUS_FIELD.lastOnline, value: time(asset.heartbeatTime) });
  } else {
    rows.push({ term: STATUS_FIELD.direction, value: asset.courseDirection ?? STATUS_FIELD.none });
    rows.push({ term: STATUS_FIELD.speed, value: formatSpeed(asset.speed) });
    rows.push({ term: STATUS_FIELD.lastSync, value: time(asset.heartbeatTime) });
  }
  // An active run: the asset is alerting (location or active) with a run under way.
  const running = asset.runId !== null && asset.runStartTime !== null && status <= ASSET_STATUS.active;
  if (running && asset.runStartTime !== null) {
    rows.push({ term: STATUS_FIELD.runStart, value: time(asset.runStartTime) });
    // The run's time counts on from its start (the wire's runtime is as of its last message).
    rows.push({ term: STATUS_FIELD.runTime, value: formatDuration(now - asset.runStartTime) });
    rows.push({ term: STATUS_FIELD.alertPoints, value: String(asset.runPointsCount ?? 0) });
  }
  return (
    <section className="detail-section" aria-labelledby={titleId}>
      <h2 id={titleId}>{ASSET_TEXT.status}</h2>
      <p className="status-label" data-status={status}>
        <span className="status-dot" aria-hidden="true" style={{ background: `var(--status-${status})` }} />
        {statusLabel(status, mix)}
      </p>
      <dl className="detail-list">
        {rows.map((row) => (
          <Row key={row.term} term={row.term} value={row.value} />
        ))}
      </dl>
    </section>
  );
}
