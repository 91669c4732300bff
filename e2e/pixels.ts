/**
 * Reading screenshots back: headless Chromium draws the map's WebGL in software, so the specs check
 * what was drawn by the colours of a screenshot's pixels. The PNG is decoded here in the test, so
 * reading pixels costs the busy page nothing. Every spec reads pixels through this one module.
 */
import zlib from 'node:zlib';
import { expect, type Page } from '@playwright/test';

export type Rgb = readonly [number, number, number];

export interface Pixels {
  width: number;
  height: number;
  /** RGBA */
  data: Uint8Array;
}

/** Decodes a Playwright screenshot (PNG, 8-bit RGB or RGBA, not interlaced). */
export function decodePng(png: Buffer): Pixels {
  let offset = 8;
  let width = 0;
  let height = 0;
  let channels = 4;
  const idat: Buffer[] = [];
  while (offset < png.length) {
    const length = png.readUInt32BE(offset);
    const type = png.toString('ascii', offset + 4, offset + 8);
    const body = png.subarray(offset + 8, offset + 8 + length);
    if (type === 'IHDR') {
      width = body.readUInt32BE(0);
      height = body.readUInt32BE(4);
      if (body[8] !== 8 || body[12] !== 0) throw new Error('only 8-bit, non-interlaced PNGs');
      channels = body[9] === 6 ? 4 : body[9] === 2 ? 3 : 0;
      if (!channels) throw new Error('only RGB and RGBA PNGs');
    } else if (type === 'IDAT') idat.push(body);
    else if (type === 'IEND') break;
    offset += 12 + length;
  }
  const raw = zlib.inflateSync(Buffer.concat(idat));
  const stride = width * channels;
  const out = new Uint8Array(width * height * 4);
  const line = new Uint8Array(stride);
  const prev = new Uint8Array(stride);
  for (let y = 0; y < height; y += 1) {
    const filter = raw[y * (stride + 1)]!;
    const row = raw.subarray(y * (stride + 1) + 1, (y + 1) * (stride + 1));
    for (let i = 0; i < stride; i += 1) {
      const a = i >= channels ? line[i - channels]! : 0;
      const b = prev[i]!;
      const c = i >= channels ? prev[i - channels]! : 0;
      let predictor = 0;
      if (filter === 1) predictor = a;
      else if (filter === 2) predictor = b;
      else if (filter === 3) predictor = (a + b) >> 1;
      else if (filter === 4) {
        const p = a + b - c;
        const pa = Math.abs(p - a);
        const pb = Math.abs(p - b);
        const pc = Math.abs(p - c);
        predictor = pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
      }
      line[i] = (row[i]! + predictor) & 0xff;
    }
    for (let x = 0; x < width; x += 1) {
      const o = (y * width + x) * 4;
      out[o] = line[x * channels]!;
      out[o + 1] = line[x * channels + 1]!;
      out[o + 2] = line[x * channels + 2]!;
      out[o + 3] = channels === 4 ? line[x * channels + 3]! : 255;
    }
    prev.set(line);
  }
  return { width, height, data: out };
}

/** The colour at (x, y), rounded to a pixel and clamped to the image. */
export function colourAt(pixels: Pixels, x: number, y: number): Rgb {
  const px = Math.min(pixels.width - 1, Math.max(0, Math.round(x)));
  const py = Math.min(pixels.height - 1, Math.max(0, Math.round(y)));
  const i = 4 * (py * pixels.width + px);
  return [pixels.data[i]!, pixels.data[i + 1]!, pixels.data[i + 2]!];
}

/** Each channel of `a` within `tolerance` of `b`'s. */
export function colourNear(a: readonly number[], b: readonly number[], tolerance: number): boolean {
  return Math.abs(a[0]! - b[0]!) <= tolerance && Math.abs(a[1]! - b[1]!) <= tolerance && Math.abs(a[2]! - b[2]!) <= tolerance;
}

/** Pixels within `radius` of (x, y) (a square; none outside the image) whose colour is within `tolerance` of `color`. */
export function pixelsNear(pixels: Pixels, x: number, y: number, radius: number, color: readonly number[], tolerance: number): number {
  let n = 0;
  for (let dy = -radius; dy <= radius; dy += 1) {
    for (let dx = -radius; dx <= radius; dx += 1) {
      const px = Math.round(x) + dx;
      const py = Math.round(y) + dy;
      if (px < 0 || py < 0 || px >= pixels.width || py >= pixels.height) continue;
      if (colourNear(colourAt(pixels, px, py), color, tolerance)) n += 1;
    }
  }
  return n;
}

/**
 * Screenshots of the page until `drawn` holds for one, which is answered: a frame can take seconds
 * in software WebGL on a busy machine, so a spec reads the screen until what it checks is there
 * (then asserts on that screenshot) instead of waiting a fixed time.
 */
export async function screenshotUntil(page: Page, drawn: (shot: Buffer) => boolean, timeout = 60_000): Promise<Buffer> {
  let shot: Buffer = Buffer.alloc(0);
  await expect
    .poll(
      async () => {
        shot = await page.screenshot();
        return drawn(shot);
      },
      { timeout },
    )
    .toBe(true);
  return shot;
}
