/**
 * While a shape is drawn, the map's other layers stay drawn but take no pointer: a click places a
 * vertex, it does not open a popup or a page (part 1 §2's marker clicks wait for the drawing's end).
 */
import { Layer, type LayersList } from '@deck.gl/core';

export function inertLayers(layers: LayersList): LayersList {
  return layers.map((layer) =>
    Array.isArray(layer) ? inertLayers(layer) : layer instanceof Layer ? layer.clone({ pickable: false }) : layer,
  );
}
