// @vitest-environment jsdom
/**
 * part 1 §2 sections load as their own chunks: a page load of a section's URL fetches its chunk
 * beside the profile (`preload`), so the shell's first render shows the section at once instead of
 * the drawer's 'Loading...' waiting behind the map's first frames. Without a preload it suspends.
 */
import { act, cleanup, render, screen } from '@testing-library/react';
import { Suspense } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { lazySection, type LazySection } from '../../src/app/chunk-load';

afterEach(cleanup);

function Page() {
  return <p>Section content</p>;
}

function show(Section: LazySection) {
  render(
    <Suspense fallback={<p role="status">Loading...</p>}>
      <Section />
    </Suspense>,
  );
}

describe('part1 §2 a section chunk fetched ahead of its first render', () => {
  it('preloaded: the first render shows the section, no fallback', async () => {
    const Section = lazySection(async () => Page);
    Section.preload();
    await act(async () => undefined);
    show(Section);
    expect(screen.getByText('Section content')).toBeTruthy();
    expect(screen.queryByRole('status')).toBeNull();
  });

  it('not preloaded: the fallback first, then the section', async () => {
    const Section = lazySection(async () => Page);
    show(Section);
    expect(screen.getByRole('status').textContent).toBe('Loading...');
    expect(await screen.findByText('Section content')).toBeTruthy();
  });
});
