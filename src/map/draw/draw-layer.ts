/**
 * The drawing's deck.gl layer: the editable layer of @deck.gl-community/editable-layers over the
 * session's features. The library hears the pointer through deck.gl's event manager and picks its
 * own handles; the session only receives its edits.
 */
import { EditableGeoJsonLayer } from '@deck.gl-community/editable-layers';
import type { FeatureCollection } from 'geojson';
import type { DrawSession } from './draw-session';

export const DRAW_LAYER_ID = 'drawing';

/** The drawn shape's colours: an amber outline (the light bars'), lightly filled. */
const LINE_COLOR: [number, number, number, number] = [255, 152, 0, 255];
const FILL_COLOR: [number, number, number, number] = [255, 152, 0, 60];
const HANDLE_COLOR: [number, number, number, number] = [255, 255, 255, 255];
/** Vertex handles big enough to grab with a finger (px). */
const HANDLE_RADIUS_PX = 7;

export function drawLayer(session: DrawSession): EditableGeoJsonLayer {
  return new EditableGeoJsonLayer({
    id: DRAW_LAYER_ID,
    data: session.data as never,
    mode: session.mode,
    // The forms show their own measures (sq mi, metres): the library's kilometre tooltips are silenced.
    modeConfig: { formatTooltip: () => '' },
    selectedFeatureIndexes: session.phase === 'editing' ? [0] : [],
    onEdit: ({ updatedData, editType }: { updatedData: FeatureCollection; editType: string }) => session.edit({ updatedData, editType }),
    getLineColor: LINE_COLOR,
    getFillColor: FILL_COLOR,
    getTentativeLineColor: LINE_COLOR,
    getTentativeFillColor: FILL_COLOR,
    getEditHandlePointColor: HANDLE_COLOR,
    getEditHandlePointOutlineColor: LINE_COLOR,
    editHandlePointRadiusMinPixels: HANDLE_RADIUS_PX,
    editHandlePointRadiusMaxPixels: HANDLE_RADIUS_PX,
    lineWidthMinPixels: 2,
    pointRadiusMinPixels: HANDLE_RADIUS_PX,
  });
}
