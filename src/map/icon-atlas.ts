/**
 * The assets layer's pre-packed icon atlas (part 1 §2 Map: icons by asset
 * type, status and size, out of service marked). One cell per icon index of the live diff
 * (`src/domain/live-diff.ts`: type × status, + ICON_OOS_OFFSET when out of service) and per size,
 * drawn once at start on a canvas. The layer's shader finds a cell from the per-instance icon
 * index with the same arithmetic as `iconCell` below, so nothing is mapped per asset in JavaScript.
 */
import { ASSET_STATUS, type AssetStatus } from '../domain/asset-status';
import { ASSET_TYPES } from '../domain/constants';
import { ICON_SIZES, type IconSize } from '../domain/icon-size';
import { decodeIcon, ICON_COUNT, ICON_UNKNOWN_TYPE } from '../domain/live-diff';

/** Cells per atlas row. */
export const ATLAS_COLUMNS = 16;
/** Rows one size takes: every icon index once. */
export const ATLAS_ROWS_PER_SIZE = Math.ceil(ICON_COUNT / ATLAS_COLUMNS);
/** Texture pixels per cell (the large icon drawn at twice its screen size fills it). */
export const ATLAS_CELL_PX = 80;
/** Texture pixels per screen pixel: icons are drawn at twice their size for sharp edges on high-density screens. */
export const ATLAS_SCALE = 2;

/** Screen size of an icon (CSS pixels) per size class (part 1 §2: small, medium, large; the pixels are ours, docs/decisions/spec.md "Values the spec does not give"). */
export const ICON_PIXELS: Readonly<Record<IconSize, number>> = { small: 18, medium: 26, large: 36 };

export const ATLAS_WIDTH = ATLAS_COLUMNS * ATLAS_CELL_PX;
export const ATLAS_HEIGHT = ATLAS_ROWS_PER_SIZE * ICON_SIZES.length * ATLAS_CELL_PX;

/** Fill colour per drawn status (location … offline), RGB. Chosen for contrast on the basemap (docs/decisions/spec.md "Values the spec does not give"). */
export const STATUS_COLORS: readonly (readonly [number, number, number])[] = [
  [211, 47, 47], // location: active at an incident location — red
  [245, 124, 0], // active — orange
  [46, 125, 50], // standby — green
  [21, 101, 192], // stationary — blue
  [142, 36, 170], // pending — purple
  [117, 117, 117], // offline — grey
];

/** The letter drawn on an icon of a type (ASSET_TYPES order, then the unknown type). */
export const TYPE_GLYPHS: readonly string[] = ['P', 'F', 'A', 'B', 'M', 'T', 'W', '?'];
/** Types drawn as rounded squares (equipment); the rest (responders, unknown) are circles. */
const SQUARE_TYPES = new Set<string>(['arrow_board', 'maintenance', 'tow', 'waste']);

export function sizeIndexOf(size: IconSize): number {
  return ICON_SIZES.indexOf(size);
}

export interface AtlasCell {
  /** Top-left corner of the cell in texture pixels. */
  x: number;
  y: number;
  /** The icon's square frame inside the cell (centred), texture pixels. */
  frameX: number;
  frameY: number;
  frameSize: number;
}

/** The atlas cell of an icon index at a size. The shader (assets-layer.ts) computes the same. */
export function iconCell(index: number, size: IconSize): AtlasCell {
  const column = index % ATLAS_COLUMNS;
  const row = Math.floor(index / ATLAS_COLUMNS) + sizeIndexOf(size) * ATLAS_ROWS_PER_SIZE;
  const x = column * ATLAS_CELL_PX;
  const y = row * ATLAS_CELL_PX;
  const frameSize = ICON_PIXELS[size] * ATLAS_SCALE;
  const inset = (ATLAS_CELL_PX - frameSize) / 2;
  return { x, y, frameX: x + inset, frameY: y + inset, frameSize };
}

export interface IconLook {
  color: readonly [number, number, number];
  glyph: string;
  shape: 'circle' | 'square';
  outOfService: boolean;
  status: AssetStatus;
}

/** What an icon index looks like (the drawing below and the tests read it). */
export function iconLook(index: number): IconLook {
  const { typeIndex, status, outOfService } = decodeIcon(index);
  const drawn = Math.min(status, ASSET_STATUS.offline) as AssetStatus;
  const typeName = typeIndex < ICON_UNKNOWN_TYPE ? ASSET_TYPES[typeIndex] : undefined;
  return {
    color: STATUS_COLORS[drawn] ?? STATUS_COLORS[ASSET_STATUS.offline]!,
    glyph: TYPE_GLYPHS[Math.min(typeIndex, ICON_UNKNOWN_TYPE)] ?? '?',
    shape: typeName && SQUARE_TYPES.has(typeName) ? 'square' : 'circle',
    outOfService,
    status: drawn,
  };
}

/** The part of CanvasRenderingContext2D the drawing uses (a test can pass a recorder). */
export type AtlasContext = Pick<
  CanvasRenderingContext2D,
  'clearRect' | 'beginPath' | 'arc' | 'roundRect' | 'fill' | 'stroke' | 'fillText' | 'moveTo' | 'lineTo' | 'closePath'
> & {
  fillStyle: CanvasRenderingContext2D['fillStyle'];
  strokeStyle: CanvasRenderingContext2D['strokeStyle'];
  lineWidth: number;
  font: string;
  textAlign: CanvasTextAlign;
  textBaseline: CanvasTextBaseline;
};

const rgb = (c: readonly [number, number, number]) => `rgb(${c[0]},${c[1]},${c[2]})`;

/** Draws one icon into its cell. */
export function drawIcon(ctx: AtlasContext, index: number, size: IconSize): void {
  const look = iconLook(index);
  const { frameX, frameY, frameSize } = iconCell(index, size);
  const border = Math.max(2, frameSize * 0.08);
  const r = frameSize / 2 - border;
  const cx = frameX + frameSize / 2;
  const cy = frameY + frameSize / 2;
  ctx.beginPath();
  if (look.shape === 'circle') ctx.arc(cx, cy, r, 0, 2 * Math.PI);
  else ctx.roundRect(cx - r, cy - r, 2 * r, 2 * r, r * 0.35);
  ctx.fillStyle = rgb(look.color);
  ctx.fill();
  ctx.lineWidth = border;
  ctx.strokeStyle = '#ffffff';
  ctx.stroke();
  // The small size is a plain dot: a letter would not read at that size.
  if (size !== 'small') {
    ctx.fillStyle = '#ffffff';
    ctx.font = `bold ${Math.round(r * 1.05)}px sans-serif`;
    ctx.textAlign = 'center';
    ctx.textBaseline = 'middle';
    ctx.fillText(look.glyph, cx, cy + r * 0.05);
  }
  if (look.outOfService) {
    // Out of service: a black badge with a white bar in the top-right corner (the fill stays visible).
    const br = frameSize * 0.2;
    const bx = frameX + frameSize - br;
    const by = frameY + br;
    ctx.beginPath();
    ctx.arc(bx, by, br, 0, 2 * Math.PI);
    ctx.fillStyle = '#000000';
    ctx.fill();
    ctx.beginPath();
    ctx.moveTo(bx - br * 0.6, by);
    ctx.lineTo(bx + br * 0.6, by);
    ctx.closePath();
    ctx.lineWidth = Math.max(1.5, br * 0.4);
    ctx.strokeStyle = '#ffffff';
    ctx.stroke();
  }
}

/** Draws every icon at every size. */
export function drawIconAtlas(ctx: AtlasContext): void {
  ctx.clearRect(0, 0, ATLAS_WIDTH, ATLAS_HEIGHT);
  for (const size of ICON_SIZES) {
    for (let index = 0; index < ICON_COUNT; index += 1) drawIcon(ctx, index, size);
  }
}

let shared: HTMLCanvasElement | OffscreenCanvas | null = null;

/** The atlas canvas, drawn once per page (every assets layer shares it). */
export function iconAtlasCanvas(): HTMLCanvasElement | OffscreenCanvas {
  if (shared) return shared;
  const canvas: HTMLCanvasElement | OffscreenCanvas =
    typeof document !== 'undefined'
      ? Object.assign(document.createElement('canvas'), { width: ATLAS_WIDTH, height: ATLAS_HEIGHT })
      : new OffscreenCanvas(ATLAS_WIDTH, ATLAS_HEIGHT);
  const ctx = canvas.getContext('2d') as AtlasContext | null;
  if (!ctx) throw new Error('The icon atlas needs a 2D canvas');
  drawIconAtlas(ctx);
  shared = canvas;
  return canvas;
}
