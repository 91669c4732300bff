/**
 * The trips section's map layers (part 2 §2 Trips: "Runs and their points are shown"; §9 trip
 * points shown from zoom 17) and the replay (beyond the spec): runs as paths coloured per asset,
 * their points as dots with a popup on click, the replay's fading trail (deck.gl TripsLayer) and
 * the replayed assets' markers. Pure functions of data → layers; the colours are one table.
 *
 * Replay times are seconds since the replay's origin: TripsLayer compares them on the GPU in 32-bit
 * floats, where epoch milliseconds would lose the seconds.
 */
import type { PickingInfo } from '@deck.gl/core';
import { TripsLayer } from '@deck.gl/geo-layers';
import { PathLayer, ScatterplotLayer } from '@deck.gl/layers';
import type { Trip, TripPoint } from '../../domain/trip';
import type { Rgba } from './overlay-style';

/** One colour per chosen asset (at most 5, part 2 §9), in the order the assets were picked. */
export const TRIP_COLORS: readonly Rgba[] = [
  [25, 118, 210, 255],
  [230, 81, 0, 255],
  [123, 31, 162, 255],
  [0, 137, 123, 255],
  [194, 24, 91, 255],
];
export const TRIP_POINT_OUTLINE: Rgba = [255, 255, 255, 255];
export const TRIP_PATH_WIDTH_PX = 4;
export const TRIP_PATH_ALPHA = 220;
/** The runs under the replay's trail. */
export const TRIP_PATH_DIMMED_ALPHA = 150;
export const TRIP_POINT_RADIUS_PX = 5;
export const REPLAY_MARKER_RADIUS_PX = 9;
export const REPLAY_TRAIL_WIDTH_PX = 7;
/** chosen: the replay's trail shows the last 10 minutes of trip time, fading. */
export const REPLAY_TRAIL_S = 600;

export function tripColor(index: number): Rgba {
  return TRIP_COLORS[((index % TRIP_COLORS.length) + TRIP_COLORS.length) % TRIP_COLORS.length] as Rgba;
}

/** A CSS colour of the same table (the legend's and the run list's swatches). */
export function tripCssColor(index: number): string {
  const [r, g, b] = tripColor(index);
  return `rgb(${r}, ${g}, ${b})`;
}

/** One run of one asset, ready to draw. */
export interface TripTrack {
  thingId: string;
  runId: string;
  colorIndex: number;
  /** [lng, lat] per point. */
  path: [number, number][];
  /** Seconds since the replay origin, per point. */
  times: number[];
  points: TripPoint[];
}

/** The runs of the trips (in the assets' order) as tracks; runs without two points draw no path. */
export function tripTracks(trips: readonly Trip[], origin: number): TripTrack[] {
  const tracks: TripTrack[] = [];
  trips.forEach((trip, colorIndex) => {
    for (const run of trip.runs) {
      if (run.points.length === 0) continue;
      tracks.push({
        thingId: trip.thingId,
        runId: run.runId,
        colorIndex,
        path: run.points.map((p) => [p.lng, p.lat]),
        times: run.points.map((p) => (p.timestamp - origin) / 1000),
        points: run.points,
      });
    }
  });
  return tracks;
}

/**
 * part 2 §7 GET /things/coverage on the map: every road the chosen assets drove in the range, in one
 * colour whatever the asset, wide and pale under the runs — the union a dispatcher reads for the
 * gaps ("where did our patrols not go?"). The roads come from the trips answer (the points in the
 * range); the coverage call tells which assets have points stored at all (the legend).
 */
export const COVERAGE_COLOR: Rgba = [46, 125, 50, 110];
export const COVERAGE_WIDTH_PX = 14;

export function coverageLayer(tracks: readonly TripTrack[]): PathLayer<TripTrack> {
  return new PathLayer<TripTrack>({
    id: 'trips-coverage',
    data: tracks.filter((t) => t.path.length >= 2),
    getPath: (t) => t.path,
    getColor: COVERAGE_COLOR,
    getWidth: COVERAGE_WIDTH_PX,
    widthUnits: 'pixels',
    capRounded: true,
    jointRounded: true,
  });
}

/** A CSS colour of the coverage band (its legend swatch). */
export function coverageCssColor(): string {
  const [r, g, b, a] = COVERAGE_COLOR;
  return `rgba(${r}, ${g}, ${b}, ${(a / 255).toFixed(2)})`;
}

export function tripPathsLayer(tracks: readonly TripTrack[], dimmed = false): PathLayer<TripTrack> {
  return new PathLayer<TripTrack>({
    id: 'trips-paths',
    data: tracks as TripTrack[],
    getPath: (t) => t.path,
    getColor: (t) => {
      const [r, g, b] = tripColor(t.colorIndex);
      return [r, g, b, dimmed ? TRIP_PATH_DIMMED_ALPHA : TRIP_PATH_ALPHA];
    },
    getWidth: TRIP_PATH_WIDTH_PX,
    widthUnits: 'pixels',
    capRounded: true,
    jointRounded: true,
    updateTriggers: { getColor: dimmed },
  });
}

/** A run point with what its popup shows. */
export interface TripPointMarker {
  thingId: string;
  colorIndex: number;
  point: TripPoint;
}

export function tripPointMarkers(tracks: readonly TripTrack[]): TripPointMarker[] {
  return tracks.flatMap((t) => t.points.map((point) => ({ thingId: t.thingId, colorIndex: t.colorIndex, point })));
}

/** part 2 §9: trip points are shown from zoom 17 (the page leaves this layer out below it). */
export function tripPointsLayer(
  markers: readonly TripPointMarker[],
  onClick: (marker: TripPointMarker) => void,
): ScatterplotLayer<TripPointMarker> {
  return new ScatterplotLayer<TripPointMarker>({
    id: 'trips-points',
    data: markers as TripPointMarker[],
    getPosition: (m) => [m.point.lng, m.point.lat],
    getFillColor: (m) => tripColor(m.colorIndex),
    getLineColor: TRIP_POINT_OUTLINE,
    getRadius: TRIP_POINT_RADIUS_PX,
    radiusUnits: 'pixels',
    stroked: true,
    lineWidthMinPixels: 1.5,
    pickable: true,
    onClick: (info: PickingInfo<TripPointMarker>) => {
      if (!info.object) return false;
      onClick(info.object);
      return true;
    },
  });
}

/** The replay's fading trail at `currentS` seconds since the origin. */
export function replayTrailLayer(tracks: readonly TripTrack[], currentS: number): TripsLayer<TripTrack> {
  return new TripsLayer<TripTrack>({
    id: 'trips-replay',
    data: tracks as TripTrack[],
    getPath: (t) => t.path,
    getTimestamps: (t) => t.times,
    getColor: (t) => tripColor(t.colorIndex),
    getWidth: REPLAY_TRAIL_WIDTH_PX,
    widthUnits: 'pixels',
    capRounded: true,
    jointRounded: true,
    fadeTrail: true,
    trailLength: REPLAY_TRAIL_S,
    currentTime: currentS,
  });
}

/** A replayed asset where the clock stands. */
export interface ReplayMarker {
  thingId: string;
  colorIndex: number;
  position: [number, number];
}

export function replayMarkersLayer(markers: readonly ReplayMarker[]): ScatterplotLayer<ReplayMarker> {
  return new ScatterplotLayer<ReplayMarker>({
    id: 'trips-replay-marker',
    data: markers as ReplayMarker[],
    getPosition: (m) => m.position,
    getFillColor: (m) => tripColor(m.colorIndex),
    getLineColor: TRIP_POINT_OUTLINE,
    getRadius: REPLAY_MARKER_RADIUS_PX,
    radiusUnits: 'pixels',
    stroked: true,
    lineWidthMinPixels: 3,
  });
}

/** part 2 §2 Trips live path: the chosen asset's trail since the page opened, and where it is now. */
export const LIVE_PATH_COLOR: Rgba = TRIP_COLORS[0] as Rgba;
export const LIVE_HEAD_RADIUS_PX = 8;

export interface LivePathData {
  path: [number, number][];
}

export function livePathLayers(
  points: readonly { lng: number; lat: number }[],
): [PathLayer<LivePathData>, ScatterplotLayer<[number, number]>] {
  const path = points.map((p): [number, number] => [p.lng, p.lat]);
  const head = path.at(-1);
  return [
    new PathLayer<LivePathData>({
      id: 'trips-live-path',
      data: path.length >= 2 ? [{ path }] : [],
      getPath: (d) => d.path,
      getColor: LIVE_PATH_COLOR,
      getWidth: TRIP_PATH_WIDTH_PX,
      widthUnits: 'pixels',
      capRounded: true,
      jointRounded: true,
    }),
    new ScatterplotLayer<[number, number]>({
      id: 'trips-live-head',
      data: head ? [head] : [],
      getPosition: (d) => d,
      getFillColor: LIVE_PATH_COLOR,
      getLineColor: TRIP_POINT_OUTLINE,
      getRadius: LIVE_HEAD_RADIUS_PX,
      radiusUnits: 'pixels',
      stroked: true,
      lineWidthMinPixels: 3,
    }),
  ];
}
