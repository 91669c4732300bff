import { expect, type Locator, type Page } from '@playwright/test';

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

/**
 * Clicks the map at (x, y) for a drawing and waits until the drawing took the click: its count of
 * edits on `map` (`data-drawing-edits`, written by the dashboard map and the drawing page) grew.
 * The next click then never lands within a double click's time of this one, with no fixed pause.
 */
export async function drawingClick(page: Page, map: Locator, x: number, y: number, timeout = 60_000): Promise<void> {
  const edits = async () => Number((await map.getAttribute('data-drawing-edits')) ?? NaN);
  const before = await edits();
  if (!Number.isFinite(before)) throw new Error('drawingClick: the map has no drawing (no data-drawing-edits)');
  await page.mouse.click(x, y);
  await expect.poll(edits, { timeout }).toBeGreaterThan(before);
}

/**
 * Waits until a form's drawing of `kind` is on `map` and its layer was drawn (two frames), before
 * the first click: the drawing code loads on a page's first drawing.
 */
export async function drawingReady(page: Page, map: Locator, kind?: string, timeout = 60_000): Promise<void> {
  await expect(map).toHaveAttribute('data-drawing', 'ready', { timeout });
  if (kind) await expect(map).toHaveAttribute('data-drawing-kind', kind, { timeout });
  await animationFrames(page);
}
