// @vitest-environment jsdom
/**
 * part 2 §2 R2R on the map: the alerting vehicle where it was at each alert and each receiver
 * where it was at that moment (GET /r2r `other_lat`/`other_lng`, its nearest trip point), joined
 * by a line; the result brings them all into view. The map's overlays and camera are read through
 * spies on `showOnMap` and `fitBounds` (jsdom draws no WebGL).
 */
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { HOUR_MS, MINUTE_MS } from '../../../src/domain/constants';
import { floorToMinute, toMinuteInput } from '../../../src/domain/time';
import { resetShown, shown } from '../../app/support/map-spy';
import { json, renderApp, signedInRoutes, type Handler } from '../../app/support/render-app';

vi.mock('../../../src/app/map/map-state', async (original) => (await import('../../app/support/map-spy')).spyOnMapState(await original()));

afterEach(() => {
  cleanup();
  resetShown();
});

const WAIT = { timeout: 15_000 };
const PATROL = '11111111-1111-4111-8111-111111111111';
const MEDIC = '22222222-2222-4222-8222-222222222222';
const fleet = [
  { id: PATROL, haas_id: 'ha5-000001', nickname: 'Patrol 1', thing_type: 'police' },
  { id: MEDIC, haas_id: 'ha5-000002', nickname: 'Medic 2', thing_type: 'ambulance' },
];
const fleetPage: Handler = () =>
  json(200, { data: fleet, meta: { page: 1, per_page: 500, total: 2, server_timestamp: new Date().toISOString(), deleted_ids: [] } });

type Layer = { id: string; props: { data: { id: string; position: [number, number]; from?: [number, number] | null }[] } };
const layers = (height: 'under' | 'over') => (shown.sections['r2r']?.[height] ?? []) as unknown as Layer[];
const layer = (height: 'under' | 'over', id: string) => layers(height).find((l) => l.id === id);

describe('part2 §2 R2R: the alerting vehicle and its receivers on the map at the alert time', () => {
  it('draws both where they were, joins them, and fits the map to them', async () => {
    const start = floorToMinute(Date.now()) - HOUR_MS;
    const alert = (id: string, minutes: number, lat: number | null, other: { lat: number; lng: number } | null) => ({
      id,
      alert_time: new Date(start + minutes * MINUTE_MS).toISOString(),
      other_thing_id: MEDIC,
      other_thing_name: 'Medic 2',
      distance_m: 120,
      lat,
      lng: lat === null ? null : -97.7,
      is_test: false,
      delivered: true,
      ...(other ? { other_lat: other.lat, other_lng: other.lng } : {}),
    });
    renderApp(
      '/dashboard/r2r',
      {
        ...signedInRoutes(['engineer:test']),
        'GET /organization/things': fleetPage,
        'GET /r2r': () =>
          json(200, {
            thing_id: PATROL,
            thing_name: 'Patrol 1',
            start_time: new Date(start).toISOString(),
            end_time: new Date(start + 15 * MINUTE_MS).toISOString(),
            alerts: [
              alert('a1', 2, 30.2, { lat: 30.21, lng: -97.71 }),
              // A receiver known where the alerting vehicle's position is not: a dot, no line.
              alert('a2', 5, null, { lat: 30.3, lng: -97.6 }),
              // An older server's answer (no other_lat/other_lng): the alerting vehicle only.
              alert('a3', 9, 30.1, null),
            ],
          }),
      },
      { signedIn: true },
    );
    await screen.findByRole('checkbox', { name: 'Patrol 1' }, WAIT);
    fireEvent.click(screen.getByRole('checkbox', { name: 'Patrol 1' }));
    const text = toMinuteInput(start);
    fireEvent.change(screen.getByLabelText('Run date'), { target: { value: text.slice(0, 10) } });
    fireEvent.change(screen.getByLabelText('Alert time'), { target: { value: text.slice(11) } });
    fireEvent.click(screen.getByRole('button', { name: 'Get R2R' }));
    const result = await screen.findByRole('region', { name: 'Patrol 1' }, WAIT);

    await waitFor(() => expect(layer('over', 'r2r-receivers')).toBeTruthy());
    expect(layer('over', 'r2r-alerts')!.props.data.map((m) => [m.id, m.position])).toEqual([
      ['a1', [-97.7, 30.2]],
      ['a3', [-97.7, 30.1]],
    ]);
    expect(layer('over', 'r2r-receivers')!.props.data.map((m) => [m.id, m.position])).toEqual([
      ['a1', [-97.71, 30.21]],
      ['a2', [-97.6, 30.3]],
    ]);
    expect(layer('under', 'r2r-links')!.props.data.map((m) => [m.id, m.from, m.position])).toEqual([
      ['a1', [-97.7, 30.2], [-97.71, 30.21]],
    ]);
    // Fitted once to all of them: west, south, east, north.
    await waitFor(() => expect(shown.fits).toHaveLength(1));
    expect(shown.fits[0]).toEqual([-97.71, 30.1, -97.6, 30.3]);
    expect(within(result).getByLabelText('On the map').textContent).toContain('Receiver');

    fireEvent.click(within(result).getByRole('button', { name: 'Show on the map' }));
    expect(shown.fits).toHaveLength(2);
  });
});
