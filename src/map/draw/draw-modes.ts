/**
 * The editable layer's modes the drawing uses, one per kind and phase. They are the library's own
 * (@deck.gl-community/editable-layers) with two changes, both for the session's keys:
 * - no mode answers a key itself: Escape and Enter are the drawing session's, listened to on the
 *   document (the library only hears keys while its canvas has the focus, and its Enter would
 *   close a polygon of fewer than 3 points — turf throws on such a ring);
 * - a double click closes a polygon only once it has its 3 points (part 2 §5);
 * - a circle's first click (its centre) is told as an edit, as every click of the other kinds is.
 */
import {
  DrawCircleFromCenterMode,
  DrawLineStringMode,
  DrawPointMode,
  DrawPolygonMode,
  ModifyMode,
  ResizeCircleMode,
} from '@deck.gl-community/editable-layers';
import type { Position } from 'geojson';
import { DRAW_MIN_POINTS, type DrawKind } from './draw-shape';

/** A mode as the session sees it (the layer takes the mode itself): the clicks of the shape in progress. */
export interface DrawMode {
  getClickSequence(): Position[];
}

class PointDrawMode extends DrawPointMode {
  override handleKeyUp(): void {}
}

class LineDrawMode extends DrawLineStringMode {
  override handleKeyUp(): void {}
}

class PolygonDrawMode extends DrawPolygonMode {
  override handleKeyUp(): void {}
  override handleDoubleClick(...args: Parameters<DrawPolygonMode['handleDoubleClick']>): void {
    if (this.getClickSequence().length >= DRAW_MIN_POINTS.polygon) super.handleDoubleClick(...args);
  }
}

class CircleDrawMode extends DrawCircleFromCenterMode {
  override handleKeyUp(): void {}
  /** The library tells nothing of a circle's first click (its centre): it is told as a point added, as a polygon's are. */
  override handleClick(...args: Parameters<DrawCircleFromCenterMode['handleClick']>): void {
    super.handleClick(...args);
    const [event, props] = args;
    if (this.getClickSequence().length === 1) {
      props.onEdit({ updatedData: props.data, editType: 'addTentativePosition', editContext: { position: event.mapCoords } });
    }
  }
}

class VertexEditMode extends ModifyMode {
  override handleKeyUp(): void {}
}

class CircleEditMode extends ResizeCircleMode {
  override handleKeyUp(): void {}
}

/** A new mode for drawing a shape of `kind` (a mode keeps the clicks of the shape in progress). */
export function drawModeFor(kind: DrawKind): DrawMode {
  switch (kind) {
    case 'point':
      return new PointDrawMode();
    case 'line':
      return new LineDrawMode();
    case 'polygon':
      return new PolygonDrawMode();
    case 'circle':
      return new CircleDrawMode();
  }
}

/** A new mode for editing a drawn shape: its vertices move (a circle's edge resizes it about its centre). */
export function editModeFor(kind: DrawKind): DrawMode {
  return kind === 'circle' ? new CircleEditMode() : new VertexEditMode();
}
