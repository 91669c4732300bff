import type { Page } from '@playwright/test';

/**
 * Resolves once the page has run `count` more animation frames. deck.gl creates a layer it was
 * given (a drawing's, whose handlers hear the clicks) in its animation frame, and in software
 * WebGL (SwiftShader) a frame can take a second: a spec waits for frames, not for a fixed time, before it
 * clicks a layer it has just asked for. Two frames: the one that may have begun before the
 * request, then one that began after it.
 */
export async function animationFrames(page: Page, count = 2): Promise<void> {
  await page.evaluate(async (n) => {
    for (let i = 0; i < n; i += 1) await new Promise((resolve) => requestAnimationFrame(resolve));
  }, count);
}
