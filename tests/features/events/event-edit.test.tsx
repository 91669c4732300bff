// @vitest-environment jsdom
/** part1 §2, §5, §7, §8: the event location edit — validation, the PUT body, the round trip and the error catalogue. */
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { json, type Handler } from '../../app/support/render-app';
import { FIRE, cleanupEvents, renderEvents } from './event-fixtures';

afterEach(cleanupEvents);

const LOAD = { timeout: 20_000 };
const PUT = 'PUT /locations/loc-fire';

async function openEdit(routes: Record<string, Handler> = {}, permissions?: string[], id = 'loc-fire') {
  const harness = renderEvents(`/dashboard/events/${id}/edit`, { routes, ...(permissions ? { permissions } : {}) });
  await screen.findByRole('heading', { level: 1, name: 'Edit Location' }, LOAD);
  return harness;
}

// part 1 §5: all three are required, and their labels say so (' *').
const field = (label: string) => screen.getByLabelText(`${label} *`) as HTMLInputElement;
const save = () => screen.getByRole('button', { name: 'Save' }) as HTMLButtonElement;

function type(label: string, value: string) {
  fireEvent.change(field(label), { target: { value } });
  fireEvent.blur(field(label));
}

describe('part1 §5 event location edit', () => {
  it('starts from the event, Save disabled until a value changes', async () => {
    await openEdit();
    expect([field('Latitude').value, field('Longitude').value, field('Roadway Heading').value]).toEqual(['30.2672', '-97.7431', '90']);
    expect(save().disabled).toBe(true);
    type('Roadway Heading', '180');
    await waitFor(() => expect(save().disabled).toBe(false));
  });

  it("leaving with a change not saved asks 'Leave without saving?': Stay keeps the edit, Leave goes; an unchanged form leaves at once", async () => {
    const { router } = await openEdit();
    type('Latitude', '30.3');
    await waitFor(() => expect(save().disabled).toBe(false));
    fireEvent.click(screen.getByRole('button', { name: 'Back' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Leave without saving?' });
    expect(dialog.textContent).toContain('Your changes on this page have not been saved and will be lost.');
    fireEvent.click(screen.getByRole('button', { name: 'Stay' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    expect(router.state.location.pathname).toBe('/dashboard/events/loc-fire/edit');
    expect(field('Latitude').value).toBe('30.3');
    fireEvent.click(screen.getByRole('button', { name: 'Back' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Leave' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard/events/loc-fire'));
    // Unchanged: no question.
    await router.navigate('/dashboard/events/loc-fire/edit');
    await screen.findByRole('heading', { level: 1, name: 'Edit Location' }, LOAD);
    fireEvent.click(screen.getByRole('button', { name: 'Back' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard/events/loc-fire'));
    expect(screen.queryByRole('alertdialog')).toBeNull();
  });

  it.each([
    ['Latitude', '90.5', 'Must be between -90 and 90'],
    ['Latitude', '-91', 'Must be between -90 and 90'],
    ['Latitude', '', 'Required'],
    ['Longitude', '180.01', 'Must be between -180 and 180'],
    ['Longitude', '-181', 'Must be between -180 and 180'],
    ['Roadway Heading', '361', 'Must be between 0 and 360'],
    ['Roadway Heading', '-1', 'Must be between 0 and 360'],
    ['Roadway Heading', '', 'Required'],
  ])('%s %j: %s', async (label, value, message) => {
    const { calls } = await openEdit();
    type(label, value);
    await waitFor(() => expect(screen.getByRole('alert').textContent).toBe(message));
    expect(field(label).getAttribute('aria-invalid')).toBe('true');
    fireEvent.click(save());
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(calls.some((call) => call.method === 'PUT')).toBe(false);
  });

  it('a missing heading starts blank and is required', async () => {
    renderEvents('/dashboard/events/loc-collision/edit');
    await screen.findByRole('heading', { level: 1, name: 'Edit Location' }, LOAD);
    expect(field('Roadway Heading').value).toBe('');
    type('Latitude', '30.3');
    fireEvent.click(save());
    await waitFor(() => expect(screen.getByRole('alert').textContent).toBe('Required'));
  });

  it('round trip: PUT /locations/{id} with lat, lng, roadway_heading and organization_id, then the detail shows the new place', async () => {
    let body: unknown = null;
    const harness = await openEdit({
      [PUT]: (sent) => {
        body = sent;
        const next = sent as { lat: number; lng: number; roadway_heading: number };
        const updated = { ...FIRE, lat: next.lat, lng: next.lng, roadway_heading: next.roadway_heading };
        harness.api.setLocation(updated); // what the server now answers to the worker's incremental fetch
        return json(200, updated);
      },
    });
    type('Latitude', '30.28');
    type('Longitude', '-97.75');
    type('Roadway Heading', '270');
    await waitFor(() => expect(save().disabled).toBe(false));
    fireEvent.click(save());
    await waitFor(() => expect(harness.router.state.location.pathname).toBe('/dashboard/events/loc-fire'), LOAD);
    expect(body).toEqual({ lat: 30.28, lng: -97.75, roadway_heading: 270, organization_id: 'org-1' });
    await waitFor(() => expect(screen.getByTestId('event-coordinates').textContent).toBe('30.28, -97.75'), LOAD);
    expect(screen.getByRole('img', { name: 'Roadway heading 270°' })).toBeTruthy();
    // part1 §4: the cache refreshes incrementally by last update time (the first fetch covered 7 days).
    const fetches = harness.api.callsTo('/locations');
    expect(fetches[0]!.searchParams.get('start_date')).not.toBeNull();
    const refresh = fetches.at(-1)!;
    expect(fetches.length).toBeGreaterThan(1);
    expect(refresh.searchParams.get('last_updated_timestamp')).not.toBeNull();
    expect(refresh.searchParams.get('start_date')).toBeNull();
  });

  it.each([
    [422, { error: 'inactive', message: 'Location is no longer active' }, 'Location no longer active'],
    [422, { error: 'no_access', message: 'User does not have access to Location' }, 'User does not have access to Location'],
    [422, { error: 'not_found', message: 'Location not found' }, 'Location not found'],
    [404, { error: 'not_found', message: 'Not found' }, 'Location not found'],
    [422, { error: 'geo_marker', message: "A geo marker's position cannot be edited" }, 'Unable to update Location'],
    [500, { error: 'server_error', message: 'boom' }, 'Unable to update Location'],
  ])('part1 §8 location update %i %j: %s under the form', async (status, answer, shown) => {
    const { router } = await openEdit({ [PUT]: () => json(status, answer) });
    type('Latitude', '30.3');
    await waitFor(() => expect(save().disabled).toBe(false));
    fireEvent.click(save());
    await waitFor(() => expect(screen.getByRole('alert').textContent).toBe(shown), LOAD);
    expect(router.state.location.pathname).toBe('/dashboard/events/loc-fire/edit');
  });

  it("part1 §8 no answer from the server: 'Connection failed.' under the form", async () => {
    await openEdit({
      [PUT]: () => {
        throw new TypeError('Failed to fetch');
      },
    });
    type('Latitude', '30.3');
    await waitFor(() => expect(save().disabled).toBe(false));
    fireEvent.click(save());
    await waitFor(() => expect(screen.getByRole('alert').textContent).toBe('Connection failed.'), LOAD);
  });

  it("without incident update permission the form is not offered: 'Sorry, you are not currently authorized to access this page.'", async () => {
    await openEdit({}, ['incident:read']);
    expect(screen.queryByLabelText('Latitude')).toBeNull();
    expect(screen.getByText('Sorry, you are not currently authorized to access this page.').getAttribute('role')).toBe('status');
  });

  it.each([
    ['an ended event', 'loc-medical'],
    ['a geo marker', 'loc-marker'],
  ])("%s is not edited: 'Only an active event that is not a geo marker can be edited.'", async (_name, id) => {
    await openEdit({}, undefined, id);
    expect(screen.queryByLabelText('Latitude')).toBeNull();
    expect(screen.getByText('Only an active event that is not a geo marker can be edited.').getAttribute('role')).toBe('status');
  });
});
