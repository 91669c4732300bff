/**
 * Monthly Reports (part 2 §2 "a tree by year and month, newest first, each with a download link";
 * §3 sorted by year and month descending, then organization name): the reports of the dashboard's
 * organization and its child organizations, each year a disclosure holding its months, each month
 * its organizations' reports with a Download button that asks for a fresh signed link per click.
 */
import { useOutletContext } from 'react-router-dom';
import type { ShellContext } from '../../app/shell/dashboard-layout';
import { useApiQuery } from '../../app/use-api-query';
import { DATA_TEXT, SECTION_TEXT } from '../../domain/labels';
import { reportTree } from '../../domain/monthly-report';
import { DATA_QUERIES, useDataCalls } from './calls';
import { DownloadButton } from './download-button';
import { monthYearLabel } from '../../domain/time';
import './data.css';

export function ReportsPage() {
  const { organizationId } = useOutletContext<ShellContext>();
  const calls = useDataCalls();
  const list = useApiQuery({ key: DATA_QUERIES.reports(organizationId), load: () => calls.monthlyReports(organizationId) });
  const tree = reportTree(list.data ?? []);
  return (
    <section className="data-page" aria-labelledby="reports-title">
      <div className="data-page-head">
        <h1 id="reports-title">{DATA_TEXT.monthlyReports}</h1>
      </div>
      {list.isPending ? (
        <p className="data-muted" role="status">
          {SECTION_TEXT.loading}
        </p>
      ) : list.isError ? (
        <p className="form-alert form-alert-error" role="alert">
          {list.error.userError.text}
        </p>
      ) : tree.length === 0 ? (
        <p className="data-muted">{DATA_TEXT.noReports}</p>
      ) : (
        <ul className="report-tree" aria-label={DATA_TEXT.monthlyReports}>
          {tree.map((year, yearIndex) => (
            <li key={year.year}>
              {/* The newest year starts open. */}
              <details className="report-year" open={yearIndex === 0}>
                <summary>{year.year}</summary>
                <ul>
                  {year.months.map((month) => (
                    <li key={month.month} className="report-month">
                      <h2>{monthYearLabel(year.year, month.month)}</h2>
                      <ul>
                        {month.reports.map((report) => (
                          <li key={report.fileId} className="report-row">
                            <span className="report-org">{report.orgName}</span>
                            <DownloadButton
                              label={`${DATA_TEXT.download} ${report.orgName} ${monthYearLabel(year.year, month.month)}`}
                              link={() => calls.reportLink(report.fileId)}
                            />
                          </li>
                        ))}
                      </ul>
                    </li>
                  ))}
                </ul>
              </details>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
