// @vitest-environment jsdom
/** part1 §2 event detail: the facts, vehicles with time-to-scene, the heading dial, copy, and the 'Edit Location' rule. */
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanupEvents, eventWire, renderEvents } from './event-fixtures';

afterEach(cleanupEvents);

const LOAD = { timeout: 20_000 };
const text = (element: Element) => element.textContent ?? '';

/** The detail's facts as term → text. */
function facts(root: Element): Record<string, string> {
  const out: Record<string, string> = {};
  for (const row of root.querySelectorAll(':scope > div')) {
    const term = row.querySelector('dt')?.textContent ?? '';
    out[term] = row.querySelector('dd')?.textContent ?? '';
  }
  return out;
}

async function openDetail(id: string, options: Parameters<typeof renderEvents>[1] = {}) {
  const harness = renderEvents(`/dashboard/events/${id}`, options);
  const heading = await screen.findByRole('heading', { level: 1, name: /./ }, LOAD);
  await waitFor(() => expect(document.querySelector('.event-detail[data-event-id]')).not.toBeNull(), LOAD);
  return { ...harness, heading };
}

function vehicle(listTitle: RegExp, name: string): Record<string, string> {
  const section = screen.getByRole('region', { name: listTitle });
  const item = within(section)
    .getAllByRole('listitem')
    .find((li) => li.querySelector('.event-vehicle-name')?.textContent === name);
  expect(item).toBeTruthy();
  return facts(item!.querySelector('dl')!);
}

describe('part1 §2 event detail', () => {
  let writeText: ReturnType<typeof vi.fn>;
  beforeEach(() => {
    writeText = vi.fn(async () => undefined);
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
  });

  it('shows status, name, lat/lon, the heading dial, start and running duration, alert message and system id', async () => {
    await openDetail('loc-fire');
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Structure Fire');
    const header = document.querySelector('.event-detail-header')!;
    expect(within(header as HTMLElement).getByRole('img', { name: 'Active' })).toBeTruthy();
    const shown = facts(document.querySelector('.event-facts')!);
    expect(shown['Lat/Lon']).toMatch(/^30\.2672, -97\.7431 /);
    expect(screen.getByTestId('event-coordinates').textContent).toBe('30.2672, -97.7431');
    expect(shown['Roadway Heading']).toContain('90° E');
    expect(text(document.querySelector('.heading-dial-text')!)).toBe('90° E');
    expect(shown.Start).toBe('11/22/2026 5:30 AM');
    expect(shown.End).toBeUndefined();
    expect(shown.Duration).toMatch(/^30m \d+s$/); // still running: now − start
    expect(shown['Alert Message']).toBe('Avoid the area');
    expect(shown['System ID']).toBe('CAD-1001');
    const dial = screen.getByRole('img', { name: 'Roadway heading 90°' });
    expect(dial.querySelector('[data-testid="heading-dial-arrow"]')!.getAttribute('transform')).toBe('rotate(90 28 28)');
  });

  it('lists active and inactive vehicles with arrived, duration, end and time-to-scene', async () => {
    await openDetail('loc-fire');
    expect(text(screen.getByRole('heading', { name: /Active Vehicles/ }))).toBe('Active Vehicles (1)');
    expect(text(screen.getByRole('heading', { name: /Inactive Vehicles/ }))).toBe('Inactive Vehicles (1)');
    expect(vehicle(/^Active Vehicles/, 'Engine 1')).toEqual({
      Arrived: '11/22/2026 5:40 AM',
      Duration: '20m 0s',
      'Time to Scene': '10m 0s',
    });
    expect(vehicle(/^Inactive Vehicles/, 'Medic 2')).toEqual({
      Arrived: '11/22/2026 5:35 AM',
      Duration: '15m 0s',
      End: '11/22/2026 5:50 AM',
      'Time to Scene': '5m 0s',
    });
  });

  it('an ended event shows its end and a fixed duration; a heading of 0 still draws the dial', async () => {
    await openDetail('loc-medical');
    const header = document.querySelector('.event-detail-header')!;
    expect(within(header as HTMLElement).getByRole('img', { name: 'Inactive' })).toBeTruthy();
    const shown = facts(document.querySelector('.event-facts')!);
    expect(shown.Start).toBe('11/22/2026 3:00 AM');
    expect(shown.End).toBe('11/22/2026 4:00 AM');
    expect(shown.Duration).toBe('1h 0m');
    expect(screen.getByRole('img', { name: 'Roadway heading 0°' })).toBeTruthy();
    expect(text(screen.getByRole('heading', { name: /^Active Vehicles/ }))).toBe('Active Vehicles (0)');
  });

  it('no heading dial when the roadway heading is not a number', async () => {
    await openDetail('loc-collision');
    expect(screen.queryByTestId('heading-dial')).toBeNull();
    expect(facts(document.querySelector('.event-facts')!)['Roadway Heading']).toBeUndefined();
  });

  it('part1 §9 lat/lon is truncated to 7 decimals (5 only in the map menu), never rounded', async () => {
    await openDetail('loc-precise', {
      events: [eventWire('loc-precise', { display_name: 'Precise', lat: 30.26721239, lng: -97.74319876 })],
    });
    expect(screen.getByTestId('event-coordinates').textContent).toBe('30.2672123, -97.7431987');
    fireEvent.click(screen.getByRole('button', { name: 'Copy coordinates' }));
    await waitFor(() => expect(writeText).toHaveBeenCalledWith('30.2672123, -97.7431987'));
  });

  it("the copy button copies 'lat, lng' and says 'Copied' for a moment", async () => {
    await openDetail('loc-fire');
    fireEvent.click(screen.getByRole('button', { name: 'Copy coordinates' }));
    await waitFor(() => expect(writeText).toHaveBeenCalledWith('30.2672, -97.7431'));
    await waitFor(() => expect(text(screen.getByRole('button', { name: 'Copy coordinates' }))).toBe('Copied'));
    await waitFor(() => expect(text(screen.getByRole('button', { name: 'Copy coordinates' }))).toBe('Copy'), { timeout: 3_000 });
  });

  it.each([
    ['an active event, incident:update', 'loc-fire', ['incident:read', 'incident:update'], true],
    ['an active event, haas:manage', 'loc-fire', ['haas:manage'], true],
    ['an active event, read only', 'loc-fire', ['incident:read'], false],
    ['an inactive event', 'loc-medical', ['incident:read', 'incident:update'], false],
    ['a geo marker', 'loc-marker', ['incident:read', 'incident:update'], false],
  ])("'Edit Location' for %s: %s", async (_name, id, permissions, shown) => {
    await openDetail(id, { permissions });
    const link = screen.queryByRole('link', { name: 'Edit Location' });
    expect(link !== null).toBe(shown);
    if (link) expect(link.getAttribute('href')).toBe(`/dashboard/events/${id}/edit`);
  });

  it('Back returns to the panel; an unknown id says so', async () => {
    const { router } = await openDetail('loc-fire');
    fireEvent.click(screen.getByRole('button', { name: 'Back' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard/events'));
    await router.navigate('/dashboard/events/loc-unknown');
    expect(await screen.findByText('This event is not in the recent events.', {}, LOAD)).toBeTruthy();
  });
});
