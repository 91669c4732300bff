/**
 * The map bench page (bench/README.md, the browser main thread): the real live worker
 * engine, bridge and store, fed by a synthetic network inside the worker, drawn by the assets
 * layer on the standalone map. Query: assets (fleet size), rate (point messages per second),
 * zoom, size (fixed icon size class), mover and moves (thing-0's step east
 * per second, degrees, and how many steps), tiles ('none' for no raster tiles), draw ('all', default;
 * 'assets': no basemap; 'none': no map at all — the live pipeline alone, to tell its cost from drawing's;
 * 'dashboard': the app's own dashboard map — `DashboardMap` with its asset, overlay and control layers,
 * popups and controls, the group view on as a new user has it; `group=off` turns the group view off).
 * `window.lightbarBench` exposes what the e2e test and the bench read.
 */
import { StrictMode, useEffect, useMemo, useState } from 'react';
import { createRoot } from 'react-dom/client';
import { subscribeKey } from 'valtio/utils';
import { MapView, WebMercatorViewport, type MapViewState } from '@deck.gl/core';
import DeckGL from '@deck.gl/react';
import { createLiveBridge } from '../../src/app/live/bridge';
import { LiveProvider } from '../../src/app/live/hooks';
import type { LiveStore } from '../../src/app/live/store';
import type { AssetsLayerData } from '../../src/map/layers/assets-layer-data';
import { FLAG_LISTED, FLAG_PRESENT } from '../../src/domain/live-diff';
import { iconLook } from '../../src/map/icon-atlas';
import { assetsLayer } from '../../src/map/layers/assets-layer';
import { LightbarMap } from '../../src/map/map-view';
import { ICON_SIZES, type IconSize } from '../../src/domain/icon-size';
import { DashboardMap } from '../../src/app/map/dashboard-map';
import { createMapState } from '../../src/app/map/map-state';
import { createAppServices, ServicesContext } from '../../src/app/services';
import { MemoryRouter } from 'react-router-dom';
import '../../src/app/app.css';
import { syntheticFetch, type SyntheticOptions } from './synthetic-source';

const params = new URLSearchParams(location.search);
const number = (name: string, fallback: number) => {
  const value = Number(params.get(name));
  return params.has(name) && Number.isFinite(value) ? value : fallback;
};
const ORGANIZATION = 'org-bench';
const CENTER: [number, number] = [-97.7431, 30.2672];
const options: SyntheticOptions = {
  assets: number('assets', 20),
  rate: number('rate', 0),
  organizationId: ORGANIZATION,
  center: CENTER,
  spread: number('spread', 0.2),
  moverStep: number('mover', 0),
  moverSteps: number('moves', Infinity),
};
const viewState: MapViewState = { longitude: CENTER[0], latitude: CENTER[1], zoom: number('zoom', 11) };
const sizeParam = params.get('size');
const sizeOverride = sizeParam && (ICON_SIZES as readonly string[]).includes(sizeParam) ? (sizeParam as IconSize) : null;
const tiles = params.get('tiles') === 'none' ? null : undefined;
const draw = params.get('draw') ?? 'all';

const bridge = createLiveBridge({
  createWorker: () => new Worker(new URL('./bench.worker.ts', import.meta.url), { type: 'module', name: JSON.stringify(options) }),
  signals: null,
  storage: null,
});
const store: LiveStore = bridge.store;
if (draw === 'dashboard' && params.get('group') === 'off') void bridge.setPreferences({ groupView: false });

/** The dashboard mode's services: the main thread's REST calls (areas) answered by the same synthetic server. */
const services = createAppServices({
  fetch: ((input: RequestInfo | URL) =>
    syntheticFetch(options, () => Date.now())(new URL(String(input), 'http://synthetic.invalid').href)) as typeof fetch,
  storage: null,
  createBridge: null,
  channel: false,
});
const mapState = createMapState();
mapState.view = { longitude: viewState.longitude, latitude: viewState.latitude, zoom: viewState.zoom, bounds: null };

interface Probe {
  slot: number;
  x: number;
  y: number;
  color: readonly [number, number, number];
  nearest: number;
}

/** What the e2e and the bench read. */
const api = {
  options,
  viewState,
  diffs: 0,
  store,
  ready: () => store.progress.done && store.total >= options.assets,
  /** Point messages the synthetic socket has delivered to the engine (inside the worker). */
  streamed: () => (bridge.engine as unknown as { streamedMessages(): Promise<number> }).streamedMessages(),
  /** The slot of an asset id (looked up by its position: the store is per slot, details are per id); -1 when not found. */
  async slotOfId(id: string): Promise<number> {
    const asset = await bridge.asset(id);
    if (!asset) return -1;
    const { buffers } = store;
    let best = -1;
    let distance = Infinity;
    for (let slot = 0; slot < buffers.capacity; slot += 1) {
      const d = Math.hypot(buffers.lngLat[2 * slot]! - asset.position.lng, buffers.lngLat[2 * slot + 1]! - asset.position.lat);
      if (d < distance) {
        distance = d;
        best = slot;
      }
    }
    // Within a metre or so (a diff in flight may still be a step behind: the caller asks again).
    return distance < 1e-5 ? best : -1;
  },
  /** A slot's projected position and status colour now. */
  at(slot: number, width: number, height: number): { x: number; y: number; color: readonly [number, number, number] } {
    const viewport = new WebMercatorViewport({ width, height, ...viewState });
    const [x, y] = viewport.project([store.buffers.lngLat[2 * slot]!, store.buffers.lngLat[2 * slot + 1]!]) as [number, number];
    return { x, y, color: iconLook(store.buffers.icon[slot]!).color };
  },
  /** A listed asset's projected position and status colour, the one farthest from its neighbours. */
  probe(width: number, height: number): Probe | null {
    const viewport = new WebMercatorViewport({ width, height, ...viewState });
    const { buffers } = store;
    const points: { slot: number; x: number; y: number }[] = [];
    const wanted = FLAG_PRESENT | FLAG_LISTED;
    for (let slot = 0; slot < buffers.capacity; slot += 1) {
      if (((buffers.flags[slot] ?? 0) & wanted) !== wanted) continue;
      const [x, y] = viewport.project([buffers.lngLat[2 * slot]!, buffers.lngLat[2 * slot + 1]!]) as [number, number];
      if (x > 40 && y > 40 && x < width - 40 && y < height - 40) points.push({ slot, x, y });
    }
    let best: Probe | null = null;
    for (const p of points) {
      let nearest = Infinity;
      for (const q of points) if (q !== p) nearest = Math.min(nearest, Math.hypot(p.x - q.x, p.y - q.y));
      if (!best || nearest > best.nearest) best = { slot: p.slot, x: p.x, y: p.y, color: iconLook(buffers.icon[p.slot]!).color, nearest };
    }
    return best;
  },
};
declare global {
  interface Window {
    lightbarBench?: typeof api;
  }
}
window.lightbarBench = api;

function App() {
  const [data, setData] = useState<AssetsLayerData>(store.data);
  useEffect(
    () =>
      subscribeKey(store, 'version', () => {
        api.diffs += 1;
        setData(store.data);
      }),
    [],
  );
  const layers = useMemo(() => [assetsLayer(data, sizeOverride ? { sizeOverride } : {})], [data]);
  if (draw === 'none') return <output>{data.version}</output>;
  if (draw === 'dashboard') {
    return (
      <ServicesContext.Provider value={services}>
        <MemoryRouter initialEntries={['/dashboard/things']}>
          <div style={{ position: 'relative', width: '100%', height: '100%' }}>
            <LiveProvider value={{ store, bridge }}>
              <DashboardMap map={mapState} />
            </LiveProvider>
          </div>
        </MemoryRouter>
      </ServicesContext.Provider>
    );
  }
  if (draw === 'assets') return <DeckGL views={new MapView({ repeat: true })} initialViewState={viewState} layers={layers} />;
  return (
    <LightbarMap
      layers={layers}
      initialViewState={viewState}
      provider={{ kind: 'standalone' }}
      {...(tiles === null ? { tiles: null } : {})}
    />
  );
}

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
void bridge.start({
  token: 'bench-token',
  organizationId: ORGANIZATION,
  apiBase: 'http://synthetic.invalid',
  socketUrl: 'ws://synthetic.invalid/cable',
});
