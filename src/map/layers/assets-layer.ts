/**
 * The assets layer (ARCHITECTURE "Live data"): draws the fleet straight from
 * the live store's typed arrays — position, icon index, heading, flags — with no accessor per
 * object and no copy per frame. deck.gl's IconLayer maps `getIcon` through
 * JavaScript, so this small layer looks the icon up on the GPU: the vertex shader turns the
 * per-instance icon index into an atlas cell (the arithmetic of `iconCell` in icon-atlas.ts), and
 * the size class comes from the zoom (part 1 §2: small below 11, medium below 13, large) as a
 * uniform, never from the data. Slots that are empty or not listed (filtered out) are dropped in
 * the shader; a heading, when known, is drawn as a tick on the icon's rim.
 *
 * Uploads follow the diffs (bench/README.md): each attribute copies rows of the store's
 * arrays into its own and uploads those rows only. A diff's data names its changed slots
 * (`data.changed`); `assetsDataDiff` turns them into a few row ranges for deck.gl's partial update
 * (`_dataDiff`), and everything is uploaded again when the data does not follow the previous one
 * directly (a skipped version, grown or reset buffers) or when most rows changed anyway.
 */
import { Layer, picking, project32, type DefaultProps, type LayerProps, type UpdateParameters } from '@deck.gl/core';
import type { Texture } from '@luma.gl/core';
import { Geometry, Model } from '@luma.gl/engine';
import type { ShaderModule } from '@luma.gl/shadertools';
import type { AssetsLayerData } from './assets-layer-data';
import { iconSize, type IconSize } from '../../domain/icon-size';
import { FLAG_LISTED, FLAG_PRESENT } from '../../domain/live-diff';
import {
  ATLAS_CELL_PX,
  ATLAS_COLUMNS,
  ATLAS_HEIGHT,
  ATLAS_ROWS_PER_SIZE,
  ATLAS_SCALE,
  ATLAS_WIDTH,
  ICON_PIXELS,
  iconAtlasCanvas,
  sizeIndexOf,
} from '../icon-atlas';

/** The quad is this much larger than the icon: the heading tick sits in the margin. */
export const QUAD_SCALE = 1.4;

/** The store's arrays (`data.attributes`, by the live store's names) each attribute is filled from. */
export const ASSET_ATTRIBUTES = {
  instancePositions: 'getPosition',
  instanceIconIndex: 'getIconIndex',
  instanceHeading: 'getHeading',
  instanceFlags: 'getFlags',
} as const;

/** The heading the GPU gets for none reported (NaN would fail deck.gl's attribute check); the shader draws no tick outside 0..360. */
export const GPU_NO_HEADING = -1;

/** What an attribute updater is handed (deck.gl `Updater`): rows [startRow, endRow) to fill. */
interface RowsToFill {
  data: AssetsLayerData;
  startRow: number;
  endRow: number;
  numInstances: number;
}
type Filled = { value: ArrayLike<number> | null };
type WritableArray = { [index: number]: number; length: number; set(source: ArrayLike<number>, offset: number): void };

function rowsOf({ startRow, endRow, numInstances }: RowsToFill): [number, number] {
  return [Math.max(0, startRow), Math.min(Number.isFinite(endRow) ? endRow : numInstances, numInstances)];
}

/** An updater copying `size` values per row from the store's array `name`. */
function copyRows(name: 'getPosition' | 'getIconIndex' | 'getFlags', size: number) {
  return (attribute: Filled, rows: RowsToFill): void => {
    const [from, to] = rowsOf(rows);
    const source = rows.data.attributes[name].value;
    if (to > from) (attribute.value as unknown as WritableArray).set(source.subarray(size * from, size * to), size * from);
  };
}

function copyHeadings(attribute: Filled, rows: RowsToFill): void {
  const [from, to] = rowsOf(rows);
  const source = rows.data.attributes.getHeading.value;
  const target = attribute.value as unknown as WritableArray;
  for (let row = from; row < to; row += 1) {
    const heading = source[row] as number;
    target[row] = Number.isNaN(heading) ? GPU_NO_HEADING : heading;
  }
}

/**
 * The instanced attributes, each filled by copying rows of the store's array of the same name in
 * `data.attributes` (no accessor function is called per object): only the rows deck.gl was told
 * changed are copied and uploaded.
 */
export function assetsAttributes(fp64: boolean) {
  return {
    // lng, lat per slot (the shader's z is 0).
    instancePositions: { size: 2, type: 'float64' as const, fp64, update: copyRows(ASSET_ATTRIBUTES.instancePositions, 2) },
    instanceIconIndex: { size: 1, type: 'uint8' as const, update: copyRows(ASSET_ATTRIBUTES.instanceIconIndex, 1) },
    instanceHeading: { size: 1, update: copyHeadings },
    instanceFlags: { size: 1, type: 'uint8' as const, update: copyRows(ASSET_ATTRIBUTES.instanceFlags, 1) },
  };
}

/** Rows [startRow, endRow) to upload again. */
export interface RowRange {
  startRow: number;
  endRow: number;
}

/**
 * When a partial upload is worth it: changed slots closer than `maxGap` rows share one range (one
 * upload call per range and attribute; a gap row costs a few bytes), at most `maxRanges` ranges,
 * and everything is uploaded at once when the ranges would cover more than `maxShare` of the rows.
 */
export const PARTIAL_UPLOAD = { maxGap: 256, maxRanges: 32, maxShare: 0.5 } as const;

/**
 * The row ranges covering the changed slots (sorted, merged across small gaps), [] when none
 * changed, or null to upload everything.
 */
export function changedRowRanges(
  changed: ArrayLike<number>,
  length: number,
  limits: { maxGap: number; maxRanges: number; maxShare: number } = PARTIAL_UPLOAD,
): RowRange[] | null {
  if (changed.length === 0) return [];
  let sorted = true;
  for (let i = 1; i < changed.length && sorted; i += 1) sorted = (changed[i - 1] as number) <= (changed[i] as number);
  const slots = sorted ? changed : Int32Array.from(changed).sort();
  const ranges: RowRange[] = [];
  let covered = 0;
  let start = -1;
  let end = -1;
  for (let i = 0; i < slots.length; i += 1) {
    const slot = slots[i] as number;
    if (slot < 0 || slot >= length) return null;
    if (start >= 0 && slot - end <= limits.maxGap) {
      end = Math.max(end, slot + 1);
      continue;
    }
    if (start >= 0) {
      ranges.push({ startRow: start, endRow: end });
      covered += end - start;
    }
    start = slot;
    end = slot + 1;
  }
  ranges.push({ startRow: start, endRow: end });
  covered += end - start;
  if (covered > limits.maxShare * length) return null;
  if (ranges.length > limits.maxRanges) {
    // Too many upload calls: one range from the first changed row to the last, if still small enough.
    const first = (ranges[0] as RowRange).startRow;
    const last = (ranges[ranges.length - 1] as RowRange).endRow;
    return last - first > limits.maxShare * length ? null : [{ startRow: first, endRow: last }];
  }
  return ranges;
}

/**
 * deck.gl's `_dataDiff` for the assets layer: the ranges of `data.changed` when `data` directly
 * follows `old` (the next version over the same arrays), else null (upload everything: a version
 * was skipped, the buffers grew or were reset, or the changed slots are unknown).
 */
export function assetsDataDiff(data: AssetsLayerData, old: AssetsLayerData | null | undefined): RowRange[] | null {
  if (!old || !data.changed || data.version !== old.version + 1 || data.length !== old.length) return null;
  for (const name of Object.values(ASSET_ATTRIBUTES)) {
    if (data.attributes[name].value !== old.attributes[name].value) return null;
  }
  return changedRowRanges(data.changed, data.length);
}

/** deck.gl reads a falsy answer of `_dataDiff` as "everything changed". */
const dataDiff = ((data: unknown, old?: unknown) =>
  assetsDataDiff(data as AssetsLayerData, old as AssetsLayerData | undefined)) as unknown as NonNullable<LayerProps['_dataDiff']>;

/** The per-draw uniforms (pure: unit-tested). */
export interface AssetsUniforms {
  sizeIndex: number;
  /** The icon's size on screen, CSS pixels. */
  iconPixels: number;
  /** The quad's size on screen (icon plus the tick margin). */
  quadPixels: number;
  frameTexels: number;
  cellTexels: number;
  columns: number;
  rowsPerSize: number;
  textureSize: [number, number];
  visibleFlags: number;
}

export function assetsUniforms(zoom: number, sizeOverride?: IconSize | null): AssetsUniforms {
  const size = sizeOverride ?? iconSize(zoom);
  return {
    sizeIndex: sizeIndexOf(size),
    iconPixels: ICON_PIXELS[size],
    quadPixels: ICON_PIXELS[size] * QUAD_SCALE,
    frameTexels: ICON_PIXELS[size] * ATLAS_SCALE,
    cellTexels: ATLAS_CELL_PX,
    columns: ATLAS_COLUMNS,
    rowsPerSize: ATLAS_ROWS_PER_SIZE,
    textureSize: [ATLAS_WIDTH, ATLAS_HEIGHT],
    visibleFlags: FLAG_PRESENT | FLAG_LISTED,
  };
}

const uniformBlock = /* glsl */ `\
layout(std140) uniform assetsUniforms {
  float sizeIndex;
  float quadPixels;
  float iconPixels;
  float frameTexels;
  float cellTexels;
  float columns;
  float rowsPerSize;
  vec2 textureSize;
  float visibleFlags;
} assets;
`;

type AssetsModuleProps = {
  iconsTexture: Texture;
  sizeIndex: number;
  quadPixels: number;
  iconPixels: number;
  frameTexels: number;
  cellTexels: number;
  columns: number;
  rowsPerSize: number;
  textureSize: [number, number];
  visibleFlags: number;
};

const assetsModule = {
  name: 'assets',
  vs: uniformBlock,
  fs: uniformBlock,
  uniformTypes: {
    sizeIndex: 'f32',
    quadPixels: 'f32',
    iconPixels: 'f32',
    frameTexels: 'f32',
    cellTexels: 'f32',
    columns: 'f32',
    rowsPerSize: 'f32',
    textureSize: 'vec2<f32>',
    visibleFlags: 'f32',
  },
} as const satisfies ShaderModule<AssetsModuleProps>;

const vs = /* glsl */ `\
#version 300 es
#define SHADER_NAME lightbar-assets-layer-vertex-shader

in vec2 positions;
in vec3 instancePositions;
in vec3 instancePositions64Low;
in float instanceIconIndex;
in float instanceHeading;
in float instanceFlags;

out vec2 vQuad;
out vec2 vFrameOrigin;
// The heading as a unit vector (clockwise from north); (0, 0): none reported.
out vec2 vHeading;

bool hasFlags(float flags, float wanted) {
  // Every bit of 'wanted' set in 'flags' (both below 256, exact in float).
  for (int bit = 0; bit < 8; bit++) {
    float b = exp2(float(bit));
    if (mod(floor(wanted / b), 2.0) == 1.0 && mod(floor(flags / b), 2.0) != 1.0) return false;
  }
  return true;
}

void main(void) {
  geometry.worldPosition = instancePositions;
  geometry.uv = positions;
  geometry.pickingColor = picking_getPickingColorFromInstanceID();
  vQuad = positions;

  // The atlas cell of this icon index at the current size (icon-atlas.ts iconCell).
  float column = mod(instanceIconIndex, assets.columns);
  float row = floor(instanceIconIndex / assets.columns) + assets.sizeIndex * assets.rowsPerSize;
  float inset = (assets.cellTexels - assets.frameTexels) / 2.0;
  vFrameOrigin = vec2(column, row) * assets.cellTexels + vec2(inset);
  // A heading outside 0..360 (NaN: not reported) draws no tick.
  // Computed per vertex, not per fragment (software rasterizers feel every sin).
  float heading = radians(instanceHeading);
  vHeading = (instanceHeading >= 0.0 && instanceHeading <= 360.0) ? vec2(sin(heading), cos(heading)) : vec2(0.0);

  vec2 pixelOffset = positions / 2.0 * assets.quadPixels;
  pixelOffset.y *= -1.0;
  gl_Position = project_position_to_clipspace(instancePositions, instancePositions64Low, vec3(0.0), geometry.position);
  DECKGL_FILTER_GL_POSITION(gl_Position, geometry);
  vec3 offset = vec3(pixelOffset, 0.0);
  DECKGL_FILTER_SIZE(offset, geometry);
  gl_Position.xy += project_pixel_size_to_clipspace(offset.xy);

  // Empty and filtered-out slots: outside the clip volume, nothing rasterized.
  if (!hasFlags(instanceFlags, assets.visibleFlags)) {
    gl_Position = vec4(0.0, 0.0, 2.0, 1.0);
  }
  vec4 color = vec4(1.0);
  DECKGL_FILTER_COLOR(color, geometry);
}
`;

const fs = /* glsl */ `\
#version 300 es
#define SHADER_NAME lightbar-assets-layer-fragment-shader
precision highp float;

uniform sampler2D iconsTexture;

in vec2 vQuad;
in vec2 vFrameOrigin;
in vec2 vHeading;

out vec4 fragColor;

void main(void) {
  geometry.uv = vQuad;
  // The icon occupies the inner 1/QUAD_SCALE of the quad.
  vec2 inner = vQuad * (assets.quadPixels / assets.iconPixels);
  vec4 color = vec4(0.0);
  if (abs(inner.x) <= 1.0 && abs(inner.y) <= 1.0) {
    vec2 texel = vFrameOrigin + (inner + 1.0) / 2.0 * assets.frameTexels;
    color = texture(iconsTexture, texel / assets.textureSize);
  }
  if (vHeading != vec2(0.0)) {
    // The tick: a small triangle on the rim, pointing along the heading (clockwise from north).
    vec2 p = vec2(vQuad.x, -vQuad.y);
    float s = vHeading.x;
    float c = vHeading.y;
    vec2 q = vec2(p.x * c - p.y * s, p.x * s + p.y * c);
    float along = q.y;
    if (along > 0.62 && along < 0.98 && abs(q.x) < (0.98 - along) * 0.7) {
      color = vec4(0.13, 0.13, 0.13, 1.0);
    }
  }
  if (color.a < 0.05) discard;
  fragColor = vec4(color.rgb, color.a * layer.opacity);
  DECKGL_FILTER_COLOR(fragColor, geometry);
}
`;

type _AssetsLayerProps = {
  /** The live store's `data` (a new object per diff over the same buffers). */
  data: AssetsLayerData;
  /** A fixed size class instead of the zoom's (tests, the bench). */
  sizeOverride?: IconSize | null;
};

export type AssetsLayerProps = _AssetsLayerProps & LayerProps;

const defaultProps: DefaultProps<AssetsLayerProps> = {
  sizeOverride: null,
  _dataDiff: dataDiff,
};

/** Binary data only: every attribute is copied from `data.attributes` (no accessors), changed rows only. */
export class AssetsLayer extends Layer<Required<_AssetsLayerProps> & LayerProps> {
  static override layerName = 'LightbarAssetsLayer';
  static override defaultProps = defaultProps;

  declare state: {
    model?: Model;
    texture?: Texture;
  };

  override getShaders() {
    return super.getShaders({ vs, fs, modules: [project32, picking, assetsModule] });
  }

  override initializeState(): void {
    const attributeManager = this.getAttributeManager()!;
    attributeManager.addInstanced(assetsAttributes(this.use64bitPositions()));
    const { device } = this.context;
    const texture = device.createTexture({
      format: 'rgba8unorm',
      width: ATLAS_WIDTH,
      height: ATLAS_HEIGHT,
      sampler: { minFilter: 'linear', magFilter: 'linear', addressModeU: 'clamp-to-edge', addressModeV: 'clamp-to-edge' },
    });
    texture.copyExternalImage({ image: iconAtlasCanvas() });
    this.setState({ texture, model: this.getModel() });
  }

  override updateState(params: UpdateParameters<this>): void {
    super.updateState(params);
    if (params.changeFlags.extensionsChanged) {
      this.state.model?.destroy();
      this.setState({ model: this.getModel() });
      this.getAttributeManager()!.invalidateAll();
    }
  }

  override finalizeState(context: Parameters<Layer['finalizeState']>[0]): void {
    super.finalizeState(context);
    this.state.texture?.destroy();
  }

  override draw(): void {
    const { model, texture } = this.state;
    if (!model || !texture) return;
    const uniforms = assetsUniforms(this.context.viewport.zoom, this.props.sizeOverride);
    model.shaderInputs.setProps({ assets: { ...uniforms, iconsTexture: texture } });
    model.draw(this.context.renderPass);
  }

  protected getModel(): Model {
    return new Model(this.context.device, {
      ...this.getShaders(),
      id: this.props.id,
      bufferLayout: this.getAttributeManager()!.getBufferLayouts(),
      geometry: new Geometry({
        topology: 'triangle-strip',
        attributes: { positions: { size: 2, value: new Float32Array([-1, -1, 1, -1, -1, 1, 1, 1]) } },
      }),
      isInstanced: true,
    });
  }
}

/** The assets layer over the store's current data (a new layer object per render is cheap in deck.gl). */
export function assetsLayer(data: AssetsLayerData, props: Partial<AssetsLayerProps> = {}): AssetsLayer {
  return new AssetsLayer({ id: 'assets', pickable: true, ...props, data });
}
