// @vitest-environment jsdom
/** part1 §2 event detail "lat/lon with copy", §9 copy feedback: 'Copied' for 1 s (the map menu's is 2 s: map-context-menu.test.tsx). */
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { CopyButton } from '../../../src/app/ui/copy-button';

let writeText: ReturnType<typeof vi.fn>;

beforeEach(() => {
  writeText = vi.fn(() => Promise.resolve());
  Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
});

afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

describe('part1 §9 copy feedback of the event detail', () => {
  it("copies the text and reads 'Copied' for 1 s, then 'Copy' again", async () => {
    vi.useFakeTimers();
    render(<CopyButton text="30.2672123, -97.7431987" label="Copy coordinates" />);
    const button = screen.getByRole('button', { name: 'Copy coordinates' });
    expect(button.textContent).toBe('Copy');
    await act(async () => {
      fireEvent.click(button);
    });
    expect(writeText).toHaveBeenCalledWith('30.2672123, -97.7431987');
    expect(button.textContent).toBe('Copied');
    expect(screen.getByRole('status').textContent).toBe('Copied');
    act(() => vi.advanceTimersByTime(999));
    expect(button.textContent).toBe('Copied');
    act(() => vi.advanceTimersByTime(1));
    expect(button.textContent).toBe('Copy');
    expect(screen.getByRole('status').textContent).toBe('');
  });

  it('says nothing when the clipboard refuses', async () => {
    writeText.mockImplementation(() => Promise.reject(new Error('denied')));
    render(<CopyButton text="30.2672, -97.7431" label="Copy coordinates" />);
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Copy coordinates' }));
    });
    expect(screen.getByRole('button', { name: 'Copy coordinates' }).textContent).toBe('Copy');
  });
});
