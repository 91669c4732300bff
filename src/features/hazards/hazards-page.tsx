/**
 * /dashboard/hazards (part 2 §2 Hazards "A report of hazards by type and severity. Severity
 * choices are low, medium and high"; §5 Hazard report "at least 1 type or all: 'Must select at
 * least 1 type'"; §9 hazard range 24 h; desktop only): types (or all), severities (none: every
 * one), a past range; then the counts as a table and a bar chart, and the hazards on the map as
 * dots coloured by severity, a heatmap when zoomed out.
 */
import { useMemo, useState, type FormEvent } from 'react';
import { useOutletContext } from 'react-router-dom';
import { useSnapshot } from 'valtio';
import { userErrorOf } from '../../app/api-client';
import { Fact, PinnedPopupAnchor, PopupFrame, type PopupLink } from '../../app/map/overlay-popup';
import { useMapOverlay } from '../../app/map/use-map-overlay';
import { organizationChoice } from '../../app/shell/shell-model';
import type { MapState } from '../../app/map/map-state';
import type { ShellContext } from '../../app/shell/dashboard-layout';
import { MinuteField } from '../../app/ui/minute-field';
import { useApiQuery } from '../../app/use-api-query';
import { HAZARD_SEVERITIES, HAZARD_TYPES, HOUR_MS, type HazardSeverity, type HazardType } from '../../domain/constants';
import type { HazardReportWire, HazardWire } from '../../domain/hazard';
import { HAZARD_SEVERITY_LABEL, HAZARD_TYPE_LABEL, HAZARDS_TEXT } from '../../domain/labels';
import { floorToMinute, formatDateTime, fromMinuteInput, toMinuteInput } from '../../domain/time';
import { fieldErrors } from '../../domain/validation/field-errors';
import { hazardReportSchema } from '../../domain/validation/reports';
import { hazardCssColor, hazardLayers, hazardsAsHeatmap } from '../../map/layers/hazards-layer';
import { hazardReportKey, useHazardCalls, type HazardQuery } from './calls';
import '../../app/section/report.css';
import './hazards.css';

/** chosen: the form opens on the last 24 hours (part 2 §9: the longest range). */
const DEFAULT_RANGE_MS = 24 * HOUR_MS;

/** A hazard's pinned popup on the map: this page's, and the layers control's with a link here (`link`). */
export function HazardPopup({
  map,
  hazard,
  timeZone,
  onClose,
  link,
}: {
  map: MapState;
  hazard: HazardWire;
  timeZone: string | null;
  onClose(): void;
  link?: PopupLink | undefined;
}) {
  return (
    <PinnedPopupAnchor map={map} lng={hazard.lng} lat={hazard.lat}>
      <PopupFrame title={HAZARD_TYPE_LABEL[hazard.hazard_type]} onClose={onClose} testId="hazard-popup" link={link}>
        <Fact label={HAZARDS_TEXT.severities}>{HAZARD_SEVERITY_LABEL[hazard.severity]}</Fact>
        <Fact label={HAZARDS_TEXT.reportedAt}>{formatDateTime(Date.parse(hazard.reported_at), timeZone)}</Fact>
        {hazard.thing_name && <Fact label={HAZARDS_TEXT.reportedBy}>{hazard.thing_name}</Fact>}
      </PopupFrame>
    </PinnedPopupAnchor>
  );
}

function HazardsOverlay({ hazards, timeZone }: { hazards: readonly HazardWire[]; timeZone: string | null }) {
  const { map } = useOutletContext<ShellContext>();
  // The layers change only when the zoom crosses the heatmap's threshold, not at each zoom step.
  const heatmap = hazardsAsHeatmap(useSnapshot(map.view).zoom);
  const [picked, setPicked] = useState<HazardWire | null>(null);
  const layers = useMemo(() => hazardLayers(hazards, heatmap, setPicked), [hazards, heatmap]);
  const overlay = useMemo(
    () => ({
      under: layers,
      children: picked ? <HazardPopup map={map} hazard={picked} timeZone={timeZone} onClose={() => setPicked(null)} /> : null,
    }),
    [layers, picked, map, timeZone],
  );
  useMapOverlay(map, 'hazards', overlay);
  return null;
}

function HazardCounts({ report }: { report: HazardReportWire }) {
  const max = Math.max(1, ...report.counts.map((row) => row.total));
  const total = report.counts.reduce((sum, row) => sum + row.total, 0);
  return (
    <>
      <table className="report-counts" aria-label={HAZARDS_TEXT.title}>
        <thead>
          <tr>
            <th scope="col">{HAZARDS_TEXT.type}</th>
            {HAZARD_SEVERITIES.map((severity) => (
              <th scope="col" key={severity}>
                {HAZARD_SEVERITY_LABEL[severity]}
              </th>
            ))}
            <th scope="col">{HAZARDS_TEXT.total}</th>
          </tr>
        </thead>
        <tbody>
          {report.counts.map((row) => (
            <tr key={row.hazard_type}>
              <th scope="row">{HAZARD_TYPE_LABEL[row.hazard_type]}</th>
              <td>{row.low}</td>
              <td>{row.medium}</td>
              <td>{row.high}</td>
              <td>{row.total}</td>
            </tr>
          ))}
        </tbody>
        <tfoot>
          <tr>
            <th scope="row">{HAZARDS_TEXT.total}</th>
            {HAZARD_SEVERITIES.map((severity) => (
              <td key={severity}>{report.counts.reduce((sum, row) => sum + row[severity], 0)}</td>
            ))}
            <td>{total}</td>
          </tr>
        </tfoot>
      </table>
      <figure className="hazard-chart" aria-label={HAZARDS_TEXT.chart}>
        {report.counts.map((row) => (
          <div key={row.hazard_type} className="hazard-bar-row">
            <span className="hazard-bar-label">{HAZARD_TYPE_LABEL[row.hazard_type]}</span>
            <span className="hazard-bar" aria-hidden="true">
              {HAZARD_SEVERITIES.map((severity) =>
                row[severity] > 0 ? (
                  <span
                    key={severity}
                    className="hazard-bar-part"
                    style={{ width: `${(row[severity] / max) * 100}%`, background: hazardCssColor(severity) }}
                  />
                ) : null,
              )}
            </span>
          </div>
        ))}
        <figcaption className="hazard-legend">
          {HAZARD_SEVERITIES.map((severity) => (
            <span key={severity}>
              <span className="hazard-swatch" style={{ background: hazardCssColor(severity) }} aria-hidden="true" />
              {HAZARD_SEVERITY_LABEL[severity]}
            </span>
          ))}
        </figcaption>
      </figure>
    </>
  );
}

export function HazardsPage() {
  const { profile, organizationId } = useOutletContext<ShellContext>();
  const calls = useHazardCalls();
  const timeZone = profile.timezone;
  const [allTypes, setAllTypes] = useState(true);
  const [types, setTypes] = useState<HazardType[]>([]);
  const [severities, setSeverities] = useState<HazardSeverity[]>([...HAZARD_SEVERITIES]);
  const [start, setStart] = useState(() => toMinuteInput(floorToMinute(Date.now()) - DEFAULT_RANGE_MS, timeZone));
  const [end, setEnd] = useState(() => toMinuteInput(floorToMinute(Date.now()), timeZone));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [query, setQuery] = useState<HazardQuery | null>(null);
  const answer = useApiQuery({
    key: query ? hazardReportKey(organizationId, query) : ['hazards', 'none'],
    load: () => calls.report(query!),
    enabled: query !== null,
  });

  const toggle = <T,>(list: T[], item: T) => (list.includes(item) ? list.filter((other) => other !== item) : [...list, item]);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const form = { allTypes, types, severities, startTime: fromMinuteInput(start, timeZone), endTime: fromMinuteInput(end, timeZone) };
    const result = hazardReportSchema({ now: Date.now() }).safeParse(form);
    setErrors(fieldErrors(result));
    if (!result.success) return;
    const { orgIds } = organizationChoice(organizationId, profile.organizationId);
    const next: HazardQuery = { orgIds, allTypes, types, severities, startTime: form.startTime!, endTime: form.endTime! };
    // The same report asked again: hazards reported since the last answer are wanted, not the cache's copy.
    const sameReport =
      query !== null && JSON.stringify(hazardReportKey(organizationId, query)) === JSON.stringify(hazardReportKey(organizationId, next));
    if (sameReport) void answer.refetch();
    else setQuery(next);
  };

  return (
    <section className="report-page hazards-page" aria-labelledby="hazards-title">
      <h1 id="hazards-title">{HAZARDS_TEXT.title}</h1>
      <form className="form" noValidate onSubmit={submit} aria-label={HAZARDS_TEXT.title}>
        <fieldset className="report-choices" aria-describedby={errors['types'] ? 'hazard-types-error' : undefined}>
          <legend>{HAZARDS_TEXT.types}</legend>
          <label>
            <input type="checkbox" checked={allTypes} onChange={(event) => setAllTypes(event.target.checked)} />
            {HAZARDS_TEXT.allTypes}
          </label>
          {HAZARD_TYPES.map((type) => (
            <label key={type}>
              <input
                type="checkbox"
                disabled={allTypes}
                checked={allTypes || types.includes(type)}
                onChange={() => setTypes((list) => toggle(list, type))}
              />
              {HAZARD_TYPE_LABEL[type]}
            </label>
          ))}
          {errors['types'] && (
            <p id="hazard-types-error" className="field-error" role="alert">
              {errors['types']}
            </p>
          )}
        </fieldset>
        <fieldset className="report-choices">
          <legend>{HAZARDS_TEXT.severities}</legend>
          {HAZARD_SEVERITIES.map((severity) => (
            <label key={severity}>
              <input
                type="checkbox"
                checked={severities.includes(severity)}
                onChange={() => setSeverities((list) => toggle(list, severity))}
              />
              <span className="hazard-swatch" style={{ background: hazardCssColor(severity) }} aria-hidden="true" />
              {HAZARD_SEVERITY_LABEL[severity]}
            </label>
          ))}
        </fieldset>
        <div className="report-range">
          <MinuteField label={HAZARDS_TEXT.start} value={start} onChange={setStart} error={errors['startTime']} />
          <MinuteField label={HAZARDS_TEXT.end} value={end} onChange={setEnd} error={errors['endTime']} />
        </div>
        <button type="submit" className="button button-primary">
          {HAZARDS_TEXT.submit}
        </button>
      </form>
      {query === null ? null : answer.isPending ? (
        <p className="report-note" role="status">
          {HAZARDS_TEXT.loading}
        </p>
      ) : answer.error ? (
        <p className="form-alert form-alert-error" role="alert">
          {userErrorOf(answer.error, 'reports').text}
        </p>
      ) : answer.data ? (
        <>
          {answer.data.counts.length === 0 ? <p className="report-note">{HAZARDS_TEXT.none}</p> : <HazardCounts report={answer.data} />}
          <HazardsOverlay hazards={answer.data.hazards} timeZone={timeZone} />
        </>
      ) : null}
    </section>
  );
}
