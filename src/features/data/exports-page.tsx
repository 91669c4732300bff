/**
 * Data Exports (part 2 §2 "tabs Completed, In-Progress and Error, with Refresh, Create New,
 * download and delete"; §4 "Export wizard and exports"): the organization's exports in three tabs
 * with their counts. An export in progress shows its rows written as a bar with an estimate of the
 * time left; while any is in progress the list asks the server again every EXPORTS_POLL_MS
 * through the query cache, so a finished export moves to Completed without a refresh. Only the
 * creator deletes (§6); anyone else sees the button disabled with 'Only the export creator can delete.'.
 */
import { useId, useState } from 'react';
import { Link, useOutletContext } from 'react-router-dom';
import type { ShellContext } from '../../app/shell/dashboard-layout';
import { ConfirmDialog } from '../../app/section/confirm-dialog';
import { Tabs, useTabParam } from '../../app/section/tabs';
import { useNow } from '../../app/section/use-now';
import { useSubmit } from '../../app/section/use-submit';
import { useApiQuery } from '../../app/use-api-query';
import { errorText } from '../../domain/errors';
import {
  EXPORT_TABS,
  EXPORT_TYPE_LABELS,
  EXPORTS_POLL_MS,
  exportDeleteTooltip,
  type ExportViewer,
  exportProgress,
  exportsInTab,
  sortExports,
  type DataExport,
  type ExportTab,
} from '../../domain/export';
import { DATA_TEXT, exportEstimateText, exportRowsText, SECTION_TEXT } from '../../domain/labels';
import { RefusedButton } from '../../app/ui/refused-button';
import { areaCrud } from '../../domain/permissions';
import { formatDateTime } from '../../domain/time';
import { DATA_QUERIES, useDataCalls } from './calls';
import { DownloadButton } from './download-button';
import './data.css';

const TAB_KEYS = EXPORT_TABS.map((tab) => tab.key);
/** The estimate's clock: once a second is enough for 'About 12 s left'. */
const ESTIMATE_TICK_MS = 1_000;

export function ExportsPage() {
  const { profile, organizationId } = useOutletContext<ShellContext>();
  const calls = useDataCalls();
  const [tab, setTab] = useTabParam(TAB_KEYS);
  const [previousPoll, setPreviousPoll] = useState(false);
  const list = useApiQuery({
    key: DATA_QUERIES.exports(organizationId),
    load: () => calls.exports(organizationId),
    // part 2 §4: while an export runs, the list follows it (and stops asking once none runs).
    pollMs: previousPoll ? EXPORTS_POLL_MS : undefined,
  });
  const exports = sortExports(list.data ?? []);
  const running = exports.some((e) => e.tab === 'in_progress');
  if (running !== previousPoll) setPreviousPoll(running);
  const canCreate = areaCrud(profile.permissions, 'export').canCreate;
  const count = (key: ExportTab) => exportsInTab(exports, key).length;
  const tabs = EXPORT_TABS.map(({ key, label }) => ({ key, label: `${label} (${count(key)})` }));
  const shown = exportsInTab(exports, tab);

  return (
    <section className="data-page" aria-labelledby="exports-title">
      <div className="data-page-head">
        <h1 id="exports-title">{DATA_TEXT.dataExports}</h1>
        <div className="data-page-actions">
          <button type="button" className="button button-secondary" disabled={list.isFetching} onClick={() => void list.refetch()}>
            {DATA_TEXT.refresh}
          </button>
          {canCreate ? (
            <Link className="button button-primary" to="new">
              {DATA_TEXT.createNew}
            </Link>
          ) : (
            // part 2 §6: a control the user may not use says 'Not authorized' rather than vanishing.
            <RefusedButton className="button button-primary">{DATA_TEXT.createNew}</RefusedButton>
          )}
        </div>
      </div>
      {list.isPending ? (
        <p className="data-muted" role="status">
          {SECTION_TEXT.loading}
        </p>
      ) : list.isError && !list.data ? (
        <p className="form-alert form-alert-error" role="alert">
          {list.error.userError.text}
        </p>
      ) : (
        <Tabs tabs={tabs} selected={tab} onSelect={setTab} label={DATA_TEXT.tabsLabel} idPrefix="exports">
          {tab === 'error' && shown.length > 0 && (
            <div className="form-alert form-alert-error" role="alert">
              <p>{errorText('exports', {}).text}</p>
              <p>{DATA_TEXT.supportPrompt}</p>
            </div>
          )}
          {shown.length === 0 ? (
            <p className="data-muted">{DATA_TEXT.noExports}</p>
          ) : (
            <ul className="export-list">
              {shown.map((exp) => (
                <ExportRow
                  key={exp.id}
                  exp={exp}
                  viewer={{ userId: profile.id, organizationId: profile.organizationId, permissions: profile.permissions }}
                  zone={profile.timezone}
                  organizationId={organizationId}
                />
              ))}
            </ul>
          )}
        </Tabs>
      )}
    </section>
  );
}

function rangeText(exp: DataExport, zone: string | null): string | null {
  if (exp.startTime === null || exp.endTime === null) return null;
  // An export asked in UTC shows its range in UTC, as its file writes it.
  const shown = exp.useUtc ? 'UTC' : zone;
  return `${formatDateTime(exp.startTime, shown)} – ${formatDateTime(exp.endTime, shown)}${exp.useUtc ? ' UTC' : ''}`;
}

function ExportRow({
  exp,
  viewer,
  zone,
  organizationId,
}: {
  exp: DataExport;
  viewer: ExportViewer;
  zone: string | null;
  organizationId: string;
}) {
  const calls = useDataCalls();
  const tooltipId = useId();
  const [confirming, setConfirming] = useState(false);
  const remove = useSubmit({
    context: 'exportDelete',
    invalidates: [DATA_QUERIES.exports(organizationId)],
    onSuccess: () => setConfirming(false),
  });
  const tooltip = exportDeleteTooltip(exp, viewer);
  const range = rangeText(exp, zone);
  return (
    <li className="export-row" data-export-id={exp.id}>
      <div className="export-row-main">
        <p className="export-title">{exp.title}</p>
        <p className="data-muted">
          {EXPORT_TYPE_LABELS[exp.exportType]}
          {range && ` · ${range}`}
        </p>
        <p className="data-muted">
          {DATA_TEXT.columnRequested} {formatDateTime(exp.requestedAt, zone)}
        </p>
        {exp.tab === 'in_progress' && <ExportProgressBar exp={exp} />}
        {exp.tab === 'error' && exp.error && (
          <p className="export-reason">
            {DATA_TEXT.reason}: {exp.error}
          </p>
        )}
      </div>
      <div className="export-row-actions">
        {exp.tab === 'completed' && <DownloadButton label={`${DATA_TEXT.download} ${exp.title}`} link={() => calls.exportLink(exp.id)} />}
        <span className="data-tooltip-host" title={tooltip ?? undefined}>
          <button
            type="button"
            className="button button-secondary"
            aria-label={`${DATA_TEXT.delete} ${exp.title}`}
            aria-disabled={tooltip ? true : undefined}
            aria-describedby={tooltip ? tooltipId : undefined}
            onClick={() => {
              if (tooltip) return;
              remove.reset();
              setConfirming(true);
            }}
          >
            {DATA_TEXT.delete}
          </button>
          {tooltip && (
            <span id={tooltipId} role="tooltip" className="data-tooltip">
              {tooltip}
            </span>
          )}
        </span>
      </div>
      {confirming && (
        <ConfirmDialog
          title={SECTION_TEXT.confirmDeleteTitle(exp.title)}
          body={SECTION_TEXT.confirmDeleteBody}
          confirmLabel={DATA_TEXT.delete}
          pending={remove.pending}
          failure={remove.failure}
          onConfirm={() => void remove.submit(() => calls.deleteExport(exp.id))}
          onCancel={() => setConfirming(false)}
        />
      )}
    </li>
  );
}

/** part 2 §4 progress: rows written of the total as a bar, and the time left at the rate so far. */
function ExportProgressBar({ exp }: { exp: DataExport }) {
  const now = useNow(ESTIMATE_TICK_MS, exp.status === 'in_progress');
  const { fraction, remainingMs } = exportProgress(exp, now);
  if (exp.status === 'requested' || fraction === null) {
    return (
      <p className="export-progress-text" role="status">
        {DATA_TEXT.waiting}
      </p>
    );
  }
  const percent = Math.round(fraction * 100);
  return (
    <div className="export-progress">
      <div
        className="export-progress-bar"
        role="progressbar"
        aria-label={`${DATA_TEXT.columnProgress} ${exp.title}`}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={percent}
        aria-valuetext={exportRowsText(exp.rowsWritten, exp.rowsTotal)}
      >
        <span style={{ width: `${percent}%` }} />
      </div>
      <p className="export-progress-text">
        {exportRowsText(exp.rowsWritten, exp.rowsTotal)}
        {remainingMs !== null && ` · ${exportEstimateText(remainingMs)}`}
      </p>
    </div>
  );
}
