/**
 * The offline basemap's data (ARCHITECTURE "Embedded default"), apart from its layers so that the
 * basemap worker (src/map/basemap.worker.ts) builds it without loading deck.gl: the bundled
 * TopoJSON of world-atlas (land, countries) and us-atlas (states, counties) decoded into outlines,
 * and the land triangulated once into the binary form deck.gl's SolidPolygonLayer draws as it is.
 * Decoding the two files and triangulating the land took 0.4–0.65 s of a page's main thread at every
 * load on a 2-core machine (docs/decisions/design.md); the worker does it beside the page.
 */
import earcut, { flatten } from 'earcut';
import type { Feature, FeatureCollection, GeoJsonProperties, Geometry, MultiLineString, Position } from 'geojson';
import { feature, mesh } from 'topojson-client';
import type { GeometryCollection, Topology } from 'topojson-specification';

/**
 * The land's polygons as one mesh: `positions` [lng, lat] of every ring's vertices, polygon after
 * polygon; `startIndices` the first vertex of each polygon; `indices` its triangles (earcut), as
 * vertex numbers in `positions`.
 */
export interface LandMesh {
  polygons: number;
  startIndices: Uint32Array;
  positions: Float64Array;
  indices: Uint32Array;
}

export interface BasemapData {
  land: LandMesh;
  countries: MultiLineString;
  states: MultiLineString;
  counties: MultiLineString;
}

/** Where the two bundled TopoJSON files are served (absolute URLs: the worker resolves nothing against the page). */
export interface BasemapUrls {
  world: string;
  us: string;
}

type Objects = Record<string, GeometryCollection>;

function featureCollection(topology: Topology<Objects>, name: string): FeatureCollection {
  const object = topology.objects[name];
  if (!object) throw new Error(`The basemap has no '${name}'`);
  const result = feature(topology, object) as FeatureCollection | Feature<Geometry, GeoJsonProperties>;
  return result.type === 'FeatureCollection' ? result : { type: 'FeatureCollection', features: [result] };
}

/** Shared borders once (a mesh), not each polygon's ring: half the segments, no double lines. */
function borders(topology: Topology<Objects>, name: string, interior: boolean): MultiLineString {
  const object = topology.objects[name];
  if (!object) throw new Error(`The basemap has no '${name}'`);
  return interior ? mesh(topology, object, (a, b) => a !== b) : mesh(topology, object);
}

/** Every polygon (its rings: the outer one, then its holes) of the collection's Polygon and MultiPolygon features. */
function polygonsOf(collection: FeatureCollection): Position[][][] {
  const polygons: Position[][][] = [];
  for (const { geometry } of collection.features) {
    if (geometry?.type === 'Polygon') polygons.push(geometry.coordinates);
    else if (geometry?.type === 'MultiPolygon') polygons.push(...geometry.coordinates);
  }
  return polygons;
}

/** The polygons of `collection` triangulated into one LandMesh (pure). */
export function triangulateLand(collection: FeatureCollection): LandMesh {
  const flat = polygonsOf(collection).map((rings) => {
    const { vertices, holes } = flatten(rings);
    return { vertices, triangles: earcut(vertices, holes, 2) };
  });
  const vertexCount = flat.reduce((sum, polygon) => sum + polygon.vertices.length / 2, 0);
  const indexCount = flat.reduce((sum, polygon) => sum + polygon.triangles.length, 0);
  const land: LandMesh = {
    polygons: flat.length,
    startIndices: new Uint32Array(flat.length),
    positions: new Float64Array(vertexCount * 2),
    indices: new Uint32Array(indexCount),
  };
  let vertex = 0;
  let index = 0;
  flat.forEach(({ vertices, triangles }, polygon) => {
    land.startIndices[polygon] = vertex;
    land.positions.set(vertices, vertex * 2);
    for (const corner of triangles) land.indices[index++] = vertex + corner;
    vertex += vertices.length / 2;
  });
  return land;
}

/** The offline basemap from the two TopoJSON files (pure: tested with the bundled files). */
export function basemapFromTopology(world: Topology<Objects>, us: Topology<Objects>): BasemapData {
  return {
    land: triangulateLand(featureCollection(world, 'land')),
    countries: borders(world, 'countries', true),
    states: borders(us, 'states', true),
    counties: borders(us, 'counties', true),
  };
}

/** Fetches the two files and builds the basemap from them; an answer that is not 2xx rejects, naming the file. */
export async function fetchBasemap(
  urls: BasemapUrls,
  fetcher: typeof fetch = (input, init) => globalThis.fetch(input, init),
): Promise<BasemapData> {
  const get = async (url: string) => {
    const response = await fetcher(url);
    if (!response.ok) throw new Error(`basemap ${url}: HTTP ${response.status}`);
    return (await response.json()) as Topology<Objects>;
  };
  const [world, us] = await Promise.all([get(urls.world), get(urls.us)]);
  return basemapFromTopology(world, us);
}

/** The land mesh's buffers, moved (not copied) when the worker posts the basemap. */
export function basemapTransferables(data: BasemapData): ArrayBuffer[] {
  const { startIndices, positions, indices } = data.land;
  return [startIndices.buffer, positions.buffer, indices.buffer] as ArrayBuffer[];
}

/** What the basemap worker answers: the basemap, or why it could not build it. */
export type BasemapWorkerReply = { ok: true; data: BasemapData } | { ok: false; error: string };
