/**
 * The drawing test page (e2e/draw.spec.ts): no section form draws yet, so this page stands in for
 * one. It mounts the real standalone map (`LightbarMap`, offline basemap, no tiles) with the map
 * state's drawing as the dashboard map mounts it (`useDrawLayer`), and a pickable marker whose
 * click would open a popup. `window.lightbarDraw.start(kind, initial?)` is the form's
 * `startDrawing`; what the drawing told the "form" is kept in `window.lightbarDraw.log`.
 */
import { StrictMode, useMemo } from 'react';
import { createRoot } from 'react-dom/client';
import { useSnapshot } from 'valtio';
import { ScatterplotLayer } from '@deck.gl/layers';
import type { Geometry } from '../../src/domain/geometry';
import { createMapState, startDrawing, type MapState } from '../../src/app/map/map-state';
import { loadDrawRuntime, useDrawLayer } from '../../src/map/draw/use-draw-layer';
import type { DrawKind } from '../../src/map/draw/draw-shape';
import { LightbarMap } from '../../src/map/map-view';

export interface DrawLogEntry {
  event: 'change' | 'done' | 'cancel';
  shape?: Geometry | null;
}

declare global {
  interface Window {
    lightbarDraw: {
      start(kind: DrawKind, initial?: Geometry): void;
      log: DrawLogEntry[];
      drawing(): boolean;
      markerClicks: number;
      /** The drawing code has loaded (it loads on a page's first drawing; here at once). */
      loaded: boolean;
    };
  }
}

export const VIEW = { longitude: -97.7431, latitude: 30.2672, zoom: 14 };
/** The marker sits at the view's centre. */
const MARKER = [{ position: [VIEW.longitude, VIEW.latitude] as [number, number] }];

const map: MapState = createMapState();
window.lightbarDraw = {
  log: [],
  markerClicks: 0,
  loaded: false,
  drawing: () => map.drawing !== null,
  start(kind, initial) {
    startDrawing(map, {
      kind,
      initial: initial ?? null,
      onChange: (shape) => window.lightbarDraw.log.push({ event: 'change', shape }),
      onDone: (shape) => window.lightbarDraw.log.push({ event: 'done', shape }),
      onCancel: () => window.lightbarDraw.log.push({ event: 'cancel' }),
    });
  },
};

void loadDrawRuntime().then(() => {
  window.lightbarDraw.loaded = true;
});

function Page() {
  const snap = useSnapshot(map);
  const { layer: drawing, edits } = useDrawLayer(snap.drawing as MapState['drawing']);
  const layers = useMemo(
    () => [
      new ScatterplotLayer({
        id: 'marker',
        data: MARKER,
        getPosition: (d: (typeof MARKER)[number]) => d.position,
        getRadius: 12,
        radiusUnits: 'pixels',
        getFillColor: [200, 0, 0],
        pickable: true,
        onClick: () => {
          window.lightbarDraw.markerClicks += 1;
          return true;
        },
      }),
    ],
    [],
  );
  return (
    <div
      data-testid="draw-map"
      data-drawing={drawing ? 'ready' : undefined}
      data-drawing-edits={drawing ? edits : undefined}
      data-drawing-kind={drawing ? snap.drawing?.kind : undefined}
      style={{ position: 'absolute', inset: 0 }}
    >
      <LightbarMap layers={layers} initialViewState={VIEW} provider={{ kind: 'standalone' }} tiles={null} drawing={drawing} />
    </div>
  );
}

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <Page />
  </StrictMode>,
);
