/**
 * deck.gl around the drawing layer, in jsdom (no WebGL here; the real canvas is
 * e2e/draw.spec.ts's): the layer's lifecycle as deck.gl's layer manager runs it for a composite
 * layer (initialize once, hand the state to each new instance of the same id, update, finalize),
 * deck.gl's event manager — mjolnir.js with deck.gl's recognizers (@deck.gl/core lib/constants)
 * on a real element — fed the DOM pointer and mouse events a browser sends, and the map's viewport.
 * Only GPU picking is stood in for: `pickMultipleObjects` answers the drawing's own edit handles
 * (the mode's guides) and features with a vertex within the picking radius of the pointer.
 */
import { EventManager, Pan, Tap, DoubleClickDrag, Pinch } from 'mjolnir.js';
import { WebMercatorViewport, type Layer } from '@deck.gl/core';
import type { Feature, Position } from 'geojson';

export const WIDTH = 800;
export const HEIGHT = 600;
export const VIEW = { longitude: -97.7431, latitude: 30.2672, zoom: 14 };

interface LayerInternals {
  id: string;
  context: unknown;
  state: { mode: { getGuides(props: unknown): { features: Feature[] } } };
  props: { data: { features: Feature[] }; pickingRadius: number };
  getModeProps(props: unknown): unknown;
  _initialize(): void;
  _transferState(old: unknown): void;
  _update(): void;
  _finalize(): void;
  needsUpdate(): boolean;
}

export class DrawDeck {
  readonly element: HTMLDivElement;
  readonly viewport = new WebMercatorViewport({ width: WIDTH, height: HEIGHT, ...VIEW });
  private readonly eventManager: EventManager;
  private layer: LayerInternals | null = null;
  private readonly context: Record<string, unknown>;

  constructor() {
    this.element = document.createElement('div');
    document.body.appendChild(this.element);
    // jsdom lays nothing out: the element is given the map's size.
    Object.defineProperty(this.element, 'offsetWidth', { value: WIDTH });
    Object.defineProperty(this.element, 'offsetHeight', { value: HEIGHT });
    this.element.getBoundingClientRect = () => ({
      x: 0,
      y: 0,
      left: 0,
      top: 0,
      right: WIDTH,
      bottom: HEIGHT,
      width: WIDTH,
      height: HEIGHT,
      toJSON: () => ({}),
    });
    this.eventManager = new EventManager(this.element, {
      recognizers: [
        { recognizer: new Pinch({ event: 'pinch' }) },
        { recognizer: new Pan({ event: 'pan', threshold: 1 }), recognizeWith: ['pinch'] },
        { recognizer: new Tap({ event: 'dblclick', taps: 2, enable: false }) },
        { recognizer: new DoubleClickDrag({ event: 'dblclickdrag', enable: false }), recognizeWith: ['dblclick'] },
        { recognizer: new Tap({ event: 'click' }), recognizeWith: ['dblclickdrag'], requireFailure: ['dblclick', 'dblclickdrag'] },
      ],
    });
    const deck = {
      eventManager: this.eventManager,
      pickMultipleObjects: (opts: { x: number; y: number; radius: number }) => this.pick(opts),
    };
    this.context = {
      deck,
      viewport: this.viewport,
      device: null,
      stats: { get: () => ({ incrementCount: () => undefined }) },
      layerManager: { getLayers: () => [], setNeedsUpdate: () => undefined },
      timeline: { addChannel: () => 0, removeChannel: () => undefined, getTime: () => 0 },
      resourceManager: null,
    };
  }

  /** What deck.gl's layer manager does with the layer a new render hands it. */
  setLayer(next: Layer | null): void {
    const layer = next as unknown as LayerInternals | null;
    if (layer === this.layer) return;
    if (!layer) {
      this.layer?._finalize();
      this.layer = null;
      return;
    }
    layer.context = this.context;
    if (this.layer && this.layer.id === layer.id) {
      layer._transferState(this.layer);
      if (layer.needsUpdate()) layer._update();
    } else {
      this.layer?._finalize();
      layer._initialize();
    }
    this.layer = layer;
  }

  finalize(): void {
    this.setLayer(null);
    this.eventManager.destroy();
    this.element.remove();
  }

  /** The pixel of a [lng, lat]. */
  project(position: Position): [number, number] {
    const [x, y] = this.viewport.project([position[0]!, position[1]!]);
    return [x!, y!];
  }

  unproject(x: number, y: number): { lat: number; lng: number } {
    const [lng, lat] = this.viewport.unproject([x, y]);
    return { lat: lat!, lng: lng! };
  }

  private near(position: Position, x: number, y: number, radius: number): boolean {
    const [px, py] = this.project(position);
    return Math.hypot(px - x, py - y) <= radius;
  }

  private pick({ x, y, radius }: { x: number; y: number; radius: number }) {
    const layer = this.layer;
    if (!layer) return [];
    const picks: { index: number; object: Feature; isGuide: boolean }[] = [];
    const guides = layer.state.mode.getGuides(layer.getModeProps(layer.props)).features;
    guides.forEach((feature, index) => {
      if (
        feature.properties?.['guideType'] === 'editHandle' &&
        feature.geometry.type === 'Point' &&
        this.near(feature.geometry.coordinates, x, y, radius)
      ) {
        picks.push({ index, object: feature, isGuide: true });
      }
    });
    layer.props.data.features.forEach((feature, index) => {
      const g = feature.geometry;
      const positions: Position[] =
        g.type === 'Point'
          ? [g.coordinates]
          : g.type === 'LineString'
            ? g.coordinates
            : g.type === 'Polygon'
              ? (g.coordinates[0] ?? [])
              : [];
      if (positions.some((p) => this.near(p, x, y, radius))) picks.push({ index, object: feature, isGuide: false });
    });
    return picks;
  }

  // ── the events a browser sends for a mouse ────────────────────────────────
  private send(type: string, x: number, y: number, buttons: number): void {
    const init = {
      clientX: x,
      clientY: y,
      bubbles: true,
      cancelable: true,
      buttons,
      button: 0,
      pointerType: 'mouse',
      isPrimary: true,
      pointerId: 1,
    };
    this.element.dispatchEvent(new PointerEvent(`pointer${type}`, init));
    this.element.dispatchEvent(new MouseEvent(`mouse${type}`, init));
  }

  move(x: number, y: number): void {
    this.send('move', x, y, 0);
  }

  /**
   * A click, the wait deck.gl's click recognizer takes to rule out a double click, and the mouse
   * moving on (as a hand's does: the recognizer settles a click it held back on the next input).
   */
  async click(x: number, y: number): Promise<void> {
    this.move(x, y);
    this.send('down', x, y, 1);
    this.send('up', x, y, 0);
    await new Promise((resolve) => setTimeout(resolve, 350));
    this.move(x, y);
  }

  /** Press at one pixel, move in small steps, release at another. */
  async drag(from: [number, number], to: [number, number], steps = 10): Promise<void> {
    this.move(...from);
    this.send('down', ...from, 1);
    for (let i = 1; i <= steps; i += 1) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      this.send('move', from[0] + ((to[0] - from[0]) * i) / steps, from[1] + ((to[1] - from[1]) * i) / steps, 1);
    }
    this.send('up', ...to, 0);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
