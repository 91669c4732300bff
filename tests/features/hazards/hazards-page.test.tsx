// @vitest-environment jsdom
/**
 * part 2 §2 Hazards (types and severities low, medium, high), §5 Hazard report ('Must select at
 * least 1 type'), §9 24 h range: what the page sends and shows, over fetch handlers.
 */
import { cleanup, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { HOUR_MS } from '../../../src/domain/constants';
import { floorToMinute, toMinuteInput } from '../../../src/domain/time';
import { json, renderApp, signedInRoutes, type Handler } from '../../app/support/render-app';

afterEach(() => cleanup());

const WAIT = { timeout: 15_000 };
const report = {
  start_time: new Date(Date.now() - HOUR_MS).toISOString(),
  end_time: new Date().toISOString(),
  hazards: [],
  counts: [
    { hazard_type: 'crash', low: 1, medium: 0, high: 2, total: 3 },
    { hazard_type: 'ice', low: 0, medium: 4, high: 0, total: 4 },
  ],
};

function renderHazards(handler: Handler = () => json(200, report)) {
  return renderApp('/dashboard/hazards', { ...signedInRoutes(['hazard:read']), 'GET /organization/hazards': handler }, { signedIn: true });
}
const submit = () => fireEvent.click(screen.getByRole('button', { name: 'Show hazards' }));

describe('part2 §5 hazard report form', () => {
  it("no type and not all types: 'Must select at least 1 type', nothing asked", async () => {
    const harness = renderHazards();
    fireEvent.click(await screen.findByRole('checkbox', { name: 'All types' }, WAIT));
    submit();
    expect(await screen.findByText('Must select at least 1 type')).toBeTruthy();
    expect(harness.calls.some((call) => call.path === '/organization/hazards')).toBe(false);
  });

  it.each([
    ['a start in the future', HOUR_MS, 2 * HOUR_MS, 'Must be past date'],
    ['a range over 24 hours', -25 * HOUR_MS, 0, 'Select up to 24 hours'],
    ['an end before the start', -HOUR_MS, -2 * HOUR_MS, 'End time must be after Start time'],
  ])('%s', async (_, startOffset, endOffset, text) => {
    renderHazards();
    await screen.findByRole('checkbox', { name: 'All types' }, WAIT);
    const now = floorToMinute(Date.now());
    fireEvent.change(screen.getByLabelText('Start time'), { target: { value: toMinuteInput(now + startOffset) } });
    fireEvent.change(screen.getByLabelText('End time'), { target: { value: toMinuteInput(now + endOffset) } });
    submit();
    expect((await screen.findAllByText(text)).length).toBeGreaterThan(0);
  });

  it('sends the chosen types and severities and shows the counts by type and severity', async () => {
    let asked: URL | null = null;
    renderHazards((_, url) => {
      asked = url;
      return json(200, report);
    });
    fireEvent.click(await screen.findByRole('checkbox', { name: 'All types' }, WAIT));
    fireEvent.click(screen.getByRole('checkbox', { name: 'Crash' }));
    fireEvent.click(screen.getByRole('checkbox', { name: 'Ice' }));
    fireEvent.click(screen.getByRole('checkbox', { name: 'Low' }));
    submit();
    const table = await screen.findByRole('table', { name: 'Hazard report' }, WAIT);
    const params = (asked as URL | null)!.searchParams;
    expect(params.getAll('types[]')).toEqual(['crash', 'ice']);
    expect(params.getAll('severities[]')).toEqual(['medium', 'high']);
    expect(params.get('all_types')).toBeNull();
    const rows = within(table)
      .getAllByRole('row')
      .map((row) => row.textContent);
    expect(rows).toEqual(['TypeLowMediumHighTotal', 'Crash1023', 'Ice0404', 'Total1427']);
  });

  it('the same report asked again is asked of the server again: hazards reported since show', async () => {
    let asks = 0;
    renderHazards(() => {
      asks += 1;
      const crash = { hazard_type: 'crash', low: asks, medium: 0, high: 0, total: asks };
      return json(200, { ...report, counts: [crash] });
    });
    await screen.findByRole('checkbox', { name: 'All types' }, WAIT);
    submit();
    const table = await screen.findByRole('table', { name: 'Hazard report' }, WAIT);
    expect(within(table).getAllByRole('row')[1]!.textContent).toBe('Crash1001');
    submit();
    await expect.poll(() => within(table).getAllByRole('row')[1]!.textContent, WAIT).toBe('Crash2002');
    expect(asks).toBe(2);
  });

  it('a failure shows the catalogue text', async () => {
    renderHazards(() => json(422, { error: 'invalid', message: 'types[]: Must select at least 1 type' }));
    await screen.findByRole('checkbox', { name: 'All types' }, WAIT);
    submit();
    expect(await screen.findByText('types[]: Must select at least 1 type', undefined, WAIT)).toBeTruthy();
  });
});
