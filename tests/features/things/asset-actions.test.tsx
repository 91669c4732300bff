// @vitest-environment jsdom
/**
 * part 1 §2 "Actions", §5 (R2R and LED rules, tooltips), §7 (PUT /things/{id}/r2r,
 * /light_intensity), §8 (asset action errors; R2R, test mode and LED texts and their 10 s / 4 s
 * clearing). The actions panel with the real API client; fetch answered by the test; fake timers.
 */
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createAppServices, ServicesContext } from '../../../src/app/services';
import { fromThingWire, type ThingWireInput } from '../../../src/domain/asset';
import { HOUR_MS } from '../../../src/domain/constants';
import type { AssetDetails } from '../../../src/domain/live-diff';
import { AssetActions } from '../../../src/features/things/asset-actions';
import { iso, parsedThing } from '../../support/live-fixtures';

const ALL = ['thing:read', 'thing:update', 'thing:invoke_r2r', 'thing:ha5_light_intensity_change'];

/** An R2R-capable standby asset heard from now (ha7, police, R2R enabled, allowed test mode). */
function details(overrides: Partial<ThingWireInput> = {}): AssetDetails {
  const asset = fromThingWire(
    parsedThing(1, {
      device_type: 'ha7',
      thing_type: 'police',
      is_r2r_enabled: true,
      is_allowed_for_test_mode: true,
      heartbeat_datetime: iso(Date.now()),
      ...overrides,
    }),
    Date.now(),
  );
  if (!asset) throw new Error('asset without a position');
  const { searchText: _searchText, ...rest } = asset;
  return rest;
}

type Answer = { status: number; body: unknown } | 'network';

function setup(asset: AssetDetails, permissions: string[] = ALL) {
  const calls: { method: string; path: string; body: unknown }[] = [];
  const answers = new Map<string, Answer[]>();
  const gates: (() => void)[] = [];
  let gated = false;
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(String(input), 'http://lightbar.test');
    const method = init?.method ?? 'GET';
    calls.push({ method, path: url.pathname, body: init?.body ? JSON.parse(String(init.body)) : undefined });
    if (gated) await new Promise<void>((resolve) => gates.push(resolve));
    const answer = answers.get(`${method} ${url.pathname}`)?.shift();
    if (!answer || answer === 'network') throw new TypeError('Failed to fetch');
    return new Response(JSON.stringify(answer.body), { status: answer.status, headers: { 'content-type': 'application/json' } });
  });
  const services = createAppServices({ fetch: fetchMock as unknown as typeof fetch, storage: null, channel: false, createBridge: null });
  render(
    <ServicesContext.Provider value={services}>
      <AssetActions asset={asset} permissions={permissions} />
    </ServicesContext.Provider>,
  );
  return {
    calls,
    answer(key: string, ...list: Answer[]) {
      answers.set(key, list);
    },
    /** Holds answers until `release` (to see the pending text). */
    hold() {
      gated = true;
    },
    async release() {
      gated = false;
      await act(async () => {
        for (const open of gates.splice(0)) open();
        await Promise.resolve();
      });
    },
  };
}

/** Lets the fetch promise chain settle under fake timers. */
async function settle() {
  await act(async () => {
    for (let i = 0; i < 10; i += 1) await Promise.resolve();
  });
}

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval'] });
});

afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

const r2rButton = () => screen.getByRole('button', { name: 'Send R2R Test Alert' }) as HTMLButtonElement;

describe('part1 §5 R2R test rule and its tooltips', () => {
  it.each([
    ['allowed: ha7, police, R2R enabled, standby', {}, ALL, null],
    ['without thing:invoke_r2r', {}, ['thing:read', 'thing:update'], 'Not authorized'],
    ['on an api device', { device_type: 'api' }, ALL, 'R2R testing available only for HA5 and HA7 devices'],
    ['while active (moving)', { enroute: true }, ALL, 'Invalid asset status'],
    ['while pending', { heartbeat_datetime: iso(Date.now() - 9 * HOUR_MS) }, ALL, 'Invalid asset status'],
    ['with R2R not enabled', { is_r2r_enabled: false }, ALL, 'R2R not enabled'],
    ['on a type that is not R2R capable', { thing_type: 'tow' }, ALL, 'R2R not enabled'],
    // part 1 §4: out of service is status 6 (the detail shows Out-of-Service), not standby.
    ['out of service (standby otherwise)', { in_service: false }, ALL, 'Invalid asset status'],
  ] as const)('%s', (_name, overrides, permissions, tooltip) => {
    setup(details(overrides), [...permissions]);
    const button = r2rButton();
    expect(button.disabled).toBe(tooltip !== null);
    if (tooltip === null) {
      expect(screen.queryByRole('tooltip')).toBeNull();
    } else {
      expect(screen.getAllByRole('tooltip').map((t) => t.textContent)).toContain(tooltip);
      const described = document.getElementById(button.getAttribute('aria-describedby') ?? '');
      expect(described?.textContent).toBe(tooltip);
      expect(button.parentElement?.getAttribute('title')).toBe(tooltip);
    }
  });

  it('a stationary asset (still 10 minutes, with a street) may run the test', () => {
    setup(details({ street: 'Congress Ave' }));
    expect(r2rButton().disabled).toBe(false);
  });
});

describe('part1 §8 R2R test alert outcome', () => {
  it("'Sending test' while pending, then 'Alert Delivered', cleared after 10 s", async () => {
    const harness = setup(details());
    harness.answer('PUT /things/thing-00001/r2r', { status: 200, body: { delivered: true } });
    harness.hold();
    fireEvent.click(r2rButton());
    await settle();
    expect(screen.getByText('Sending test')).toBeTruthy();
    expect(r2rButton().disabled).toBe(true);
    await harness.release();
    await settle();
    expect(screen.getByText('Alert Delivered')).toBeTruthy();
    expect(harness.calls).toEqual([{ method: 'PUT', path: '/things/thing-00001/r2r', body: { action: 'test' } }]);
    act(() => vi.advanceTimersByTime(9_999));
    expect(screen.getByText('Alert Delivered')).toBeTruthy();
    act(() => vi.advanceTimersByTime(1));
    expect(screen.queryByText('Alert Delivered')).toBeNull();
  });

  it("an answer 'not delivered' shows 'Alert Not Delivered', cleared after 10 s", async () => {
    const harness = setup(details());
    harness.answer('PUT /things/thing-00001/r2r', { status: 200, body: { delivered: false } });
    fireEvent.click(r2rButton());
    await settle();
    expect(screen.getByText('Alert Not Delivered')).toBeTruthy();
    act(() => vi.advanceTimersByTime(10_000));
    expect(screen.queryByText('Alert Not Delivered')).toBeNull();
  });

  it.each([
    ['no answer (status 0)', 'network' as const, 'Connection failed'],
    ['404', { status: 404, body: { error: 'not_found', message: 'Asset not found' } }, 'Asset not found'],
    ['422 containing Timed', { status: 422, body: { error: 'timeout', message: 'Timed out waiting for the device' } }, 'Request timed out'],
    [
      'other 422',
      { status: 422, body: { error: 'r2r_not_allowed', message: 'R2R test not allowed: Invalid asset status' } },
      'Something went wrong',
    ],
    ['500', { status: 500, body: { error: 'server' } }, 'Unknown failure'],
  ])("a failed call (%s) shows 'Alert Not Delivered' and the asset-action reason", async (_name, answer, reason) => {
    const harness = setup(details());
    harness.answer('PUT /things/thing-00001/r2r', answer);
    fireEvent.click(r2rButton());
    await settle();
    const status = screen.getByText('Alert Not Delivered').closest('p');
    expect(status?.textContent).toBe(`Alert Not Delivered${reason}`);
    act(() => vi.advanceTimersByTime(10_000));
    expect(screen.queryByText('Alert Not Delivered')).toBeNull();
  });
});

describe('part1 §8 test mode', () => {
  const toggle = () => screen.getByRole('switch', { name: 'Test Mode' }) as HTMLInputElement;

  it('shows only for assets allowed test mode', () => {
    setup(details({ is_allowed_for_test_mode: false }));
    expect(screen.queryByRole('switch', { name: 'Test Mode' })).toBeNull();
  });

  it("turning it on sends {test_mode: true}: 'Updating Test Mode', then the reminder to activate the lights", async () => {
    const harness = setup(details());
    harness.answer('PUT /things/thing-00001/r2r', { status: 200, body: { id: 'thing-00001', is_test_mode_on: true } });
    harness.hold();
    expect(toggle().checked).toBe(false);
    fireEvent.click(toggle());
    await settle();
    expect(screen.getByText('Updating Test Mode')).toBeTruthy();
    await harness.release();
    await settle();
    expect(harness.calls.at(-1)).toEqual({ method: 'PUT', path: '/things/thing-00001/r2r', body: { test_mode: true } });
    expect(screen.getByText('Please activate emergency lights to send a test alert to your R2R indicator')).toBeTruthy();
    expect(toggle().checked).toBe(true);
  });

  it('turning it off sends {test_mode: false} and shows no reminder', async () => {
    const harness = setup(details({ is_test_mode_on: true }));
    harness.answer('PUT /things/thing-00001/r2r', { status: 200, body: { id: 'thing-00001', is_test_mode_on: false } });
    expect(toggle().checked).toBe(true);
    fireEvent.click(toggle());
    await settle();
    expect(harness.calls.at(-1)?.body).toEqual({ test_mode: false });
    expect(toggle().checked).toBe(false);
    expect(screen.queryByText(/Please activate emergency lights/)).toBeNull();
  });

  it.each([
    [false, 'Unable to activate Test Mode'],
    [true, 'Unable to deactivate Test Mode'],
  ])('a failure while on=%s shows %s with the reason', async (on, text) => {
    const harness = setup(details({ is_test_mode_on: on }));
    harness.answer('PUT /things/thing-00001/r2r', { status: 404, body: { error: 'not_found', message: 'Asset not found' } });
    fireEvent.click(toggle());
    await settle();
    expect(screen.getByText(text).closest('p')?.textContent).toBe(`${text}Asset not found`);
    expect(toggle().checked).toBe(on);
  });

  it("without thing:invoke_r2r the switch is disabled with 'Not authorized'", () => {
    setup(details(), ['thing:read', 'thing:ha5_light_intensity_change']);
    expect(toggle().disabled).toBe(true);
    expect(screen.getAllByRole('tooltip').map((t) => t.textContent)).toContain('Not authorized');
  });
});

describe('part1 §5 LED intensity rule, §8 outcome', () => {
  const select = () => screen.getByRole('combobox', { name: 'LED Intensity' }) as HTMLSelectElement;
  const send = () => screen.getByRole('button', { name: 'Send' }) as HTMLButtonElement;

  it('needs a chosen value: Send is disabled (no tooltip) until one is chosen', () => {
    setup(details());
    expect([...select().options].map((o) => o.value)).toEqual(['', '25', '50', '75', '100']);
    expect(send().disabled).toBe(true);
    expect(screen.queryByRole('tooltip')).toBeNull();
    fireEvent.change(select(), { target: { value: '75' } });
    expect(send().disabled).toBe(false);
  });

  it.each([
    ['without the light-intensity permission', {}, ['thing:read', 'thing:invoke_r2r'], 'Not authorized'],
    ['while pending (above stationary)', { heartbeat_datetime: iso(Date.now() - 9 * HOUR_MS) }, ALL, 'Invalid asset status'],
    ['while offline', { heartbeat_datetime: iso(Date.now() - 100 * HOUR_MS) }, ALL, 'Invalid asset status'],
    ['while out of service (above stationary: status 6)', { in_service: false }, ALL, 'Invalid asset status'],
  ] as const)('%s the control is disabled with its tooltip', (_name, overrides, permissions, tooltip) => {
    setup(details(overrides), [...permissions]);
    expect(select().disabled).toBe(true);
    expect(send().disabled).toBe(true);
    const described = document.getElementById(send().getAttribute('aria-describedby') ?? '');
    expect(described?.textContent).toBe(tooltip);
  });

  it.each([
    ['on scene (location)', { location_id: 'loc-1' }],
    ['active', { enroute: true }],
    ['stationary', { street: 'Congress Ave' }],
  ] as const)('allowed %s', (_name, overrides) => {
    setup(details(overrides));
    fireEvent.change(select(), { target: { value: '50' } });
    expect(send().disabled).toBe(false);
  });

  it("sends {light_intensity}: 'Sending update', then 'Update was successful', cleared after 4 s", async () => {
    const harness = setup(details());
    harness.answer('PUT /things/thing-00001/light_intensity', { status: 200, body: { id: 'thing-00001', light_intensity: 75 } });
    harness.hold();
    fireEvent.change(select(), { target: { value: '75' } });
    fireEvent.click(send());
    await settle();
    expect(screen.getByText('Sending update')).toBeTruthy();
    await harness.release();
    await settle();
    expect(harness.calls).toEqual([{ method: 'PUT', path: '/things/thing-00001/light_intensity', body: { light_intensity: 75 } }]);
    expect(screen.getByText('Update was successful')).toBeTruthy();
    act(() => vi.advanceTimersByTime(3_999));
    expect(screen.getByText('Update was successful')).toBeTruthy();
    act(() => vi.advanceTimersByTime(1));
    expect(screen.queryByText('Update was successful')).toBeNull();
  });

  it('a failure shows the asset-action text, cleared after 4 s', async () => {
    const harness = setup(details());
    harness.answer('PUT /things/thing-00001/light_intensity', { status: 422, body: { error: 'x', message: 'Timed out' } });
    fireEvent.change(select(), { target: { value: '25' } });
    fireEvent.click(send());
    await settle();
    expect(screen.getByText('Request timed out')).toBeTruthy();
    act(() => vi.advanceTimersByTime(4_000));
    expect(screen.queryByText('Request timed out')).toBeNull();
  });
});
