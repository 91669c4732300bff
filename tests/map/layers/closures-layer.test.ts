/** part 2 §2 closures on the map: paths by status colour, start/end markers, arrows in the drawn direction. */
import { describe, expect, it } from 'vitest';
import type { Closure } from '../../../src/domain/closure';
import {
  CLOSURE_STYLE,
  closureArrows,
  closureMarkers,
  closurePaths,
  closuresLayers,
  segmentCourse,
} from '../../../src/map/layers/closures-layer';

const closure = (id: string, status: Closure['status'], routePath: { lat: number; lng: number }[]) => ({ id, status, routePath });

describe('closures layer', () => {
  it.each([
    ['active', [245, 124, 0, 255]],
    ['standby', [46, 125, 50, 255]],
    ['pending', [142, 36, 170, 255]],
    ['offline', [117, 117, 117, 255]],
  ] as const)('a %s closure is drawn in %j (the asset status colour of the same word)', (status, rgba) => {
    expect(CLOSURE_STYLE.status[status]).toEqual(rgba);
  });

  it('draws closures with a path of two points or more, [lng, lat]; start and end markers at its ends', () => {
    const paths = closurePaths([
      closure('a', 'active', [
        { lat: 30, lng: -97 },
        { lat: 30.01, lng: -97 },
      ]),
      closure('none', 'standby', [{ lat: 30, lng: -97 }]),
    ]);
    expect(paths).toEqual([
      {
        id: 'a',
        status: 'active',
        path: [
          [-97, 30],
          [-97, 30.01],
        ],
      },
    ]);
    expect(closureMarkers(paths)).toEqual([
      { id: 'a', position: [-97, 30], end: 'start' },
      { id: 'a', position: [-97, 30.01], end: 'end' },
    ]);
  });

  it.each([
    [0, 0, 0, 1, 0],
    [0, 0, 1, 0, 90],
    [0, 1, 0, 0, 180],
    [1, 0, 0, 0, 270],
  ])('segmentCourse (%d,%d)→(%d,%d) is %d°', (aLng, aLat, bLng, bLat, course) => {
    expect(segmentCourse(aLng, aLat, bLng, bLat)).toBeCloseTo(course, 6);
  });

  it('arrows sit mid-segment pointing from start to end (deck.gl angles are counter-clockwise)', () => {
    const arrows = closureArrows(
      closurePaths([
        closure('east', 'active', [
          { lat: 30, lng: -97 },
          { lat: 30, lng: -96.99 },
        ]),
      ]),
    );
    expect(arrows).toHaveLength(1);
    expect(arrows[0]!.position).toEqual([-96.995, 30]);
    expect(arrows[0]!.angle).toBeCloseTo(-90, 6);
  });

  it('layer ids start with the section key; a click on a path reports its closure', () => {
    const clicked: string[] = [];
    const { under, over } = closuresLayers({
      closures: [
        closure('a', 'active', [
          { lat: 30, lng: -97 },
          { lat: 30.01, lng: -97 },
        ]),
      ],
      targetId: 'a',
      onClick: (id) => {
        clicked.push(id);
        return true;
      },
    });
    expect([...under, ...over].map((layer) => layer.id)).toEqual([
      'closures-target',
      'closures-paths',
      'closures-arrows',
      'closures-markers',
    ]);
    const paths = under.find((layer) => layer.id === 'closures-paths')!;
    const handled = (paths.props.onClick as (info: { object: { id: string } }) => boolean)({ object: { id: 'a' } });
    expect(handled).toBe(true);
    expect(clicked).toEqual(['a']);
    expect((under[0]!.props.data as unknown[]).length).toBe(1);
  });

  it("a second set on the map at once (the form's own path beside the list's) has ids of its own: deck.gl would mix equal ids up", () => {
    const closure = {
      id: 'a',
      routePath: [
        { lat: 30.2, lng: -97.7 },
        { lat: 30.21, lng: -97.7 },
      ],
      status: 'active' as const,
    };
    const list = closuresLayers({ closures: [closure], targetId: null });
    const form = closuresLayers({ closures: [closure], targetId: null, idPrefix: 'closure-form' });
    const ids = [...list.under, ...list.over, ...form.under, ...form.over].map((layer) => layer.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(form.under.map((layer) => layer.id)).toEqual(['closure-form-target', 'closure-form-paths', 'closure-form-arrows']);
  });
});
