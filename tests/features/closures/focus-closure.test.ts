import { describe, expect, it } from 'vitest';
import { createMapState } from '../../../src/app/map/map-state';
import { FIT_BOUNDS_MAX_ZOOM, FIT_BOUNDS_PADDING_SHELL } from '../../../src/domain/constants';
import { focusClosure } from '../../../src/features/closures/focus-closure';

describe('opening a closure (part 1 §2 targets it; a path is fitted)', () => {
  it("targets it and fits its whole path with the shell's padding (part 1 §9: 75 px) at most at zoom 17", () => {
    const map = createMapState();
    focusClosure(map, {
      id: 'c-1',
      routePath: [
        { lat: 30.25, lng: -97.75 },
        { lat: 30.26, lng: -97.73 },
      ],
    });
    expect(map.target).toEqual({ kind: 'closure', id: 'c-1' });
    expect(FIT_BOUNDS_PADDING_SHELL).toBe(75);
    expect(map.camera).toMatchObject({ kind: 'fit', bounds: [-97.75, 30.25, -97.73, 30.26], padding: 75, maxZoom: FIT_BOUNDS_MAX_ZOOM });
  });

  it('a closure without a path is targeted only', () => {
    const map = createMapState();
    focusClosure(map, { id: 'c-2', routePath: [] });
    expect(map.target).toEqual({ kind: 'closure', id: 'c-2' });
    expect(map.camera).toBeNull();
  });
});
