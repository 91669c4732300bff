// @vitest-environment jsdom
import { cleanup, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AreaPopup, EventPopup } from '../../../src/app/map/overlay-popup';
import { fromAreaWire } from '../../../src/domain/area';
import { fromLocationWire, locationWireSchema, type LocationWireInput } from '../../../src/domain/location';
import { formatDateTime } from '../../../src/domain/time';

afterEach(cleanup);

const START = '2026-11-22T10:15:00Z';
const vehicle = (i: number) => ({ id: `t-${i}`, haas_id: `ha-${i}`, start_time: START });

function event(overrides: Partial<LocationWireInput> = {}) {
  return fromLocationWire(
    locationWireSchema.parse({
      id: 'loc-1',
      display_name: 'Crash on Lamar',
      street: 'N Lamar Blvd',
      is_active: true,
      lat: 30.3,
      lng: -97.74,
      start_time: START,
      things_active: [vehicle(1), vehicle(2)],
      things_inactive: [vehicle(3)],
      ...overrides,
    }),
  );
}

const fact = (popup: HTMLElement, label: string) => within(popup).getByText(label).nextElementSibling?.textContent;

describe('event popup', () => {
  it('shows name, street, start time, active and inactive vehicle counts and Active', () => {
    render(<EventPopup event={event()} timeZone="America/Chicago" />);
    const popup = screen.getByRole('tooltip', { name: 'Crash on Lamar' });
    expect(within(popup).getByText('Active')).toBeTruthy();
    expect(fact(popup, 'Street')).toBe('N Lamar Blvd');
    expect(fact(popup, 'Start')).toBe(formatDateTime(Date.parse(START), 'America/Chicago'));
    expect(fact(popup, 'Start')).toBe('11/22/2026 4:15 AM');
    expect(fact(popup, 'Active vehicles')).toBe('2');
    expect(fact(popup, 'Inactive vehicles')).toBe('1');
  });

  it('an ended event says Ended; a missing street and start are left out', () => {
    render(<EventPopup event={event({ is_active: false, street: null, start_time: null, things_active: [] })} />);
    const popup = screen.getByRole('tooltip', { name: 'Crash on Lamar' });
    expect(within(popup).getByText('Ended')).toBeTruthy();
    expect(within(popup).queryByText('Active')).toBeNull();
    expect(within(popup).queryByText('Street')).toBeNull();
    expect(within(popup).queryByText('Start')).toBeNull();
    expect(fact(popup, 'Active vehicles')).toBe('0');
  });

  it('pinned: a dialog with a close button', () => {
    const onClose = vi.fn();
    render(<EventPopup event={event()} onClose={onClose} />);
    const dialog = screen.getByRole('dialog', { name: 'Crash on Lamar' });
    within(dialog).getByRole('button', { name: 'Close popup' }).click();
    expect(onClose).toHaveBeenCalledTimes(1);
  });
});

describe('part1 §2 area popup', () => {
  const area = fromAreaWire({
    id: 'area-1',
    organization_id: 'org-1',
    name: 'Station 4',
    point_geom: { lat: 30.3, lon: -97.7 },
    ez_type: { id: 'type-1', db_name: 'station', display_name: 'Station', is_station_view: true },
  });

  it('shows the area name, its type and the assets inside', () => {
    render(<AreaPopup area={area} count={5} />);
    const popup = screen.getByRole('tooltip', { name: 'Station 4' });
    expect(fact(popup, 'Type')).toBe('Station');
    expect(fact(popup, 'Assets')).toBe('5');
  });

  it('before the first count it says so', () => {
    render(<AreaPopup area={area} count={null} />);
    expect(fact(screen.getByRole('tooltip'), 'Assets')).toBe('Counting...');
  });
});
