// @vitest-environment jsdom
/**
 * part 2 §2 path drawing and §8 Route drawing in the form: the drawn points go to the offline
 * router; its route and street names are kept; when it finds none the straight drawn path is kept
 * with the router's message. jsdom has no WebGL, so the map's drawing (startDrawing) is stood in
 * for: it finishes at once with the line the test gives (e2e/closures.spec.ts draws with the mouse).
 */
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { DrawingRequest } from '../../../src/app/map/map-state';
import type { LatLng } from '../../../src/domain/geometry';
import { json, type Handler } from '../../app/support/render-app';
import { PARADE, cleanupClosures, renderClosures } from './closure-fixtures';

const drawn: { path: LatLng[] } = { path: [] };
vi.mock('../../../src/app/map/map-state', async (original) => {
  const actual = await original<typeof import('../../../src/app/map/map-state')>();
  return {
    ...actual,
    startDrawing: (_state: unknown, request: DrawingRequest) => {
      setTimeout(() => request.onDone({ kind: 'line', path: drawn.path }), 0);
      return () => undefined;
    },
  };
});

afterEach(cleanupClosures);
const LOAD = { timeout: 20_000 };
const A = { lat: 30.25, lng: -97.75 };
const B = { lat: 30.26, lng: -97.74 };
const ROUTED = [A, { lat: 30.25, lng: -97.74 }, B];

function saved(calls: { method: string; body: unknown }[]) {
  return calls
    .filter((c) => c.method === 'POST' && c.body && 'organization_id' in (c.body as object))
    .map((c) => c.body as Record<string, unknown>);
}

async function drawAndFill(routes: Record<string, Handler>) {
  const harness = renderClosures('/dashboard/closures/new', { routes });
  await screen.findByRole('button', { name: 'Save' }, LOAD);
  drawn.path = [A, B];
  fireEvent.click(screen.getByRole('button', { name: 'Draw path on map' }));
  return harness;
}

describe('part 2 §2 closure path: routed along the roads', () => {
  it('keeps the router path and the start and end streets, and saves them with the drawn points', async () => {
    const { calls } = await drawAndFill({
      'POST /closure/route': () => json(200, { path: ROUTED, street_start: 'Lamar Blvd', street_end: 'Riverside Dr', distance_m: 1609 }),
      'POST /organization/closure': () => json(201, PARADE),
    });
    expect(await screen.findByText('Route follows the roads: 1.00 mi', {}, LOAD)).toBeTruthy();
    expect(screen.getByTestId('closure-street-start').textContent).toBe('Lamar Blvd');
    expect(screen.getByTestId('closure-street-end').textContent).toBe('Riverside Dr');
    expect(calls.find((c) => c.path === '/closure/route')!.body).toEqual({ points: [A, B] });
    fireEvent.change(screen.getByLabelText('Description *'), { target: { value: 'Routed' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(saved(calls)).toHaveLength(1));
    expect(saved(calls)[0]).toMatchObject({
      user_route: [A, B],
      calculated_route: ROUTED,
      street_start: 'Lamar Blvd',
      street_end: 'Riverside Dr',
    });
  });

  it("part 2 §8 Route drawing: no route → the router's message, and the straight drawn path is saved", async () => {
    const { calls } = await drawAndFill({
      'POST /closure/route': () => json(422, { error: 'no_route', message: 'No road near the drawn point' }),
      'POST /organization/closure': () => json(201, PARADE),
    });
    expect((await screen.findByTestId('closure-route-error', {}, LOAD)).textContent).toBe('No road near the drawn point');
    expect(screen.getByText('No route along roads: the drawn straight path is used.')).toBeTruthy();
    fireEvent.change(screen.getByLabelText('Description *'), { target: { value: 'Straight' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(saved(calls)).toHaveLength(1));
    expect(saved(calls)[0]).toMatchObject({ user_route: [A, B], calculated_route: [A, B] });
  });

  it("a router failure without a message shows 'Something went wrong'", async () => {
    await drawAndFill({ 'POST /closure/route': () => json(422, {}) });
    expect((await screen.findByTestId('closure-route-error', {}, LOAD)).textContent).toBe('Something went wrong');
  });
});
