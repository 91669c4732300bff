/**
 * The Chromium the end-to-end suite and the browser benches launch: Debian's, as browser downloads
 * do not work on this machine (README "Design decisions").
 */
export const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium';

/**
 * WebGL without a GPU: SwiftShader stands in for the GPU in Chromium's GPU process, which also
 * composites the page (README "Tests"). With `--disable-gpu` instead the page is composited in
 * software, so the renderer's main thread reads every new WebGL frame back from the GPU process
 * (`ReadPixels`) and waits for it: about 14 s of a dashboard load's 18 s here, a wait a browser
 * with a GPU never has. `--enable-unsafe-swiftshader` is Chromium's own switch for WebGL on
 * SwiftShader (without it, newer versions refuse WebGL there).
 */
export const SOFTWARE_GL_ARGS = ['--use-angle=swiftshader', '--enable-unsafe-swiftshader'];
