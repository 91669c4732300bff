// @vitest-environment jsdom
/**
 * Incident notes and acknowledgement (docs/decisions/spec.md "Incident notes and acknowledgement"):
 * the detail's notes (newest first, author and time in the organization's zone), adding one, the
 * server's refusal text, a live message bringing another user's note, 'Acknowledge' and the
 * acknowledged line, and the events list's 'Not acknowledged' mark.
 */
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { LocationNoteWire } from '../../../src/domain/location-notes';
import { json, type Handler } from '../../app/support/render-app';
import { iso } from '../../support/live-fixtures';
import { COLLISION, FIRE, MEDICAL, NOW, cleanupEvents, eventWire, renderEvents } from './event-fixtures';

afterEach(cleanupEvents);

const LOAD = { timeout: 20_000 };
const MINUTE = 60_000;
const NOTES = '/locations/loc-fire/notes';
const PAT = { id: 'user-pat', name: 'Pat Doe' };
const SAM = { id: 'user-sam', name: 'Sam Roe' };

function note(id: string, text: string, at: number, author = PAT): LocationNoteWire {
  return { id, location_id: 'loc-fire', text, created_at: iso(at), author };
}

/** GET answers `notes` (newest first, as the server does); POST appends one by Pat at NOW. */
function notesRoutes(notes: LocationNoteWire[], posted: unknown[] = []): Record<string, Handler> {
  return {
    [`GET ${NOTES}`]: () => json(200, { data: [...notes].reverse() }),
    [`POST ${NOTES}`]: (body) => {
      posted.push(body);
      const added = note(`n${notes.length + 1}`, (body as { text: string }).text.trim(), NOW);
      notes.push(added);
      return json(201, added);
    },
  };
}

async function openDetail(id: string, options: Parameters<typeof renderEvents>[1] = {}) {
  const harness = renderEvents(`/dashboard/events/${id}`, options);
  await screen.findByRole('heading', { level: 1, name: /./ }, LOAD);
  await waitFor(() => expect(document.querySelector('.event-detail[data-event-id]')).not.toBeNull(), LOAD);
  return harness;
}

/** The notes as 'author | time | text', in the order shown. */
function shownNotes(): string[] {
  const region = screen.getByRole('region', { name: 'Notes' });
  return [...region.querySelectorAll('.event-note')].map(
    (item) =>
      `${item.querySelector('.event-note-author')?.textContent} | ${item.querySelector('time')?.textContent} | ${item.querySelector('.event-note-text')?.textContent}`,
  );
}

const noteBox = () => screen.getByRole('textbox', { name: 'New note' }) as HTMLTextAreaElement;
const addButton = () => screen.getByRole('button', { name: 'Add note' }) as HTMLButtonElement;

describe('incident notes on the event detail', () => {
  it('lists the notes newest first with author and time in the organization zone', async () => {
    const notes = [note('n1', 'Lane 2 blocked', NOW - 20 * MINUTE, SAM), note('n2', 'Tow on the way', NOW - 5 * MINUTE)];
    await openDetail('loc-fire', { routes: notesRoutes(notes), events: [{ ...FIRE, notes_count: 2 }] });
    await waitFor(() => expect(shownNotes()).toHaveLength(2), LOAD);
    expect(shownNotes()).toEqual(['Pat Doe | 11/22/2026 5:55 AM | Tow on the way', 'Sam Roe | 11/22/2026 5:40 AM | Lane 2 blocked']);
  });

  it("'Add note' posts the text, counts it against 1000 and shows the new note", async () => {
    const posted: unknown[] = [];
    await openDetail('loc-fire', { routes: notesRoutes([], posted) });
    expect(await screen.findByText('No notes yet', {}, LOAD)).toBeTruthy();
    fireEvent.change(noteBox(), { target: { value: 'Road reopened' } });
    expect(screen.getByText('13/1000')).toBeTruthy();
    await waitFor(() => expect(addButton().disabled).toBe(false));
    fireEvent.click(addButton());
    await waitFor(() => expect(shownNotes()).toEqual(['Pat Doe | 11/22/2026 6:00 AM | Road reopened']), LOAD);
    expect(posted).toEqual([{ text: 'Road reopened' }]);
    await waitFor(() => expect(noteBox().value).toBe(''));
  });

  it("a refused note shows the server's text", async () => {
    await openDetail('loc-fire', {
      routes: {
        [`GET ${NOTES}`]: () => json(200, { data: [] }),
        [`POST ${NOTES}`]: () => json(422, { error: 'invalid', message: 'text: Must be 1000 or fewer characters' }),
      },
    });
    fireEvent.change(noteBox(), { target: { value: 'Hello' } });
    await waitFor(() => expect(addButton().disabled).toBe(false));
    fireEvent.click(addButton());
    const region = screen.getByRole('region', { name: 'Notes' });
    await waitFor(() => expect(within(region).getByRole('alert').textContent).toBe('text: Must be 1000 or fewer characters'), LOAD);
  });

  it("another user's note arrives with the incident's live 'location' message", async () => {
    const notes: LocationNoteWire[] = [];
    const { live } = await openDetail('loc-fire', { routes: notesRoutes(notes) });
    expect(await screen.findByText('No notes yet', {}, LOAD)).toBeTruthy();
    await waitFor(() => expect(live!.cable.subscribed).toBe(true), LOAD);
    notes.push(note('n1', 'Second unit staged', NOW, SAM));
    live!.cable.send({
      type: 'location',
      thing_id: '',
      location_id: 'loc-fire',
      timestamp: iso(NOW),
      location: { ...FIRE, notes_count: 1 },
    });
    await waitFor(() => expect(shownNotes()).toEqual(['Sam Roe | 11/22/2026 6:00 AM | Second unit staged']), LOAD);
  });
});

describe('incident acknowledgement', () => {
  it("'Acknowledge' posts and the detail then says who and when", async () => {
    let calls = 0;
    const harness = await openDetail('loc-fire', {
      routes: {
        [`GET ${NOTES}`]: () => json(200, { data: [] }),
        'POST /locations/loc-fire/acknowledge': () => {
          calls += 1;
          const answer = { location_id: 'loc-fire', acknowledged_at: iso(NOW), acknowledged_by: PAT };
          harness.api.setLocation({ ...FIRE, acknowledged_at: iso(NOW), acknowledged_by: PAT });
          return json(200, answer);
        },
      },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Acknowledge' }));
    await waitFor(
      () => expect(screen.getByTestId('event-acknowledged').textContent).toBe('Acknowledged by Pat Doe at 11/22/2026 6:00 AM'),
      LOAD,
    );
    expect(screen.queryByRole('button', { name: 'Acknowledge' })).toBeNull();
    expect(calls).toBe(1);
  });

  it('an acknowledged incident shows the line to everyone; without incident:update no button, the mark instead', async () => {
    await openDetail('loc-fire', {
      permissions: ['incident:read'],
      events: [{ ...FIRE, acknowledged_at: iso(NOW - 10 * MINUTE), acknowledged_by: SAM }, COLLISION],
    });
    expect(screen.getByTestId('event-acknowledged').textContent).toBe('Acknowledged by Sam Roe at 11/22/2026 5:50 AM');
    cleanupEvents();
    await openDetail('loc-collision', { permissions: ['incident:read'], events: [COLLISION] });
    expect(screen.queryByRole('button', { name: 'Acknowledge' })).toBeNull();
    expect(screen.getByText('Not acknowledged')).toBeTruthy();
  });

  it("the events list marks an active incident nobody acknowledged with 'Not acknowledged'", async () => {
    const ACKED = eventWire('loc-acked', { display_name: 'Acknowledged Call', acknowledged_at: iso(NOW - MINUTE), acknowledged_by: PAT });
    renderEvents('/dashboard/events', { events: [FIRE, ACKED, MEDICAL] });
    const list = await screen.findByRole('list', { name: 'Events' }, LOAD);
    await waitFor(() => expect(within(list).queryAllByRole('listitem')).toHaveLength(3), LOAD);
    const row = (name: string) => within(list).getByRole('button', { name: new RegExp(name) });
    expect(within(row('Structure Fire')).getByText('Not acknowledged')).toBeTruthy();
    expect(within(row('Acknowledged Call')).queryByText('Not acknowledged')).toBeNull();
    // An ended incident is not marked.
    expect(within(row('Medical Call')).queryByText('Not acknowledged')).toBeNull();
  });
});
