// @vitest-environment jsdom
/**
 * Drawing on the map (src/map/draw) with pointer events: the real editable layer and its modes,
 * its events from deck.gl's event manager on a real element (draw-deck.ts: jsdom has no WebGL,
 * so only the GPU picking is stood in for), the session's keys on the document. Each kind is drawn
 * and the domain shape it reports is checked against the pixels clicked.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { act, cleanup, render } from '@testing-library/react';
import { useEffect } from 'react';
import { useSnapshot } from 'valtio';
import type { Geometry, LatLng } from '../../../src/domain/geometry';
import { createMapState, finishDrawing, startDrawing, type MapState } from '../../../src/app/map/map-state';
import { loadDrawRuntime, useDrawLayer } from '../../../src/map/draw/use-draw-layer';
import type { DrawKind } from '../../../src/map/draw/draw-shape';
import { DrawDeck } from './draw-deck';

let deck: DrawDeck;
let map: MapState;
let told: { event: string; shape?: Geometry | null }[];
/** The drawing's count of edits as the map last rendered it (`data-drawing-edits`). */
let edits = 0;

function MapWithDrawing() {
  const snap = useSnapshot(map);
  const drawing = useDrawLayer(snap.drawing as MapState['drawing']);
  edits = drawing.edits;
  const { layer } = drawing;
  useEffect(() => deck.setLayer(layer), [layer]);
  return null;
}

beforeEach(() => {
  deck = new DrawDeck();
  map = createMapState();
  told = [];
  render(<MapWithDrawing />);
});
afterEach(() => {
  cleanup();
  deck.finalize();
});

/** A form starts drawing (valtio tells the map on the next tick: the act is async). */
async function start(kind: DrawKind, initial?: Geometry): Promise<void> {
  await act(async () => {
    startDrawing(map, {
      kind,
      initial: initial ?? null,
      onChange: (shape) => told.push({ event: 'change', shape }),
      onDone: (shape) => told.push({ event: 'done', shape }),
      onCancel: () => told.push({ event: 'cancel' }),
    });
  });
  // The drawing code loads on the first drawing.
  await act(async () => {
    await loadDrawRuntime();
  });
}

async function click(x: number, y: number): Promise<void> {
  await act(() => deck.click(x, y));
}

async function key(name: string): Promise<void> {
  await act(async () => {
    document.body.dispatchEvent(new KeyboardEvent('keydown', { key: name, bubbles: true }));
  });
}

function done(): Geometry | null | undefined {
  return told.filter((entry) => entry.event === 'done').at(-1)?.shape;
}

/** Positions come back truncated to 7 decimals (part 2 §9). */
function expectAt(actual: LatLng | undefined, x: number, y: number): void {
  const expected = deck.unproject(x, y);
  expect(actual?.lat).toBeCloseTo(expected.lat, 6);
  expect(actual?.lng).toBeCloseTo(expected.lng, 6);
}

describe('drawing each kind with the pointer (part 2 §3 geometry types)', () => {
  it('a polygon: three clicks, then Enter; the ring is the clicked pixels, reported as it grows', async () => {
    await start('polygon');
    await click(300, 200);
    await click(420, 200);
    await click(360, 320);
    await key('Enter');
    const shape = done();
    expect(shape?.kind).toBe('polygon');
    if (shape?.kind !== 'polygon') return;
    expect(shape.ring).toHaveLength(3);
    expectAt(shape.ring[0], 300, 200);
    expectAt(shape.ring[1], 420, 200);
    expectAt(shape.ring[2], 360, 320);
    // The live readout: no shape (nothing told) at 1 and 2 points, the triangle at the third.
    expect(told.filter((entry) => entry.event === 'change').map((entry) => entry.shape?.kind ?? null)).toEqual(['polygon']);
    expect(map.drawing).toBeNull();
  });

  it('a polygon closes on a click on its first point, and is then edited', async () => {
    await start('polygon');
    await click(300, 200);
    await click(420, 200);
    await click(360, 320);
    await click(300, 200);
    expect(map.drawing).not.toBeNull();
    const closed = told.at(-1)?.shape;
    expect(closed?.kind === 'polygon' && closed.ring.length).toBe(3);
    await act(() => deck.drag([420, 200], [450, 240]));
    await key('Enter');
    const shape = done();
    if (shape?.kind !== 'polygon') throw new Error('no polygon');
    // Closed by the editable layer, the ring is wound counter-clockwise (GeoJSON's right-hand rule).
    expect(shape.ring).toHaveLength(3);
    expectAt(shape.ring[0], 300, 200);
    expectAt(shape.ring[1], 360, 320);
    expectAt(shape.ring[2], 450, 240);
  });

  it('part 2 §5: a polygon of fewer than 3 points cannot finish (Enter is refused, the drawing goes on)', async () => {
    await start('polygon');
    await click(300, 200);
    await click(420, 200);
    await key('Enter');
    expect(told.some((entry) => entry.event === 'done')).toBe(false);
    expect(map.drawing).not.toBeNull();
    await click(360, 320);
    await key('Enter');
    expect(done()?.kind).toBe('polygon');
  });

  it('a point: one click', async () => {
    await start('point');
    await click(250, 150);
    await key('Enter');
    const shape = done();
    if (shape?.kind !== 'point') throw new Error('no point');
    expectAt(shape.position, 250, 150);
  });

  it('a circle: its centre, then a point of its edge', async () => {
    await start('circle');
    await click(400, 300);
    await click(400, 200);
    await key('Enter');
    const shape = done();
    if (shape?.kind !== 'circle') throw new Error('no circle');
    expectAt(shape.center, 400, 300);
    const edge = deck.unproject(400, 200);
    // 100 px north at zoom 14: the metres between the two clicks.
    const metres = ((edge.lat - shape.center.lat) * Math.PI * 6_371_008.8) / 180;
    expect(shape.radius).toBeCloseTo(metres, 0);
  });

  it.each([
    ['point', [[250, 150]]],
    [
      'circle',
      [
        [400, 300],
        [400, 200],
      ],
    ],
    [
      'line',
      [
        [100, 100],
        [200, 120],
        [300, 160],
      ],
    ],
    [
      'polygon',
      [
        [100, 100],
        [200, 100],
        [150, 200],
      ],
    ],
  ] as const)('every click of a %s is an edit the map counts (its first too), so a test can wait for it', async (kind, clicks) => {
    await start(kind);
    for (const [i, [x, y]] of clicks.entries()) {
      const before = edits;
      await click(x, y);
      expect(edits, `click ${i + 1}`).toBeGreaterThan(before);
    }
  });

  it("a path: clicks, then the form's Finish (finishDrawing; a phone has no Enter): refused with one point, ends with two", async () => {
    await start('line');
    await click(100, 500);
    let finished = true;
    await act(async () => {
      finished = finishDrawing(map);
    });
    expect(finished).toBe(false);
    expect(done()).toBeUndefined();
    await click(300, 450);
    await act(async () => {
      finished = finishDrawing(map);
    });
    expect(finished).toBe(true);
    const shape = done();
    if (shape?.kind !== 'line') throw new Error('no path');
    expect(shape.path).toHaveLength(2);
    expectAt(shape.path[1], 300, 450);
    // Once ended, nothing is left to finish.
    expect(finishDrawing(map)).toBe(false);
  });

  it('a path: clicks, then Enter', async () => {
    await start('line');
    await click(100, 500);
    await click(300, 450);
    await click(500, 520);
    await key('Enter');
    const shape = done();
    if (shape?.kind !== 'line') throw new Error('no path');
    expect(shape.path).toHaveLength(3);
    expectAt(shape.path[0], 100, 500);
    expectAt(shape.path[1], 300, 450);
    expectAt(shape.path[2], 500, 520);
  });
});

describe('editing an existing shape', () => {
  it('a vertex of an existing path is dragged; the change is reported, Enter gives the moved path', async () => {
    const a = deck.unproject(200, 300);
    const b = deck.unproject(400, 300);
    await start('line', { kind: 'line', path: [a, b] });
    await act(() => deck.drag([400, 300], [420, 360]));
    const changed = told.filter((entry) => entry.event === 'change').at(-1)?.shape;
    if (changed?.kind !== 'line') throw new Error('no change');
    expectAt(changed.path[1], 420, 360);
    await key('Enter');
    const shape = done();
    if (shape?.kind !== 'line') throw new Error('no path');
    expectAt(shape.path[0], 200, 300);
    expectAt(shape.path[1], 420, 360);
  });
});

describe('editing an existing circle', () => {
  it('its edge is dragged: the radius follows, the centre stays', async () => {
    const center = deck.unproject(400, 300);
    const north = deck.unproject(400, 200);
    const metres = (a: LatLng, b: LatLng) => (Math.abs(b.lat - a.lat) * Math.PI * 6_371_008.8) / 180;
    await start('circle', { kind: 'circle', center, radius: metres(center, north) });
    // The pointer rests on the edge first (the layer offers its resize handle there), then drags it out.
    await act(async () => {
      deck.move(400, 200);
      deck.move(400, 201);
    });
    await act(() => deck.drag([400, 200], [400, 150]));
    await key('Enter');
    const shape = done();
    if (shape?.kind !== 'circle') throw new Error('no circle');
    expectAt(shape.center, 400, 300);
    expect(shape.radius).toBeCloseTo(metres(center, deck.unproject(400, 150)), 0);
  });
});

describe("the map state (startDrawing, the forms' entry)", () => {
  it('closes a pinned popup, and its stop function ends the drawing without telling the form', async () => {
    map.popup = { kind: 'asset', id: 'a-1', longitude: 0, latitude: 0 };
    let stop = () => undefined as void;
    await act(async () => {
      stop = startDrawing(map, {
        kind: 'point',
        onDone: () => told.push({ event: 'done' }),
        onCancel: () => told.push({ event: 'cancel' }),
      });
    });
    expect(map.popup).toBeNull();
    expect(map.drawing?.kind).toBe('point');
    await act(async () => stop());
    expect(map.drawing).toBeNull();
    await click(250, 150);
    await key('Enter');
    expect(told).toEqual([]);
  });
});

describe('keys', () => {
  it('Escape cancels: the form is told, nothing is drawn any more', async () => {
    await start('polygon');
    await click(300, 200);
    await key('Escape');
    expect(told.map((entry) => entry.event)).toEqual(['cancel']);
    expect(map.drawing).toBeNull();
  });

  it("Enter in a form field is the form's", async () => {
    await start('point');
    await click(250, 150);
    const input = document.createElement('input');
    document.body.appendChild(input);
    act(() => {
      input.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', bubbles: true }));
    });
    expect(told.some((entry) => entry.event === 'done')).toBe(false);
    input.remove();
  });
});
