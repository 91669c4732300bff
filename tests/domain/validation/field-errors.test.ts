import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { fieldErrors, firstError } from '../../../src/domain/validation/field-errors';

const schema = z.object({
  a: z.string().min(2, 'a short').regex(/^y/, 'a starts with y'),
  b: z.array(z.object({ c: z.number('c number') })),
});

describe('validation field errors', () => {
  const result = schema.safeParse({ a: 'x', b: [{ c: 1 }, { c: 'y' }] });

  it('keys by dotted path, first message per field', () => {
    expect(fieldErrors(result)).toEqual({ a: 'a short', 'b.1.c': 'c number' });
  });

  it.each<[string | undefined, string | undefined]>([
    [undefined, 'a short'],
    ['a', 'a short'],
    ['b.1.c', 'c number'],
    ['b.0.c', undefined],
  ])('firstError(%s) = %s', (field, expected) => {
    expect(firstError(result, field)).toBe(expected);
  });

  it('is empty for a success', () => {
    const ok = z.string().safeParse('x');
    expect(fieldErrors(ok)).toEqual({});
    expect(firstError(ok)).toBeUndefined();
  });

  it('keeps root issues under the empty key', () => {
    const rooted = z
      .object({ a: z.string() })
      .superRefine((_, ctx) => ctx.addIssue({ code: 'custom', path: [], message: 'whole form' }))
      .safeParse({ a: 'x' });
    expect(fieldErrors(rooted)).toEqual({ '': 'whole form' });
  });
});
