/**
 * A tiny PMTiles v3 writer for tests (the `pmtiles` package only reads): uncompressed, one root
 * directory, no leaves — enough for a handful of tiles. Layout per the PMTiles v3 spec: a 127-byte
 * header, the root directory, the JSON metadata, then the tile data.
 */
import { zxyToTileId } from 'pmtiles';

export interface PmtilesTile {
  z: number;
  x: number;
  y: number;
  data: Uint8Array;
}

function varint(out: number[], value: number): void {
  let v = value;
  while (v >= 0x80) {
    out.push((v % 0x80) | 0x80);
    v = Math.floor(v / 0x80);
  }
  out.push(v);
}

/** Directory entries: ids as deltas, run lengths, lengths, then offsets (0: right after the previous). */
function directory(entries: { tileId: number; offset: number; length: number }[]): Uint8Array {
  const out: number[] = [];
  varint(out, entries.length);
  let last = 0;
  for (const e of entries) {
    varint(out, e.tileId - last);
    last = e.tileId;
  }
  for (const _ of entries) varint(out, 1);
  for (const e of entries) varint(out, e.length);
  entries.forEach((e, i) => {
    const prev = entries[i - 1];
    varint(out, prev && e.offset === prev.offset + prev.length ? 0 : e.offset + 1);
  });
  return Uint8Array.from(out);
}

export function writePmtiles(
  tiles: PmtilesTile[],
  bounds: { west: number; south: number; east: number; north: number },
  metadata: object = {},
): Uint8Array {
  const sorted = tiles.map((t) => ({ ...t, tileId: zxyToTileId(t.z, t.x, t.y) })).sort((a, b) => a.tileId - b.tileId);
  let offset = 0;
  const entries = sorted.map((t) => {
    const entry = { tileId: t.tileId, offset, length: t.data.length };
    offset += t.data.length;
    return entry;
  });
  const root = directory(entries);
  const meta = new TextEncoder().encode(JSON.stringify(metadata));
  const HEADER = 127;
  const rootOffset = HEADER;
  const metaOffset = rootOffset + root.length;
  const dataOffset = metaOffset + meta.length;
  const out = new Uint8Array(dataOffset + offset);
  const view = new DataView(out.buffer);
  out.set(new TextEncoder().encode('PMTiles'), 0);
  out[7] = 3;
  const u64 = (at: number, value: number) => view.setBigUint64(at, BigInt(value), true);
  u64(8, rootOffset);
  u64(16, root.length);
  u64(24, metaOffset);
  u64(32, meta.length);
  u64(40, dataOffset); // no leaf directories
  u64(48, 0);
  u64(56, dataOffset);
  u64(64, offset);
  u64(72, sorted.length);
  u64(80, sorted.length);
  u64(88, sorted.length);
  out[96] = 1; // clustered
  out[97] = 1; // internal compression: none
  out[98] = 1; // tile compression: none
  out[99] = 1; // tile type: MVT
  const zooms = sorted.map((t) => t.z);
  out[100] = Math.min(...zooms);
  out[101] = Math.max(...zooms);
  const e7 = (deg: number) => Math.round(deg * 1e7);
  view.setInt32(102, e7(bounds.west), true);
  view.setInt32(106, e7(bounds.south), true);
  view.setInt32(110, e7(bounds.east), true);
  view.setInt32(114, e7(bounds.north), true);
  out[118] = Math.max(...zooms);
  view.setInt32(119, e7((bounds.west + bounds.east) / 2), true);
  view.setInt32(123, e7((bounds.south + bounds.north) / 2), true);
  out.set(root, rootOffset);
  out.set(meta, metaOffset);
  sorted.forEach((t, i) => out.set(t.data, dataOffset + (entries[i] as { offset: number }).offset));
  return out;
}
