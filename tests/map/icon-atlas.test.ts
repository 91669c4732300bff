/**
 * The icon atlas (part 1 §2: icons by asset type, status and size, out of
 * service marked): the index → cell mapping and what each cell shows.
 */
import { describe, expect, it } from 'vitest';
import { ASSET_STATUS } from '../../src/domain/asset-status';
import { ASSET_TYPES } from '../../src/domain/constants';
import { ICON_SIZES } from '../../src/domain/icon-size';
import { ICON_COUNT, ICON_OOS_OFFSET, ICON_UNKNOWN_TYPE, iconIndex, iconTypeIndex } from '../../src/domain/live-diff';
import {
  ATLAS_CELL_PX,
  ATLAS_COLUMNS,
  ATLAS_HEIGHT,
  ATLAS_ROWS_PER_SIZE,
  ATLAS_SCALE,
  ATLAS_WIDTH,
  ICON_PIXELS,
  STATUS_COLORS,
  TYPE_GLYPHS,
  drawIconAtlas,
  iconCell,
  iconLook,
  type AtlasContext,
} from '../../src/map/icon-atlas';

describe('icon atlas: index → cell', () => {
  it('gives every icon index at every size its own cell inside the atlas', () => {
    const seen = new Set<string>();
    for (const size of ICON_SIZES) {
      for (let index = 0; index < ICON_COUNT; index += 1) {
        const cell = iconCell(index, size);
        const key = `${cell.x},${cell.y}`;
        expect(seen.has(key)).toBe(false);
        seen.add(key);
        expect(cell.x % ATLAS_CELL_PX).toBe(0);
        expect(cell.x + ATLAS_CELL_PX).toBeLessThanOrEqual(ATLAS_WIDTH);
        expect(cell.y + ATLAS_CELL_PX).toBeLessThanOrEqual(ATLAS_HEIGHT);
        // The frame sits centred inside its cell.
        expect(cell.frameSize).toBe(ICON_PIXELS[size] * ATLAS_SCALE);
        expect(cell.frameX - cell.x).toBe((ATLAS_CELL_PX - cell.frameSize) / 2);
        expect(cell.frameSize).toBeLessThanOrEqual(ATLAS_CELL_PX);
      }
    }
    expect(seen.size).toBe(ICON_COUNT * ICON_SIZES.length);
  });

  it.each([
    [0, 'small', 0, 0],
    [ATLAS_COLUMNS - 1, 'small', ATLAS_COLUMNS - 1, 0],
    [ATLAS_COLUMNS, 'small', 0, 1],
    [0, 'medium', 0, ATLAS_ROWS_PER_SIZE],
    [ATLAS_COLUMNS + 3, 'large', 3, 2 * ATLAS_ROWS_PER_SIZE + 1],
  ] as const)('index %s at %s → column %s, row %s', (index, size, column, row) => {
    const cell = iconCell(index, size);
    expect([cell.x / ATLAS_CELL_PX, cell.y / ATLAS_CELL_PX]).toEqual([column, row]);
  });

  it('sizes grow small < medium < large', () => {
    expect(ICON_PIXELS.small).toBeLessThan(ICON_PIXELS.medium);
    expect(ICON_PIXELS.medium).toBeLessThan(ICON_PIXELS.large);
  });
});

describe('icon atlas: what a cell shows (type × status, out of service marked)', () => {
  it.each(ASSET_TYPES.map((type, i) => [type, TYPE_GLYPHS[i]] as const))('%s carries the letter %s', (type, glyph) => {
    expect(iconLook(iconIndex(iconTypeIndex(type), ASSET_STATUS.standby, true)).glyph).toBe(glyph);
  });

  it('an unknown type gets its own glyph', () => {
    expect(iconLook(iconIndex(ICON_UNKNOWN_TYPE, ASSET_STATUS.active, true)).glyph).toBe('?');
  });

  it.each([
    ['location', ASSET_STATUS.location],
    ['active', ASSET_STATUS.active],
    ['standby', ASSET_STATUS.standby],
    ['stationary', ASSET_STATUS.stationary],
    ['pending', ASSET_STATUS.pending],
    ['offline', ASSET_STATUS.offline],
  ] as const)('%s is filled with its status colour', (_name, status) => {
    const look = iconLook(iconIndex(0, status, true));
    expect(look.color).toEqual(STATUS_COLORS[status]);
    expect(look.outOfService).toBe(false);
  });

  it('the status colours are distinct', () => {
    expect(new Set(STATUS_COLORS.map((c) => c.join(','))).size).toBe(STATUS_COLORS.length);
  });

  it('out of service keeps the status colour and is marked', () => {
    const index = iconIndex(2, ASSET_STATUS.active, false);
    expect(index).toBeGreaterThanOrEqual(ICON_OOS_OFFSET);
    const look = iconLook(index);
    expect(look.outOfService).toBe(true);
    expect(look.color).toEqual(STATUS_COLORS[ASSET_STATUS.active]);
    expect(look.glyph).toBe('A');
  });

  it('responders are circles, equipment rounded squares', () => {
    expect(iconLook(iconIndex(iconTypeIndex('police'), 1, true)).shape).toBe('circle');
    expect(iconLook(iconIndex(iconTypeIndex('arrow_board'), 1, true)).shape).toBe('square');
  });
});

describe('icon atlas drawing', () => {
  /** Records what is drawn. */
  function recorder() {
    const calls: { op: string; args: unknown[]; fillStyle: unknown }[] = [];
    const ctx = {
      fillStyle: '' as unknown,
      strokeStyle: '' as unknown,
      lineWidth: 1,
      font: '',
      textAlign: 'start',
      textBaseline: 'alphabetic',
    } as Record<string, unknown>;
    for (const op of ['clearRect', 'beginPath', 'arc', 'roundRect', 'fill', 'stroke', 'fillText', 'moveTo', 'lineTo', 'closePath']) {
      ctx[op] = (...args: unknown[]) => calls.push({ op, args, fillStyle: ctx.fillStyle });
    }
    return { ctx: ctx as unknown as AtlasContext, calls };
  }

  it('draws every icon at every size, a letter on medium and large, a badge on out-of-service ones', () => {
    const { ctx, calls } = recorder();
    drawIconAtlas(ctx);
    const shapes = calls.filter((c) => c.op === 'arc' || c.op === 'roundRect');
    const badges = ICON_SIZES.length * (ICON_COUNT - ICON_OOS_OFFSET);
    expect(shapes.length).toBe(ICON_SIZES.length * ICON_COUNT + badges);
    expect(calls.filter((c) => c.op === 'fillText').length).toBe(2 * ICON_COUNT);
    // The first icon's fill is its status colour.
    const firstFill = calls.find((c) => c.op === 'fill');
    const [r, g, b] = STATUS_COLORS[0]!;
    expect(firstFill?.fillStyle).toBe(`rgb(${r},${g},${b})`);
  });
});
