/**
 * The areas section (part 2 §2 Areas): /dashboard/areas (the list beside the map), /new,
 * /{areaId} (detail) and /{areaId}/edit. New and edit draw on the map and are not available on a
 * phone (part 2 §2 "Unavailable on mobile: areas new/edit"); the list and the detail are.
 */
import { Route, Routes } from 'react-router-dom';
import { DesktopOnly } from '../../app/section/desktop-only';
import { AreaDetail } from './area-detail';
import { AreaEdit, AreaNew } from './area-edit';
import { AreasList } from './areas-list';

export function AreasSection() {
  return (
    <Routes>
      <Route index element={<AreasList />} />
      <Route
        path="new"
        element={
          <DesktopOnly>
            <AreaNew />
          </DesktopOnly>
        }
      />
      <Route path=":areaId" element={<AreaDetail />} />
      <Route
        path=":areaId/edit"
        element={
          <DesktopOnly>
            <AreaEdit />
          </DesktopOnly>
        }
      />
    </Routes>
  );
}
