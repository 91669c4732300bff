/**
 * Whether WebGL draws in software here (SwiftShader, llvmpipe: a browser without GPU acceleration,
 * as headless Chromium on CI). There a data redraw costs up to ~100 ms of the GPU process at a
 * few thousand assets (the basemap has its own canvas, redrawn only when the view moves), during
 * which the page cannot paint; data redraws are then spaced at least `SOFTWARE_REDRAW_MS` apart
 * (the batch cadence: bursts such as the initial pages are merged). Read once per page.
 */
export const SOFTWARE_REDRAW_MS = 1_000;

const SOFTWARE_RENDERERS = /swiftshader|llvmpipe|softpipe|software|basic render/i;

let cached: boolean | null = null;

export function rendererName(): string | null {
  const doc = globalThis.document as Document | undefined;
  // No WebGL at all (jsdom, very old browsers): nothing to ask.
  if (!doc || (typeof globalThis.WebGL2RenderingContext === 'undefined' && typeof globalThis.WebGLRenderingContext === 'undefined'))
    return null;
  try {
    const gl = doc.createElement('canvas').getContext('webgl2') ?? doc.createElement('canvas').getContext('webgl');
    if (!gl) return null;
    const info = gl.getExtension('WEBGL_debug_renderer_info');
    const name = info ? gl.getParameter(info.UNMASKED_RENDERER_WEBGL) : gl.getParameter(gl.RENDERER);
    gl.getExtension('WEBGL_lose_context')?.loseContext();
    return typeof name === 'string' ? name : null;
  } catch {
    return null;
  }
}

export function isSoftwareRenderer(name: string | null): boolean {
  return name !== null && SOFTWARE_RENDERERS.test(name);
}

/** Whether this page's WebGL draws in software (read once per page). */
export function drawsInSoftware(): boolean {
  cached ??= isSoftwareRenderer(rendererName());
  return cached;
}

/** The least time between two redraws caused by data: 0 on a GPU, SOFTWARE_REDRAW_MS in software. */
export function layerRedrawInterval(): number {
  return drawsInSoftware() ? SOFTWARE_REDRAW_MS : 0;
}
