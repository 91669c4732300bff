// @vitest-environment jsdom
/**
 * part 2 §2 R2R ("Search by asset run date, alert time and asset, with a 'Get R2R' button"), §5
 * R2R (asset and start time required, the end is start plus 15 minutes, no future dates), §7 the
 * result as R2R data by asset, §8 404 'Asset not found'.
 */
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { HOUR_MS, MINUTE_MS } from '../../../src/domain/constants';
import { formatDateTime } from '../../../src/domain/time';
import { floorToMinute, toMinuteInput } from '../../../src/domain/time';
import { json, renderApp, signedInRoutes, type Handler } from '../../app/support/render-app';

afterEach(() => cleanup());

const WAIT = { timeout: 15_000 };
const PATROL = '11111111-1111-4111-8111-111111111111';
const MEDIC = '22222222-2222-4222-8222-222222222222';
const fleet = [
  { id: PATROL, haas_id: 'ha5-000001', nickname: 'Patrol 1', thing_type: 'police' },
  { id: MEDIC, haas_id: 'ha5-000002', nickname: 'Medic 2', thing_type: 'ambulance' },
];
const fleetPage: Handler = () =>
  json(200, { data: fleet, meta: { page: 1, per_page: 500, total: 2, server_timestamp: new Date().toISOString(), deleted_ids: [] } });

function renderR2R(search: Handler) {
  return renderApp(
    '/dashboard/r2r',
    { ...signedInRoutes(['engineer:test']), 'GET /organization/things': fleetPage, 'GET /r2r': search },
    { signedIn: true },
  );
}
const submit = () => fireEvent.click(screen.getByRole('button', { name: 'Get R2R' }));
function setStart(ms: number) {
  const text = toMinuteInput(ms);
  fireEvent.change(screen.getByLabelText('Run date'), { target: { value: text.slice(0, 10) } });
  fireEvent.change(screen.getByLabelText('Alert time'), { target: { value: text.slice(11) } });
}
function pickPatrol() {
  fireEvent.click(screen.getByRole('checkbox', { name: 'Patrol 1' }));
}

describe('part2 §5 R2R form', () => {
  it("asset, run date and alert time are 'Required'; nothing is asked", async () => {
    const harness = renderR2R(() => json(200, {}));
    await screen.findByRole('checkbox', { name: 'Patrol 1' }, WAIT);
    submit();
    expect(screen.getAllByText('Required')).toHaveLength(3);
    expect(harness.calls.some((call) => call.path === '/r2r')).toBe(false);
  });

  it("a future alert time: 'Must be past date'", async () => {
    renderR2R(() => json(200, {}));
    await screen.findByRole('checkbox', { name: 'Patrol 1' }, WAIT);
    pickPatrol();
    setStart(floorToMinute(Date.now()) + 2 * HOUR_MS);
    submit();
    expect(await screen.findByText('Must be past date')).toBeTruthy();
  });

  it('shows the window (start plus 15 minutes), sends the start, lists the alerts by receiving asset', async () => {
    const start = floorToMinute(Date.now()) - HOUR_MS;
    let asked: URL | null = null;
    const alert = (id: string, minutes: number, other: string | null, name: string | null, delivered: boolean) => ({
      id,
      alert_time: new Date(start + minutes * MINUTE_MS).toISOString(),
      other_thing_id: other,
      other_thing_name: name,
      distance_m: 120.4,
      lat: 30.2,
      lng: -97.7,
      is_test: false,
      delivered,
    });
    renderR2R((_, url) => {
      asked = url;
      return json(200, {
        thing_id: PATROL,
        thing_name: 'Patrol 1',
        start_time: new Date(start).toISOString(),
        end_time: new Date(start + 15 * MINUTE_MS).toISOString(),
        alerts: [alert('a1', 2, MEDIC, 'Medic 2', true), alert('a2', 9, MEDIC, 'Medic 2', false), alert('a3', 11, null, null, true)],
      });
    });
    await screen.findByRole('checkbox', { name: 'Patrol 1' }, WAIT);
    pickPatrol();
    setStart(start);
    expect(screen.getByText(`Window: ${formatDateTime(start)} – ${formatDateTime(start + 15 * MINUTE_MS)}`)).toBeTruthy();
    submit();
    const result = await screen.findByRole('region', { name: 'Patrol 1' }, WAIT);
    expect((asked as URL | null)!.searchParams.get('thing_id')).toBe(PATROL);
    expect((asked as URL | null)!.searchParams.get('start_time')).toBe(new Date(start).toISOString());
    const medic = within(result).getByRole('table', { name: 'Medic 2' });
    expect(
      within(medic)
        .getAllByRole('row')
        .map((row) => row.textContent),
    ).toEqual([
      'Alert timeDistanceDelivered',
      `${formatDateTime(start + 2 * MINUTE_MS)}120 mYes`,
      `${formatDateTime(start + 9 * MINUTE_MS)}120 mNo`,
    ]);
    expect(within(result).getByRole('table', { name: 'Another organization’s asset' })).toBeTruthy();
  });

  it('the same search asked again is answered again: an alert that arrived since shows (not the kept answer)', async () => {
    const start = floorToMinute(Date.now()) - 5 * MINUTE_MS;
    let asked = 0;
    const alert = (id: string, minutes: number) => ({
      id,
      alert_time: new Date(start + minutes * MINUTE_MS).toISOString(),
      other_thing_id: MEDIC,
      other_thing_name: 'Medic 2',
      distance_m: 80,
      lat: 30.2,
      lng: -97.7,
      is_test: false,
      delivered: true,
    });
    renderR2R(() => {
      asked += 1;
      const alerts = asked === 1 ? [alert('a1', 1)] : [alert('a1', 1), alert('a2', 4)];
      return json(200, {
        thing_id: PATROL,
        thing_name: 'Patrol 1',
        start_time: new Date(start).toISOString(),
        end_time: new Date(start + 15 * MINUTE_MS).toISOString(),
        alerts,
      });
    });
    await screen.findByRole('checkbox', { name: 'Patrol 1' }, WAIT);
    pickPatrol();
    setStart(start);
    submit();
    const medic = await screen.findByRole('table', { name: 'Medic 2' }, WAIT);
    expect(within(medic).getAllByRole('row')).toHaveLength(2);
    submit();
    await waitFor(() => expect(within(screen.getByRole('table', { name: 'Medic 2' })).getAllByRole('row')).toHaveLength(3), WAIT);
    expect(asked).toBe(2);
  });

  it("part2 §8: a 404 shows 'Asset not found'", async () => {
    renderR2R(() => json(404, { error: 'not_found', message: 'Asset not found' }));
    await screen.findByRole('checkbox', { name: 'Patrol 1' }, WAIT);
    pickPatrol();
    setStart(floorToMinute(Date.now()) - HOUR_MS);
    submit();
    expect(await screen.findByText('Asset not found', undefined, WAIT)).toBeTruthy();
  });
});
