/**
 * The shown runs as files road agencies' tools read (beyond the spec; part 2 §3 Trip runs and
 * points): GPX 1.1 (one track per asset, one segment per run, each point's position and time —
 * GPX 1.1 has no speed element) and GeoJSON (one LineString feature per run, the asset, run,
 * times and speeds as properties).
 */
import type { Trip } from './trip';

function escapeXml(text: string): string {
  return text.replace(/[<>&'"]/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', "'": '&apos;', '"': '&quot;' })[c] as string);
}

/** GPX 1.1 text of the trips; `names` gives each asset's shown name. */
export function tripsToGpx(trips: readonly Trip[], names: ReadonlyMap<string, string>): string {
  const tracks = trips
    .map((trip) => {
      const segments = trip.runs
        .filter((run) => run.points.length > 0)
        .map(
          (run) =>
            `    <trkseg>\n${run.points
              .map((p) => `      <trkpt lat="${p.lat}" lon="${p.lng}"><time>${new Date(p.timestamp).toISOString()}</time></trkpt>`)
              .join('\n')}\n    </trkseg>`,
        )
        .join('\n');
      return `  <trk>\n    <name>${escapeXml(names.get(trip.thingId) ?? trip.thingId)}</name>\n${segments}\n  </trk>`;
    })
    .join('\n');
  return `<?xml version="1.0" encoding="UTF-8"?>\n<gpx version="1.1" creator="Lightbar" xmlns="http://www.topografix.com/GPX/1/1">\n${tracks}\n</gpx>\n`;
}

/** A GeoJSON FeatureCollection of the runs (positions [lng, lat], RFC 7946). */
export function tripsToGeoJson(trips: readonly Trip[], names: ReadonlyMap<string, string>) {
  return {
    type: 'FeatureCollection' as const,
    features: trips.flatMap((trip) =>
      trip.runs
        .filter((run) => run.points.length > 0)
        .map((run) => ({
          type: 'Feature' as const,
          geometry: { type: 'LineString' as const, coordinates: run.points.map((p) => [p.lng, p.lat]) },
          properties: {
            thing_id: trip.thingId,
            name: names.get(trip.thingId) ?? trip.thingId,
            run_id: run.runId,
            run_start: new Date(run.runStart).toISOString(),
            run_end: run.runEnd === null ? null : new Date(run.runEnd).toISOString(),
            is_active: run.isActive,
            times: run.points.map((p) => new Date(p.timestamp).toISOString()),
            speeds: run.points.map((p) => p.speed),
          },
        })),
    ),
  };
}
