// @vitest-environment jsdom
import { act, cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { MEDIA_QUERY_DEBOUNCE_MS } from '../../../src/domain/constants';
import { useIsMobile } from '../../../src/app/shell/use-media';

afterEach(() => {
  cleanup();
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

function Layout() {
  return <p data-testid="layout">{useIsMobile() ? 'phone' : 'desktop'}</p>;
}

describe('part 1 §9 media-query debounce (300 ms)', () => {
  it('reads the layout at once, then follows a crossing of the breakpoint once the window rests there', () => {
    vi.useFakeTimers();
    let matches = false;
    const listeners = new Set<() => void>();
    vi.stubGlobal('matchMedia', (query: string) => ({
      get matches() {
        return matches;
      },
      media: query,
      addEventListener: (_: string, listener: () => void) => listeners.add(listener),
      removeEventListener: (_: string, listener: () => void) => listeners.delete(listener),
    }));
    render(<Layout />);
    expect(screen.getByTestId('layout').textContent).toBe('desktop');
    // Dragged across and back and across again: nothing changes until it rests.
    for (const next of [true, false, true]) {
      matches = next;
      act(() => listeners.forEach((listener) => listener()));
      act(() => void vi.advanceTimersByTime(MEDIA_QUERY_DEBOUNCE_MS / 3));
      expect(screen.getByTestId('layout').textContent).toBe('desktop');
    }
    act(() => void vi.advanceTimersByTime(MEDIA_QUERY_DEBOUNCE_MS));
    expect(screen.getByTestId('layout').textContent).toBe('phone');
  });
});
