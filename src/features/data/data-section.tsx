/**
 * The Data section's pages (part 2 §2 "data … Children: reports, exports (list), exports/new"):
 * the shell mounts ReportsSection at /dashboard/data/reports and ExportsSection at
 * /dashboard/data/exports (each checked against its own permission row of part 2 §6).
 */
import { Navigate, Route, Routes } from 'react-router-dom';
import { DesktopOnly } from '../../app/section/desktop-only';
import { ExportWizard } from './export-wizard';
import { ExportsPage } from './exports-page';
import { ReportsPage } from './reports-page';

export function ReportsSection() {
  return (
    <Routes>
      <Route index element={<ReportsPage />} />
      <Route path="*" element={<Navigate to="." replace />} />
    </Routes>
  );
}

export function ExportsSection() {
  return (
    <Routes>
      <Route
        index
        element={
          <DesktopOnly>
            <ExportsPage />
          </DesktopOnly>
        }
      />
      <Route
        path="new"
        element={
          <DesktopOnly>
            <ExportWizard />
          </DesktopOnly>
        }
      />
    </Routes>
  );
}
