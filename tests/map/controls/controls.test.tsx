// @vitest-environment jsdom
/**
 * The map's small controls (part 1 §2 Map, §5 coordinate search, §8 geolocation texts, §9 add
 * thresholds): each control's states and exact texts.
 */
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AddButton, addMode } from '../../../src/map/controls/add-button';
import { AreaJump, matchAreas } from '../../../src/map/controls/area-jump';
import { CoordinateSearch } from '../../../src/map/controls/coordinate-search';
import { DisplayPanel } from '../../../src/map/controls/display-panel';
import { LocateButton, LocateStatus } from '../../../src/map/controls/locate-control';
import { MapTypeControl } from '../../../src/map/controls/map-type-control';
import { ZoomControl } from '../../../src/map/controls/zoom-control';

afterEach(cleanup);

describe('part1 §5 coordinate search box', () => {
  function search() {
    const onGo = vi.fn();
    render(<CoordinateSearch onGo={onGo} />);
    const input = screen.getByRole('textbox', { name: 'Go to coordinates' }) as HTMLInputElement;
    return { onGo, input };
  }

  it("has the placeholder 'lat, lng' and a label, and is not invalid while empty", () => {
    const { input } = search();
    expect(input.placeholder).toBe('lat, lng');
    expect(input.getAttribute('aria-invalid')).toBe('false');
  });

  it.each(['91, 0', '-90.5, 10', '0, 181', '0, -180.01', '30.27', '30.27 -97.74', 'abc, def', '30.27, -97.74, 1', ','])(
    '%j is invalid and Enter goes nowhere',
    (text) => {
      const { input, onGo } = search();
      fireEvent.change(input, { target: { value: text } });
      expect(input.getAttribute('aria-invalid')).toBe('true');
      expect(input.className).toContain('map-input-invalid');
      fireEvent.submit(input.closest('form')!);
      expect(onGo).not.toHaveBeenCalled();
    },
  );

  it.each([
    ['30.27, -97.74', { lat: 30.27, lng: -97.74 }],
    ['90, 180', { lat: 90, lng: 180 }],
    [' -90 ,-180 ', { lat: -90, lng: -180 }],
  ])('%j is valid and Enter goes to %j', (text, point) => {
    const { input, onGo } = search();
    fireEvent.change(input, { target: { value: text } });
    expect(input.getAttribute('aria-invalid')).toBe('false');
    fireEvent.submit(input.closest('form')!);
    expect(onGo).toHaveBeenCalledWith(point);
  });
});

describe("part1 §2 '+ Add' / 'Zoom to Add' (§9 thresholds)", () => {
  it.each([
    [15.49, 15.5, 'Zoom to Add'],
    [15.5, 15.5, '+ Add'],
    [16.2, 16.25, 'Zoom to Add'],
    [16.25, 16.25, '+ Add'],
    [16.99, 17, 'Zoom to Add'],
    [18, 17, '+ Add'],
  ])('at zoom %d with threshold %d the button reads %s', (zoom, addZoom, label) => {
    const onAdd = vi.fn();
    const onZoomToAdd = vi.fn();
    render(<AddButton zoom={zoom} addZoom={addZoom} onAdd={onAdd} onZoomToAdd={onZoomToAdd} />);
    fireEvent.click(screen.getByRole('button', { name: label }));
    if (label === '+ Add') {
      expect(onAdd).toHaveBeenCalledTimes(1);
      expect(onZoomToAdd).not.toHaveBeenCalled();
    } else {
      expect(onZoomToAdd).toHaveBeenCalledTimes(1);
      expect(onAdd).not.toHaveBeenCalled();
    }
    expect(addMode(zoom, addZoom)).toBe(label === '+ Add' ? 'add' : 'zoomToAdd');
  });
});

describe("part1 §2 area search 'Jump to your saved areas...'", () => {
  const areas = [
    { id: 'a1', name: 'North Station' },
    { id: 'a2', name: 'Airport' },
    { id: 'a3', name: 'South Station' },
  ];

  it('narrows by name and picks with the keyboard', () => {
    const onPick = vi.fn();
    render(<AreaJump areas={areas} onPick={onPick} />);
    const box = screen.getByRole('combobox', { name: 'Jump to your saved areas...' }) as HTMLInputElement;
    expect(box.placeholder).toBe('Jump to your saved areas...');
    fireEvent.focus(box);
    expect(screen.getAllByRole('option').map((o) => o.textContent)).toEqual(['Airport', 'North Station', 'South Station']);
    fireEvent.change(box, { target: { value: 'station' } });
    expect(screen.getAllByRole('option').map((o) => o.textContent)).toEqual(['North Station', 'South Station']);
    fireEvent.keyDown(box, { key: 'ArrowDown' });
    expect(screen.getByRole('option', { selected: true }).textContent).toBe('South Station');
    fireEvent.keyDown(box, { key: 'Enter' });
    expect(onPick).toHaveBeenCalledWith('a3');
    expect(screen.queryByRole('listbox')).toBeNull();
    expect(box.value).toBe('');
  });

  it('picks with the mouse and says when nothing matches', () => {
    const onPick = vi.fn();
    render(<AreaJump areas={areas} onPick={onPick} />);
    const box = screen.getByRole('combobox');
    fireEvent.focus(box);
    fireEvent.mouseDown(screen.getByRole('option', { name: 'Airport' }));
    expect(onPick).toHaveBeenCalledWith('a2');
    fireEvent.change(box, { target: { value: 'zzz' } });
    expect(screen.getByRole('listbox').textContent).toBe('No saved areas match');
  });

  it('matchAreas is case-insensitive and sorted', () => {
    expect(matchAreas(areas, 'AIR').map((a) => a.id)).toEqual(['a2']);
  });
});

describe('part1 §2 map type control', () => {
  it('offers only what the provider draws and says why the others are off', () => {
    const onChange = vi.fn();
    render(<MapTypeControl value="roadmap" available={['roadmap']} onChange={onChange} />);
    const group = screen.getByRole('radiogroup', { name: 'Map type' });
    expect(Array.from(group.querySelectorAll('[role="radio"]')).map((b) => b.textContent)).toEqual([
      'Roadmap',
      'Satellite',
      'Hybrid',
      'Terrain',
    ]);
    expect((screen.getByRole('radio', { name: 'Roadmap' }) as HTMLButtonElement).disabled).toBe(false);
    expect(screen.getByRole('radio', { name: 'Roadmap' }).getAttribute('aria-checked')).toBe('true');
    for (const name of ['Satellite', 'Hybrid', 'Terrain'])
      expect((screen.getByRole('radio', { name }) as HTMLButtonElement).disabled).toBe(true);
    expect(screen.getByText('Satellite, hybrid and terrain need Google Maps')).toBeTruthy();
  });

  it('with Google every type is offered and a click chooses it', () => {
    const onChange = vi.fn();
    render(<MapTypeControl value="roadmap" available={['roadmap', 'satellite', 'hybrid', 'terrain']} onChange={onChange} />);
    fireEvent.click(screen.getByRole('radio', { name: 'Hybrid' }));
    expect(onChange).toHaveBeenCalledWith('hybrid');
    expect(screen.queryByText('Satellite, hybrid and terrain need Google Maps')).toBeNull();
  });
});

describe("part1 §2 display panel: 'Display Assets' and 'Display Incidents' / 'Display Events'", () => {
  it('shows both toggles with their labels and reports changes', () => {
    const onChange = vi.fn();
    render(<DisplayPanel assets events={false} assetsLabel="Display Assets" eventsLabel="Display Events" onChange={onChange} />);
    const assets = screen.getByRole('checkbox', { name: 'Display Assets' }) as HTMLInputElement;
    const events = screen.getByRole('checkbox', { name: 'Display Events' }) as HTMLInputElement;
    expect([assets.checked, events.checked]).toEqual([true, false]);
    fireEvent.click(assets);
    expect(onChange).toHaveBeenLastCalledWith({ assets: false });
    fireEvent.click(events);
    expect(onChange).toHaveBeenLastCalledWith({ events: true });
  });
});

describe('part1 §2 zoom and find-my-location buttons, §8 geolocation outcome', () => {
  it('zoom buttons are labelled and call back', () => {
    const onZoomIn = vi.fn();
    const onZoomOut = vi.fn();
    render(<ZoomControl onZoomIn={onZoomIn} onZoomOut={onZoomOut} canZoomOut={false} />);
    fireEvent.click(screen.getByRole('button', { name: 'Zoom in' }));
    expect(onZoomIn).toHaveBeenCalledTimes(1);
    expect((screen.getByRole('button', { name: 'Zoom out' }) as HTMLButtonElement).disabled).toBe(true);
  });

  it('the locate button is busy while the browser answers', () => {
    render(<LocateButton state={{ kind: 'requesting' }} onLocate={vi.fn()} />);
    const button = screen.getByRole('button', { name: 'Find my location' }) as HTMLButtonElement;
    expect(button.disabled).toBe(true);
    expect(button.getAttribute('aria-busy')).toBe('true');
  });

  it('an error is an alert with its text; closing clears it', () => {
    const onClear = vi.fn();
    render(<LocateStatus state={{ kind: 'error', message: 'Unable to retrieve your location.' }} onClear={onClear} />);
    expect(screen.getByRole('alert').textContent).toContain('Unable to retrieve your location.');
    fireEvent.click(screen.getByRole('button', { name: 'Close' }));
    expect(onClear).toHaveBeenCalledTimes(1);
  });

  it('a found location offers to clear it; idle shows nothing', () => {
    const onClear = vi.fn();
    const { rerender, container } = render(<LocateStatus state={{ kind: 'found' }} onClear={onClear} />);
    fireEvent.click(screen.getByRole('button', { name: 'Clear location' }));
    expect(onClear).toHaveBeenCalledTimes(1);
    rerender(<LocateStatus state={{ kind: 'idle' }} onClear={onClear} />);
    expect(container.textContent).toBe('');
  });
});
