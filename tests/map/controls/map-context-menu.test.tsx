// @vitest-environment jsdom
/**
 * part 1 §2 the right-click menu: coordinates at 5 decimals (§9, truncated), the three-word
 * address states (§8 'Locating...', 'what3words not found...'), copy with 'Copied' for 2 s (§9
 * copy feedback, menu), two navigation links, 'Unable to find location', Escape and click-away.
 */
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { MapContextMenu, type MapContextMenuProps } from '../../../src/map/controls/map-context-menu';

afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

function menu(overrides: Partial<MapContextMenuProps> = {}) {
  const props: MapContextMenuProps = {
    x: 120,
    y: 80,
    width: 800,
    height: 600,
    point: { lat: 30.2672199, lng: -97.7431987 },
    words: { kind: 'locating' },
    copy: vi.fn(() => Promise.resolve()),
    onClose: vi.fn(),
    ...overrides,
  };
  const view = render(<MapContextMenu {...props} />);
  return { props, ...view };
}

describe('part1 §2 map right-click menu', () => {
  it('shows the point at 5 decimals, truncated, never rounded', () => {
    menu();
    expect(screen.getByTestId('menu-coordinates').textContent).toBe('30.26721, -97.74319');
  });

  it.each([
    [{ kind: 'locating' } as const, 'Locating...'],
    [{ kind: 'notFound' } as const, 'what3words not found...'],
    [{ kind: 'found', words: 'filled.count.soap' } as const, '///filled.count.soap'],
  ])('part1 §8 three-word address %j reads %s', (words, text) => {
    menu({ words });
    expect(screen.getByRole('dialog', { name: 'Map point' }).textContent).toContain(text);
  });

  it("reads 'Unable to find location' when the point could not be resolved, with no actions", () => {
    menu({ point: null });
    const dialog = screen.getByRole('dialog', { name: 'Map point' });
    expect(dialog.textContent).toContain('Unable to find location');
    expect(screen.queryByRole('button')).toBeNull();
    expect(screen.queryByRole('link')).toBeNull();
  });

  it("copies the coordinates and shows 'Copied' for 2 s (part1 §9 copy feedback, menu)", async () => {
    vi.useFakeTimers();
    const { props } = menu();
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Copy coordinates' }));
    });
    expect(props.copy).toHaveBeenCalledWith('30.26721, -97.74319');
    expect(screen.getByRole('button', { name: 'Copied' }).textContent).toBe('Copied');
    act(() => vi.advanceTimersByTime(1_999));
    expect(screen.getByRole('button', { name: 'Copied' })).toBeTruthy();
    act(() => vi.advanceTimersByTime(1));
    expect(screen.queryByRole('button', { name: 'Copied' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Copy coordinates' }).textContent).toBe('Copy');
  });

  it('copies the three-word address with its slashes', async () => {
    const { props } = menu({ words: { kind: 'found', words: 'filled.count.soap' } });
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Copy three-word address' }));
    });
    expect(props.copy).toHaveBeenCalledWith('///filled.count.soap');
    expect(screen.getByRole('button', { name: 'Copied' })).toBeTruthy();
  });

  it("shows no 'Copied' when the clipboard refuses", async () => {
    menu({ copy: () => Promise.reject(new Error('denied')) });
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Copy coordinates' }));
    });
    expect(screen.queryByRole('button', { name: 'Copied' })).toBeNull();
  });

  it('links to Google Maps directions and Waze for the point, in a new tab', () => {
    menu();
    const google = screen.getByRole('link', { name: 'Directions in Google Maps' });
    expect(google.getAttribute('href')).toBe('https://www.google.com/maps/dir/?api=1&destination=30.26721,-97.74319');
    const waze = screen.getByRole('link', { name: 'Navigate with Waze' });
    expect(waze.getAttribute('href')).toBe('https://waze.com/ul?ll=30.26721,-97.74319&navigate=yes');
    for (const link of [google, waze]) {
      expect(link.getAttribute('target')).toBe('_blank');
      expect(link.getAttribute('rel')).toContain('noopener');
    }
  });

  it('closes on Escape and on a click elsewhere, not on a click inside', () => {
    const onClose = vi.fn();
    menu({ onClose });
    fireEvent.mouseDown(screen.getByTestId('menu-coordinates'));
    expect(onClose).not.toHaveBeenCalled();
    fireEvent.keyDown(document, { key: 'Escape' });
    expect(onClose).toHaveBeenCalledTimes(1);
    fireEvent.mouseDown(document.body);
    expect(onClose).toHaveBeenCalledTimes(2);
  });

  it('stays inside the map near its right and bottom edges', () => {
    menu({ x: 790, y: 590, width: 800, height: 600 });
    const dialog = screen.getByRole('dialog', { name: 'Map point' });
    expect(parseFloat(dialog.style.left)).toBeLessThanOrEqual(800 - 280);
    expect(parseFloat(dialog.style.top)).toBeLessThan(590);
  });
});
