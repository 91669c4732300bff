// @vitest-environment jsdom
/**
 * part 1 §8, §9: the section pages load as their own code chunks through `loadChunk`; a chunk that
 * fails, or has not arrived after 120 s, raises a ChunkLoadError naming the reason and the crash
 * page shows it. While a chunk loads, the drawer shows the Suspense fallback.
 */
import { act, cleanup, render, screen } from '@testing-library/react';
import { Suspense } from 'react';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { CHUNK_LOAD_TIMEOUT_MS } from '../../src/domain/constants';
import { lazySection } from '../../src/app/router';
import { CrashPage } from '../../src/app/pages/status-pages';
import { renderApp, signedInRoutes } from './support/render-app';

// The things section's chunk cannot be fetched (a deploy removed it, the network dropped).
vi.mock('../../src/features/things/things-section', () => {
  throw new Error('Failed to fetch dynamically imported module: /assets/things-section.js');
});

afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

describe('part1 §8 chunk-load error of a lazy section', () => {
  it('a section whose chunk fails to load shows the crash page naming the reason', async () => {
    renderApp('/dashboard/things', signedInRoutes(['thing:read', 'incident:read']), { signedIn: true });
    expect(await screen.findByRole('heading', { name: 'Sorry, there was an incident.' }, { timeout: 5_000 })).toBeTruthy();
    // The reason is the import's own error (vitest words a failed mocked import its own way).
    expect(screen.getByText(/^Loading chunk failed: .*error when mocking a module/)).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Take me back to the main page' }).getAttribute('href')).toBe('/');
  });

  it('a chunk that has not arrived after 120 s: the fallback first, then the crash page with the timeout', async () => {
    vi.useFakeTimers();
    const Never = lazySection(() => new Promise(() => undefined));
    const router = createMemoryRouter(
      [
        {
          path: '/',
          element: (
            <Suspense fallback={<p role="status">Loading...</p>}>
              <Never />
            </Suspense>
          ),
          errorElement: <CrashPage />,
        },
      ],
      { initialEntries: ['/'] },
    );
    render(<RouterProvider router={router} />);
    expect(screen.getByRole('status').textContent).toBe('Loading...');
    await act(async () => void (await vi.advanceTimersByTimeAsync(CHUNK_LOAD_TIMEOUT_MS - 1_000)));
    expect(screen.queryByRole('heading', { name: 'Sorry, there was an incident.' })).toBeNull();
    await act(async () => void (await vi.advanceTimersByTimeAsync(1_000)));
    expect(screen.getByRole('heading', { name: 'Sorry, there was an incident.' })).toBeTruthy();
    expect(screen.getByText('Loading chunk failed: timed out after 120 s')).toBeTruthy();
  });
});
