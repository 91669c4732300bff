/**
 * One drawing on the map, from a form's request to its end: the features the editable layer
 * draws, its mode, and what the form is told. Kept outside React (CONVENTIONS §3); the layer
 * (draw-layer.ts) renders it and feeds it the library's edits, the hook (use-draw-layer.ts) its keys.
 *
 * A new shape is drawn first (clicks add its points; a polygon closes on its first point or a
 * double click, a path on its last point or a double click; a point takes one click, a circle its
 * centre then its edge); once closed it is edited: dragging a vertex moves it (a circle's edge
 * resizes it). Enter finishes — the shape in progress when it has its points (a polygon with
 * fewer than 3 is refused, part 2 §5), else the edited one; Escape cancels.
 */
import type { FeatureCollection } from 'geojson';
import type { Geometry } from '../../domain/geometry';
import { drawModeFor, editModeFor, type DrawMode } from './draw-modes';
import { featureFromShape, shapeFromClicks, shapeFromFeature, type DrawKind } from './draw-shape';

/** What a form asks of the map: a shape of `kind` drawn (or `initial` edited), told as it changes and when done. */
export interface DrawingRequest {
  kind: DrawKind;
  /** An existing shape to edit (of `kind`); none: a new one is drawn. */
  initial?: Geometry | null;
  /** Each change of the shape: null while it has too few points (a live area readout follows it). */
  onChange?: (shape: Geometry | null) => void;
  /** Enter with a complete shape. */
  onDone: (shape: Geometry) => void;
  /** Escape. */
  onCancel: () => void;
  /**
   * Set by the map while the drawing is on it: finishes it as Enter does (false: the shape is not
   * complete yet). A form's Finish button calls it, so a drawing ends by touch too.
   */
  finish?: () => boolean;
}

export type DrawPhase = 'drawing' | 'editing';

/** The editable layer's report of an edit (its `onEdit` argument, as far as the session reads it). */
export interface DrawEdit {
  updatedData: FeatureCollection;
  editType: string;
}

const EMPTY: FeatureCollection = { type: 'FeatureCollection', features: [] };

export class DrawSession {
  readonly kind: DrawKind;
  phase: DrawPhase;
  data: FeatureCollection;
  mode: DrawMode;
  /** Counts changes, for whoever renders the session. */
  version = 0;
  private ended = false;
  private last: string | null = null;
  private readonly listeners = new Set<() => void>();

  constructor(private readonly request: DrawingRequest) {
    this.kind = request.kind;
    const initial = request.initial && request.initial.kind === request.kind ? request.initial : null;
    if (initial) {
      this.phase = 'editing';
      this.data = { type: 'FeatureCollection', features: [featureFromShape(initial)] };
      this.mode = editModeFor(this.kind);
      this.last = JSON.stringify(initial);
    } else {
      this.phase = 'drawing';
      this.data = EMPTY;
      this.mode = drawModeFor(this.kind);
    }
  }

  subscribe(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** The shape now: the closed one, else the one the clicks so far make (null with too few). */
  shape(): Geometry | null {
    if (this.phase === 'editing') return shapeFromFeature(this.kind, this.data.features[0]);
    return shapeFromClicks(this.kind, this.mode.getClickSequence());
  }

  /** The editable layer's edits: a click added a point, the shape closed, a vertex moved. */
  edit({ updatedData, editType }: DrawEdit): void {
    // A pointer move's tentative shape changes nothing of the data (the layer draws it itself); one
    // arriving from the drawing mode's layer after the shape closed (before React re-rendered) would
    // even hand back the data from before the close.
    if (this.ended || editType === 'updateTentativeFeature') return;
    if (this.phase === 'drawing' && editType === 'addFeature') {
      // The shape closed: it alone is kept, and edited from now on.
      const feature = updatedData.features.at(-1);
      if (feature) {
        this.phase = 'editing';
        this.data = { type: 'FeatureCollection', features: [feature] };
        this.mode = editModeFor(this.kind);
      }
    } else if (this.phase === 'editing') {
      this.data = updatedData;
    }
    this.changed();
  }

  /** Enter: done when the shape is complete (true); refused otherwise (false), the drawing goes on. */
  finish(): boolean {
    if (this.ended) return false;
    const shape = this.shape();
    if (!shape) return false;
    this.ended = true;
    this.request.onDone(shape);
    return true;
  }

  /** Escape. */
  cancel(): void {
    if (this.ended) return;
    this.ended = true;
    this.request.onCancel();
  }

  private changed(): void {
    this.version += 1;
    const shape = this.shape();
    const key = shape ? JSON.stringify(shape) : null;
    if (key !== this.last) {
      this.last = key;
      this.request.onChange?.(shape);
    }
    for (const listener of this.listeners) listener();
  }
}
