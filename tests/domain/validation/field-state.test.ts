import { describe, expect, it } from 'vitest';
import { canSave, showsFieldError, textAreaCounter, virtualizesSelect } from '../../../src/domain/validation/field-state';

describe('part1 §5 field display', () => {
  it.each<[boolean, boolean, boolean, boolean]>([
    [true, true, false, true],
    [true, false, true, true],
    [true, false, false, false],
    [false, true, true, false],
  ])('touched %s, dirty %s, submit failed %s → shows %s', (touched, dirty, submitFailed, expected) => {
    expect(showsFieldError({ touched, dirty, submitFailed })).toBe(expected);
  });

  it.each<[number, number, boolean]>([
    [94, 100, false],
    [95, 100, true],
    [100, 100, true],
    [34, 40, false],
    [35, 40, true],
  ])('%i of %i characters warns: %s', (length, max, warn) => {
    expect(textAreaCounter('x'.repeat(length), max)).toEqual({ count: length, remaining: max - length, warn });
  });

  it.each<[number, boolean]>([
    [20, false],
    [21, true],
  ])('%i options virtualized: %s', (count, expected) => {
    expect(virtualizesSelect(count)).toBe(expected);
  });

  it.each<[boolean, boolean, boolean]>([
    [true, false, true],
    [false, false, false],
    [true, true, false],
  ])('dirty %s, submitting %s → save enabled %s', (dirty, submitting, expected) => {
    expect(canSave({ dirty, submitting })).toBe(expected);
  });
});
