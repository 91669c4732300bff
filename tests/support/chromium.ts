/**
 * The Chromium the end-to-end suite and the browser benches launch: Debian's, as browser downloads
 * do not work on this machine (docs/decisions/design.md).
 */
export const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium';

/**
 * WebGL without a GPU (docs/testing.md): SwiftShader draws it, and the page is composited in
 * software, so the page's main thread reads each new WebGL frame back (`ReadPixels`). The other
 * way, `--use-angle=swiftshader --enable-unsafe-swiftshader` (SwiftShader in the GPU process, which
 * then composites the page too), spares the map's pages that wait but was measured slower over the
 * whole end-to-end suite: every frame of every page is composited in software GL.
 */
export const SOFTWARE_GL_ARGS = ['--disable-gpu'];
