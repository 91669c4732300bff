// @vitest-environment jsdom
/** The asset popup's texts (part 1 §2 Map: "the popup of an out-of-service asset shows Out-of-Service"). */
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fromThingWire } from '../../../src/domain/asset';
import { ASSET_STATUS } from '../../../src/domain/asset-status';
import { MAP_TEXT } from '../../../src/domain/labels';
import { formatDateTime } from '../../../src/domain/time';
import { AssetPopup, GroupPopup, hoverPlacement, popupStatusText, speedText } from '../../../src/app/map/asset-popup';
import type { AssetDetails } from '../../../src/domain/live-diff';
import { NOW, parsedThing } from '../../support/live-fixtures';

afterEach(cleanup);

function details(overrides: Parameters<typeof parsedThing>[1] = {}): AssetDetails {
  const asset = fromThingWire(parsedThing(7, overrides), NOW);
  if (!asset) throw new Error('no asset');
  const { searchText: _s, ...rest } = asset;
  return rest;
}

describe('part1 §2 Map: asset popups', () => {
  it('shows the primary display name, the status label, direction, speed and last sync', () => {
    const asset = details({ nickname: 'Engine 7', speed: 34.6, course: 90 });
    render(<AssetPopup asset={asset} mix="all" x={10} y={20} />);
    const popup = screen.getByRole('tooltip', { name: 'Engine 7' });
    expect(popup.textContent).toContain('Engine 7');
    expect(popup.textContent).toContain('Standby');
    expect(screen.getByText('Direction').nextElementSibling?.textContent).toBe('E');
    expect(popup.textContent).toContain('35 mph');
    expect(popup.textContent).toContain(formatDateTime(NOW));
    expect(popup.textContent).not.toContain(MAP_TEXT.outOfService);
    expect(screen.queryByRole('button', { name: 'Close' })).toBeNull();
  });

  it('an out-of-service asset shows Out-of-Service', () => {
    const asset = details({ nickname: 'Tow 3', in_service: false });
    render(<AssetPopup asset={asset} mix="all" x={0} y={0} />);
    expect(screen.getByRole('tooltip', { name: 'Tow 3' }).textContent).toContain('Out-of-Service');
  });

  it('without a nickname the upper-cased name shows (part 1 §3)', () => {
    render(<AssetPopup asset={details({ nickname: null })} mix="all" x={0} y={0} />);
    expect(screen.getByRole('tooltip', { name: 'HA-00007' })).toBeTruthy();
  });

  it.each([
    [ASSET_STATUS.location, 'all', 'On-Scene'],
    [ASSET_STATUS.active, 'all', 'Responding'],
    [ASSET_STATUS.active, 'none', 'Active'],
    [ASSET_STATUS.location, 'some', 'On-Scene / Active Event'],
    [ASSET_STATUS.pending, 'all', 'Pending'],
    [ASSET_STATUS.offline, 'none', 'Offline'],
  ] as const)('status %i with responder mix %s reads %s', (status, mix, text) => {
    expect(popupStatusText({ inService: true, status }, mix)).toBe(text);
    expect(popupStatusText({ inService: false, status }, mix)).toBe(MAP_TEXT.outOfService);
  });

  it('a pinned popup stays until its Close button', () => {
    const onClose = vi.fn();
    render(<AssetPopup asset={details({ nickname: 'Medic 2' })} mix="all" x={0} y={0} onClose={onClose} />);
    const dialog = screen.getByRole('dialog', { name: 'Medic 2' });
    fireEvent.click(screen.getByRole('button', { name: 'Close' }));
    expect(onClose).toHaveBeenCalledTimes(1);
    expect(dialog).toBeTruthy();
  });

  it('speed is rounded mph', () => {
    expect(speedText(0)).toBe('0 mph');
    expect(speedText(44.5)).toBe('45 mph');
  });

  it('a hover popup near the top edge opens below its point, near a side it aligns to that side', () => {
    const size = { width: 800, height: 600 };
    expect(hoverPlacement(400, 300, size)).toBe('');
    expect(hoverPlacement(400, 60, size)).toBe('asset-popup--below');
    expect(hoverPlacement(30, 300, size)).toBe('asset-popup--start');
    expect(hoverPlacement(780, 40, size)).toBe('asset-popup--below asset-popup--end');
    render(
      <GroupPopup
        kind="cluster"
        count={2}
        mix={[0, 0, 2, 0, 0, 0, 0]}
        responderMix="all"
        x={400}
        y={60}
        placement={hoverPlacement(400, 60, size)}
      />,
    );
    expect(screen.getByRole('tooltip').className).toBe('asset-popup asset-popup--station asset-popup--below');
  });

  it('a station marker shows its name, count and statuses on hover', () => {
    render(<GroupPopup kind="station" name="Fire Station 1" count={4} mix={[0, 0, 3, 1, 0, 0, 0]} responderMix="all" x={0} y={0} />);
    expect(screen.getByRole('tooltip').textContent).toContain('Fire Station 1');
    expect(screen.getByRole('tooltip').textContent).toContain('4 assets');
    expect(
      within(screen.getByRole('list', { name: 'By status' }))
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(['Standby 3', 'Stationary 1']);
  });

  it('a cluster shows its count and each status present with its count, most urgent first, labelled by the responder mix', () => {
    render(<GroupPopup kind="cluster" count={315} mix={[19, 40, 250, 0, 0, 4, 2]} responderMix="all" x={0} y={0} />);
    expect(screen.getByRole('tooltip').textContent).toContain('315 assets');
    expect(
      within(screen.getByRole('list', { name: 'By status' }))
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(['On-Scene 19', 'Responding 40', 'Standby 250', 'Offline 4', 'Out-of-Service 2']);
  });
});
