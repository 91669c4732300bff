// @vitest-environment jsdom
/**
 * part 1 §2 "Asset list: Search box", §9 "Search debounce: ... accounts and lists 250 ms": what is
 * typed reaches the worker once typing has paused for 250 ms, once. Fake timers.
 */
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { SearchBox } from '../../../src/app/section/search-box';

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
});

afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

describe('part1 §9 list search debounce (250 ms)', () => {
  it('sends the text 250 ms after the last keystroke, once', () => {
    const onSearch = vi.fn();
    render(<SearchBox value="" onSearch={onSearch} label="Search assets" />);
    const box = screen.getByRole('searchbox', { name: 'Search assets' });
    fireEvent.change(box, { target: { value: 'eng' } });
    act(() => vi.advanceTimersByTime(200));
    fireEvent.change(box, { target: { value: 'engine' } });
    act(() => vi.advanceTimersByTime(249));
    expect(onSearch).not.toHaveBeenCalled();
    act(() => vi.advanceTimersByTime(1));
    expect(onSearch.mock.calls).toEqual([['engine']]);
    act(() => vi.advanceTimersByTime(1_000));
    expect(onSearch).toHaveBeenCalledTimes(1);
  });

  it('a search set elsewhere shows in the box and is not sent back', () => {
    const onSearch = vi.fn();
    const { rerender } = render(<SearchBox value="" onSearch={onSearch} label="Search assets" />);
    rerender(<SearchBox value="medic" onSearch={onSearch} label="Search assets" />);
    expect((screen.getByRole('searchbox', { name: 'Search assets' }) as HTMLInputElement).value).toBe('medic');
    act(() => vi.advanceTimersByTime(1_000));
    expect(onSearch).not.toHaveBeenCalled();
  });
});
