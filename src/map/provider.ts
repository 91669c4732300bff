/**
 * Map providers behind one interface: Google Maps with the deck.gl overlay when
 * VITE_GOOGLE_MAPS_API_KEY is set, the standalone deck.gl map otherwise — and as the fallback when
 * Google's loader fails (no network here: it fails within milliseconds and calls its error callback
 * several times). Both draw the same deck.gl layers.
 */
import type { MapTheme } from './basemap-style';
import type { DeckProps, Layer, LayersList, MapViewState } from '@deck.gl/core';
import { MAP_TYPES, type MapType } from '../domain/constants';

export type MapProviderKind = 'standalone' | 'google';

export interface MapProviderChoice {
  kind: MapProviderKind;
  /** Google only. */
  apiKey?: string;
  /** Google only: a map id enables vector maps. */
  mapId?: string;
}

/** deck.gl's map-wide click handler: told of the clicks no layer handled (an empty-map click picks nothing). */
export type MapClickHandler = NonNullable<DeckProps['onClick']>;

/** What every provider is given. */
export interface MapProviderProps {
  layers: LayersList;
  initialViewState: MapViewState;
  mapType: MapType;
  onViewStateChange?: (viewState: MapViewState) => void;
  onClick?: MapClickHandler;
  /**
   * The drawing layer of a form's drawing (src/map/draw), drawn over the others; while it is set
   * the pointer is the drawing's: the other layers and `onClick` hear no clicks.
   */
  drawing?: Layer | null;
  /** Day or night (the page's theme): the basemap's colours follow it. */
  theme?: MapTheme;
}

type Env = Record<string, string | boolean | undefined>;

/** Google when a key is configured, standalone otherwise. */
export function chooseMapProvider(env: Env = import.meta.env): MapProviderChoice {
  const key = typeof env.VITE_GOOGLE_MAPS_API_KEY === 'string' ? env.VITE_GOOGLE_MAPS_API_KEY.trim() : '';
  if (!key) return { kind: 'standalone' };
  const mapId =
    typeof env.VITE_GOOGLE_MAPS_MAP_ID === 'string' && env.VITE_GOOGLE_MAPS_MAP_ID.trim() ? env.VITE_GOOGLE_MAPS_MAP_ID.trim() : undefined;
  return mapId ? { kind: 'google', apiKey: key, mapId } : { kind: 'google', apiKey: key };
}

/** part 1 §2: roadmap, satellite, hybrid; terrain also exists. */
export function isMapType(value: unknown): value is MapType {
  return typeof value === 'string' && (MAP_TYPES as readonly string[]).includes(value);
}

/**
 * The fallback latch: the first failure switches to standalone and reports once; the loader's
 * repeated error callbacks after it change nothing.
 */
export function createFallbackLatch(onFallback: (error: unknown) => void): { fail: (error: unknown) => void; readonly failed: boolean } {
  let failed = false;
  return {
    fail(error) {
      if (failed) return;
      failed = true;
      onFallback(error);
    },
    get failed() {
      return failed;
    },
  };
}
