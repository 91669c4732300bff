/**
 * The Incidents/Events section (part 1 §2 "Events (incidents) panel"): /dashboard/events
 * (the panel), /dashboard/events/{eventId} (detail) and /dashboard/events/{eventId}/edit.
 */
import { Route, Routes } from 'react-router-dom';
import { EventDetail } from './event-detail';
import { EventEdit } from './event-edit';
import { EventsPanel } from './events-panel';

export function EventsSection() {
  return (
    <Routes>
      <Route index element={<EventsPanel />} />
      <Route path=":eventId" element={<EventDetail />} />
      <Route path=":eventId/edit" element={<EventEdit />} />
    </Routes>
  );
}
