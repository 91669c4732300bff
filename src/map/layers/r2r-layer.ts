/**
 * The R2R search result on the map (part 2 §2 R2R): where the alerting vehicle was at each alert
 * of the window, delivered alerts in the alert colour, undelivered ones grey; where each receiver
 * was at that moment (its nearest trip point, GET /r2r `other_lat`/`other_lng`), a blue dot joined
 * to the alerting vehicle's by a thin line. Pure data → layers.
 */
import { LineLayer, ScatterplotLayer } from '@deck.gl/layers';
import { cssColor, type Rgba } from './overlay-style';

export interface R2RMarker {
  id: string;
  position: [number, number];
  delivered: boolean;
}

export const R2R_DELIVERED_COLOR: Rgba = [211, 47, 47, 255];
export const R2R_UNDELIVERED_COLOR: Rgba = [117, 117, 117, 255];
export const R2R_OUTLINE: Rgba = [255, 255, 255, 255];
export const R2R_RADIUS_PX = 9;

export function r2rAlertsLayer(markers: readonly R2RMarker[]): ScatterplotLayer<R2RMarker> {
  return new ScatterplotLayer<R2RMarker>({
    id: 'r2r-alerts',
    data: markers as R2RMarker[],
    getPosition: (m) => m.position,
    getFillColor: (m) => (m.delivered ? R2R_DELIVERED_COLOR : R2R_UNDELIVERED_COLOR),
    getLineColor: R2R_OUTLINE,
    getRadius: R2R_RADIUS_PX,
    radiusUnits: 'pixels',
    stroked: true,
    lineWidthMinPixels: 3,
  });
}

/** A receiver where it was at one alert, joined to where the alerting vehicle was (when known). */
export interface R2RReceiverMarker {
  id: string;
  position: [number, number];
  from: [number, number] | null;
}

export const R2R_RECEIVER_COLOR: Rgba = [25, 118, 210, 255];
export const R2R_LINK_COLOR: Rgba = [97, 97, 97, 180];
export const R2R_RECEIVER_RADIUS_PX = 7;

export function r2rReceiversLayer(markers: readonly R2RReceiverMarker[]): ScatterplotLayer<R2RReceiverMarker> {
  return new ScatterplotLayer<R2RReceiverMarker>({
    id: 'r2r-receivers',
    data: markers as R2RReceiverMarker[],
    getPosition: (m) => m.position,
    getFillColor: R2R_RECEIVER_COLOR,
    getLineColor: R2R_OUTLINE,
    getRadius: R2R_RECEIVER_RADIUS_PX,
    radiusUnits: 'pixels',
    stroked: true,
    lineWidthMinPixels: 2,
  });
}

export function r2rLinksLayer(markers: readonly R2RReceiverMarker[]): LineLayer<R2RReceiverMarker> {
  return new LineLayer<R2RReceiverMarker>({
    id: 'r2r-links',
    data: markers.filter((m) => m.from !== null),
    getSourcePosition: (m) => m.from!,
    getTargetPosition: (m) => m.position,
    getColor: R2R_LINK_COLOR,
    getWidth: 2,
    widthUnits: 'pixels',
  });
}

/** A CSS colour of this file's table (the legend's swatches). */
export const r2rCssColor = cssColor;
