// @vitest-environment jsdom
import { act, renderHook } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { useThrottledValue } from '../../../src/app/map/use-throttled-value';
import { isSoftwareRenderer, SOFTWARE_REDRAW_MS } from '../../../src/map/renderer';

afterEach(() => vi.useRealTimers());

describe('map redraws in software WebGL', () => {
  it.each([
    ['ANGLE (Google, Vulkan 1.3.0 (SwiftShader Device (Subzero) (0x0000C0DE)), SwiftShader driver)', true],
    ['llvmpipe (LLVM 15.0.6, 256 bits)', true],
    ['ANGLE (NVIDIA, NVIDIA GeForce RTX 3080 Direct3D11 vs_5_0 ps_5_0, D3D11)', false],
    ['Apple M2', false],
  ])('%s is software: %s', (name, software) => {
    expect(isSoftwareRenderer(name)).toBe(software);
  });

  it('passes the first value at once, then at most one per interval, and always the latest', () => {
    vi.useFakeTimers();
    vi.setSystemTime(10_000_000);
    const { result, rerender } = renderHook(({ value }) => useThrottledValue(value, SOFTWARE_REDRAW_MS), { initialProps: { value: 1 } });
    expect(result.current).toBe(1);
    rerender({ value: 2 });
    rerender({ value: 3 });
    expect(result.current).toBe(1);
    act(() => vi.advanceTimersByTime(SOFTWARE_REDRAW_MS - 1));
    expect(result.current).toBe(1);
    act(() => vi.advanceTimersByTime(1));
    expect(result.current).toBe(3);
    rerender({ value: 4 });
    expect(result.current).toBe(3);
    act(() => vi.advanceTimersByTime(SOFTWARE_REDRAW_MS));
    expect(result.current).toBe(4);
    // After a quiet interval a new value passes at once.
    act(() => vi.advanceTimersByTime(SOFTWARE_REDRAW_MS));
    rerender({ value: 5 });
    expect(result.current).toBe(5);
  });

  it('with no interval (a GPU) every value passes at once', () => {
    const { result, rerender } = renderHook(({ value }) => useThrottledValue(value, 0), { initialProps: { value: 'a' } });
    rerender({ value: 'b' });
    expect(result.current).toBe('b');
  });
});
