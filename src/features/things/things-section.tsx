/**
 * The Live section (part 1 §2 "Asset list", "Asset detail"): /dashboard/things (the list),
 * /dashboard/things/{thingId} (detail) and /dashboard/things/{thingId}/edit (tabs profile and
 * associations), drawn in the shell's drawer beside the map.
 */
import { Route, Routes } from 'react-router-dom';
import { ThingDetail } from './thing-detail';
import { ThingEdit } from './thing-edit';
import { ThingsList } from './things-list';

export function ThingsSection() {
  return (
    <Routes>
      <Route index element={<ThingsList />} />
      <Route path=":thingId" element={<ThingDetail />} />
      <Route path=":thingId/edit" element={<ThingEdit />} />
    </Routes>
  );
}
