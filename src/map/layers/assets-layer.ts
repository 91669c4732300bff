/**
 * The assets layer (issue 7 "The map"; ARCHITECTURE "Live data"): draws the fleet straight from
 * the live store's typed arrays as binary attributes — position, icon index, heading, flags — with
 * no accessor per object and no copy per frame. deck.gl's IconLayer maps `getIcon` through
 * JavaScript, so this small layer looks the icon up on the GPU: the vertex shader turns the
 * per-instance icon index into an atlas cell (the arithmetic of `iconCell` in icon-atlas.ts), and
 * the size class comes from the zoom (part 1 §2: small below 11, medium below 13, large) as a
 * uniform, never from the data. Slots that are empty or not listed (filtered out) are dropped in
 * the shader; a heading, when known, is drawn as a tick on the icon's rim.
 */
import { Layer, picking, project32, type DefaultProps, type LayerProps, type UpdateParameters } from '@deck.gl/core';
import type { Texture } from '@luma.gl/core';
import { Geometry, Model } from '@luma.gl/engine';
import type { ShaderModule } from '@luma.gl/shadertools';
import type { AssetsLayerData } from '../../app/live/store';
import { iconSize, type IconSize } from '../../domain/icon-size';
import { FLAG_LISTED, FLAG_PRESENT } from '../../workers/diff';
import { ATLAS_CELL_PX, ATLAS_COLUMNS, ATLAS_HEIGHT, ATLAS_ROWS_PER_SIZE, ATLAS_SCALE, ATLAS_WIDTH, ICON_PIXELS, iconAtlasCanvas, sizeIndexOf } from '../icon-atlas';

/** The quad is this much larger than the icon: the heading tick sits in the margin. */
export const QUAD_SCALE = 1.4;

/** The binary attributes the layer reads from `data.attributes` (the live store's names). */
export const ASSET_ATTRIBUTES = {
  instancePositions: 'getPosition',
  instanceIconIndex: 'getIconIndex',
  instanceHeading: 'getHeading',
  instanceFlags: 'getFlags',
} as const;

/**
 * The instanced attributes, each filled from the binary attribute of the same accessor name in
 * `data.attributes` (there is no accessor function to call: the data is binary only).
 */
export function assetsAttributes(fp64: boolean) {
  return {
    instancePositions: { size: 3, type: 'float64' as const, fp64, accessor: ASSET_ATTRIBUTES.instancePositions },
    instanceIconIndex: { size: 1, type: 'uint8' as const, accessor: ASSET_ATTRIBUTES.instanceIconIndex },
    instanceHeading: { size: 1, accessor: ASSET_ATTRIBUTES.instanceHeading },
    instanceFlags: { size: 1, type: 'uint8' as const, accessor: ASSET_ATTRIBUTES.instanceFlags },
  };
}

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
};

/** Binary data only: every attribute comes from `data.attributes` (no accessors). */
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

