/**
 * What a section shows on the dashboard map, for component tests of pages rendered in the whole
 * app (jsdom draws no WebGL): the real map state, with `showOnMap` and `fitBounds` recorded on the
 * way. A test file mocks the module with it and reads `shown`:
 *
 *   vi.mock('../../../src/app/map/map-state', async (original) =>
 *     (await import('../../app/support/map-spy')).spyOnMapState(await original()));
 */
import type * as MapStateModule from '../../../src/app/map/map-state';
import type { Bounds, SectionOverlay } from '../../../src/app/map/map-state';

/** The overlays shown now, by section key, and every fit asked for, in order. */
export const shown = { sections: {} as Record<string, SectionOverlay>, fits: [] as number[][] };

export function resetShown(): void {
  shown.sections = {};
  shown.fits = [];
}

export function spyOnMapState(actual: typeof MapStateModule): typeof MapStateModule {
  return {
    ...actual,
    showOnMap: (state: Parameters<typeof actual.showOnMap>[0], key: string, overlay: SectionOverlay) => {
      shown.sections[key] = overlay;
      const off = actual.showOnMap(state, key, overlay);
      return () => {
        if (shown.sections[key] === overlay) delete shown.sections[key];
        off();
      };
    },
    fitBounds: (state: Parameters<typeof actual.fitBounds>[0], bounds: Bounds) => {
      shown.fits.push([...bounds]);
      actual.fitBounds(state, bounds);
    },
  };
}
