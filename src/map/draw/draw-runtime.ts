/**
 * What a drawing runs on, loaded on the first drawing (use-draw-layer.ts): the editable layer and
 * its modes bring @deck.gl-community/editable-layers and its turf helpers, ~0.65 MB minified,
 * which a page that never draws does not load.
 */
export { DrawSession } from './draw-session';
export { drawLayer } from './draw-layer';
