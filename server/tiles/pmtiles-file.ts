/**
 * A self-hosted PMTiles basemap (BASEMAP_PMTILES, docs/map.md "Basemap"): one file an operator downloads
 * once for the region, read by the browser's PMTiles reader with HTTP range requests. The server
 * only checks the file's header at start and answers byte ranges of it (RFC 9110 §14).
 */
import fs from 'node:fs';

/** PMTiles v3 header: the magic "PMTiles" then the spec version byte (3). */
const MAGIC = 'PMTiles';
export const PMTILES_HEADER_BYTES = 127;

export interface PmtilesFile {
  path: string;
  size: number;
  /** Changes when the file is replaced: the browser's reader checks it between range requests. */
  etag: string;
}

/**
 * Opens the file and checks it is PMTiles v3; a missing or corrupt file gives the reason instead
 * (the caller logs it once and the map falls back to the demo tiles).
 */
export async function openPmtiles(filePath: string): Promise<PmtilesFile | { error: string }> {
  let handle: fs.promises.FileHandle;
  try {
    handle = await fs.promises.open(filePath, 'r');
  } catch (error) {
    return { error: `cannot open ${filePath}: ${(error as NodeJS.ErrnoException).code ?? String(error)}` };
  }
  try {
    const stat = await handle.stat();
    const header = Buffer.alloc(PMTILES_HEADER_BYTES);
    const { bytesRead } = await handle.read(header, 0, PMTILES_HEADER_BYTES, 0);
    if (bytesRead < PMTILES_HEADER_BYTES || header.toString('latin1', 0, 7) !== MAGIC)
      return { error: `${filePath} is not a PMTiles file` };
    if (header[7] !== 3) return { error: `${filePath} is PMTiles version ${header[7]}; version 3 is needed` };
    return { path: filePath, size: stat.size, etag: `"${stat.size.toString(16)}-${Math.floor(stat.mtimeMs).toString(16)}"` };
  } finally {
    await handle.close();
  }
}

export type ByteRange = { start: number; end: number };

/**
 * One byte range from a Range header (`bytes=a-b`, `bytes=a-`, `bytes=-n`), clamped to the file;
 * null: no usable Range (answer the whole file); 'unsatisfiable': 416. Several ranges are not
 * needed by the PMTiles reader: only the first is answered.
 */
export function parseRange(header: string | undefined, size: number): ByteRange | null | 'unsatisfiable' {
  if (!header) return null;
  const match = /^bytes=(\d*)-(\d*)/.exec(header.trim());
  if (!match) return null;
  const [, from = '', to = ''] = match;
  if (from === '' && to === '') return null;
  if (from === '') {
    const suffix = Number(to);
    if (suffix === 0) return 'unsatisfiable';
    return { start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(from);
  const end = to === '' ? size - 1 : Math.min(Number(to), size - 1);
  if (start >= size || end < start) return 'unsatisfiable';
  return { start, end };
}

/** The bytes of a range, streamed from the file (a whole regional file is never held in memory). */
export function rangeStream(file: PmtilesFile, range: ByteRange): fs.ReadStream {
  return fs.createReadStream(file.path, { start: range.start, end: range.end });
}
