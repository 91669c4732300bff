/**
 * /dashboard/r2r (part 2 §2 R2R "Search by asset run date, alert time and asset, with a 'Get R2R'
 * button"; §5 R2R "asset and start time required. The end is start plus 15 minutes. No future
 * dates"; §7 the result shown as R2R data by asset; desktop only). The spec shows no path: GET /r2r
 * (server/http/r2r-search/). The alerts of the window are listed by receiving asset and drawn on
 * the map: where the alerting vehicle was at each alert and where each receiver was at that moment
 * (its nearest trip point, `other_lat`/`other_lng`), joined by a line; a result brings them into
 * view once.
 */
import { useEffect, useMemo, useRef, useState, type FormEvent } from 'react';
import { useOutletContext } from 'react-router-dom';
import { userErrorOf } from '../../app/api-client';
import { useFleetList } from '../../app/fleet-list';
import { fitBounds } from '../../app/map/map-state';
import { useMapOverlay } from '../../app/map/use-map-overlay';
import { queryKey } from '../../app/query-cache';
import { useServices } from '../../app/services';
import type { ShellContext } from '../../app/shell/dashboard-layout';
import { AssetPicker } from '../../app/ui/asset-picker';
import { MinuteField } from '../../app/ui/minute-field';
import { useApiQuery } from '../../app/use-api-query';
import { boundsOf } from '../../domain/geometry';
import { R2R_PAGE_TEXT, R2R_SEARCH_TEXT, TRIPS_TEXT } from '../../domain/labels';
import { r2rSearchWireSchema, type R2RSearchWire } from '../../domain/r2r-search';
import { formatDateTime } from '../../domain/time';
import { r2rWindow } from '../../domain/trip';
import { fromMinuteInput, UNREADABLE_DATE_TEXT } from '../../domain/time';
import { fieldErrors } from '../../domain/validation/field-errors';
import { MESSAGES } from '../../domain/validation/messages';
import { r2rSearchSchema } from '../../domain/validation/reports';
import {
  R2R_DELIVERED_COLOR,
  R2R_RECEIVER_COLOR,
  r2rAlertsLayer,
  r2rCssColor,
  r2rLinksLayer,
  r2rReceiversLayer,
  type R2RReceiverMarker,
} from '../../map/layers/r2r-layer';
import '../../app/section/report.css';

interface R2RQuery {
  thingId: string;
  startTime: number;
}

/** R2R data by asset: the window's alerts grouped by the asset that received them. */
function byReceiver(result: R2RSearchWire) {
  const groups = new Map<string, { name: string; alerts: R2RSearchWire['alerts'] }>();
  for (const alert of result.alerts) {
    const key = alert.other_thing_id ?? (alert.is_test ? 'test' : 'unknown');
    const name = alert.other_thing_name ?? (alert.is_test ? R2R_PAGE_TEXT.test : R2R_PAGE_TEXT.unknownAsset);
    const group = groups.get(key) ?? { name, alerts: [] };
    group.alerts.push(alert);
    groups.set(key, group);
  }
  return [...groups.entries()];
}

function R2RResult({ result, timeZone }: { result: R2RSearchWire; timeZone: string | null }) {
  const { map } = useOutletContext<ShellContext>();
  const markers = useMemo(
    () =>
      result.alerts.flatMap((alert) =>
        alert.lat === null || alert.lng === null
          ? []
          : [{ id: alert.id, position: [alert.lng, alert.lat] as [number, number], delivered: alert.delivered }],
      ),
    [result],
  );
  const receivers = useMemo(
    () =>
      result.alerts.flatMap((alert): R2RReceiverMarker[] =>
        alert.other_lat == null || alert.other_lng == null
          ? []
          : [
              {
                id: alert.id,
                position: [alert.other_lng, alert.other_lat],
                from: alert.lat === null || alert.lng === null ? null : [alert.lng, alert.lat],
              },
            ],
      ),
    [result],
  );
  const overlay = useMemo(
    () => ({ under: [r2rLinksLayer(receivers)], over: [r2rReceiversLayer(receivers), r2rAlertsLayer(markers)] }),
    [markers, receivers],
  );
  useMapOverlay(map, 'r2r', overlay);
  const groups = byReceiver(result);
  const window = `${formatDateTime(Date.parse(result.start_time), timeZone)} – ${formatDateTime(Date.parse(result.end_time), timeZone)}`;
  const showOnMap = () => {
    const bounds = boundsOf([...markers, ...receivers].map((m) => ({ lng: m.position[0], lat: m.position[1] })));
    if (bounds) fitBounds(map, [bounds.west, bounds.south, bounds.east, bounds.north]);
  };
  // Each result brings the alerting vehicle and its receivers into view once.
  const fitted = useRef<R2RSearchWire | null>(null);
  useEffect(() => {
    if (fitted.current === result) return;
    fitted.current = result;
    showOnMap();
  });
  return (
    <section className="r2r-result" aria-label={result.thing_name}>
      <h2>{result.thing_name}</h2>
      <p className="report-note">{window}</p>
      {groups.length === 0 ? (
        <p className="report-note">{R2R_PAGE_TEXT.none}</p>
      ) : (
        <>
          {groups.map(([key, group]) => (
            <table key={key} className="report-counts" aria-label={group.name}>
              <caption>{group.name}</caption>
              <thead>
                <tr>
                  <th scope="col">{R2R_PAGE_TEXT.alertAt}</th>
                  <th scope="col">{R2R_PAGE_TEXT.distance}</th>
                  <th scope="col">{R2R_PAGE_TEXT.delivered}</th>
                </tr>
              </thead>
              <tbody>
                {group.alerts.map((alert) => (
                  <tr key={alert.id}>
                    <td>{formatDateTime(Date.parse(alert.alert_time), timeZone)}</td>
                    <td>{alert.distance_m === null ? '' : `${Math.round(alert.distance_m)} m`}</td>
                    <td>{alert.delivered ? R2R_PAGE_TEXT.yes : R2R_PAGE_TEXT.no}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          ))}
          <ul className="report-note report-legend" aria-label={R2R_PAGE_TEXT.mapLegend}>
            <li>
              <span className="report-swatch" style={{ background: r2rCssColor(R2R_DELIVERED_COLOR) }} aria-hidden="true" />{' '}
              {R2R_PAGE_TEXT.legendAlerting}
            </li>
            <li>
              <span className="report-swatch" style={{ background: r2rCssColor(R2R_RECEIVER_COLOR) }} aria-hidden="true" />{' '}
              {R2R_PAGE_TEXT.legendReceiver}
            </li>
          </ul>
          <button type="button" className="button button-secondary" onClick={showOnMap}>
            {R2R_PAGE_TEXT.showOnMap}
          </button>
        </>
      )}
    </section>
  );
}

export function R2RPage() {
  const { profile, organizationId } = useOutletContext<ShellContext>();
  const { api } = useServices();
  const timeZone = profile.timezone;
  const fleet = useFleetList(organizationId, profile.organizationId);
  const [thingIds, setThingIds] = useState<string[]>([]);
  const [runDate, setRunDate] = useState('');
  const [alertTime, setAlertTime] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [query, setQuery] = useState<R2RQuery | null>(null);
  const answer = useApiQuery({
    key: query ? queryKey('r2r', organizationId, query.thingId, query.startTime) : ['r2r', 'none'],
    load: () =>
      api.request('/r2r', {
        query: { thing_id: query!.thingId, start_time: new Date(query!.startTime).toISOString() },
        schema: r2rSearchWireSchema,
        context: 'trips',
      }),
    enabled: query !== null,
  });
  const startTime =
    runDate === UNREADABLE_DATE_TEXT ? Number.NaN : runDate && alertTime ? fromMinuteInput(`${runDate}T${alertTime}`, timeZone) : null;
  const window = startTime === null || Number.isNaN(startTime) ? null : r2rWindow(startTime);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const result = r2rSearchSchema({ now: Date.now() }).safeParse({ thingId: thingIds[0] ?? '', startTime });
    const found = fieldErrors(result);
    // The start is the run date and the alert time together: each missing part is required.
    if (!runDate) found['runDate'] = MESSAGES.required;
    if (!alertTime) found['alertTime'] = MESSAGES.required;
    // An unreadable run date (a year 0000 typed) is the run date's fault, not the alert time's.
    if (found['startTime'] && runDate === UNREADABLE_DATE_TEXT) found['runDate'] = found['startTime'];
    else if (found['startTime'] && runDate && alertTime) found['alertTime'] = found['startTime'];
    setErrors(found);
    if (!result.success || startTime === null) return;
    const next = { thingId: thingIds[0]!, startTime };
    // A search asked again is answered again: alerts of a recent window may have arrived since the
    // kept answer (the query cache keeps answers 30 minutes, part 1 §9).
    if (query && query.thingId === next.thingId && query.startTime === next.startTime) void answer.refetch();
    else setQuery(next);
  };

  return (
    <section className="report-page" aria-labelledby="r2r-title">
      <h1 id="r2r-title">{R2R_PAGE_TEXT.title}</h1>
      <form className="form report-form" noValidate onSubmit={submit} aria-label={R2R_PAGE_TEXT.title}>
        <AssetPicker
          label={R2R_PAGE_TEXT.asset}
          entries={fleet.entries}
          chosen={thingIds}
          onChange={setThingIds}
          single
          error={errors['thingId']}
          loadingText={TRIPS_TEXT.loadingAssets}
          emptyText={TRIPS_TEXT.noAssets}
        />
        <div className="report-range">
          <MinuteField kind="date" label={R2R_PAGE_TEXT.runDate} value={runDate} onChange={setRunDate} error={errors['runDate']} />
          <MinuteField kind="time" label={R2R_PAGE_TEXT.alertTime} value={alertTime} onChange={setAlertTime} error={errors['alertTime']} />
        </div>
        {window && (
          <p className="report-note">
            {R2R_PAGE_TEXT.window(formatDateTime(window.start, timeZone), formatDateTime(window.end, timeZone))}
          </p>
        )}
        <button type="submit" className="button button-primary">
          {R2R_SEARCH_TEXT.submit}
        </button>
      </form>
      {query === null ? null : answer.isPending ? (
        <p className="report-note" role="status">
          {R2R_PAGE_TEXT.loading}
        </p>
      ) : answer.error ? (
        <p className="form-alert form-alert-error" role="alert">
          {userErrorOf(answer.error, 'trips').text}
        </p>
      ) : answer.data ? (
        <R2RResult result={answer.data} timeZone={timeZone} />
      ) : null}
    </section>
  );
}
