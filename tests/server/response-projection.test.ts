/**
 * What an answer keeps of what its handler made: the fields its response schema names
 * (server/http/response-projection.ts, used by every route's serializer).
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { compileProjection } from '../../server/http/response-projection';

const asset = z.object({
  id: z.string(),
  name: z.string().nullish(),
  tags: z.array(z.object({ key: z.string() })).default([]),
  owner: z.object({ id: z.string() }).nullable(),
});
const page = z.object({ data: z.array(asset), meta: z.looseObject({ total: z.number() }) });

describe('compileProjection', () => {
  const project = compileProjection(page);

  it('leaves out, at every depth, what the schema does not name', () => {
    const made = {
      data: [
        { id: 'a', name: 'Engine 7', password_digest: 'x', tags: [{ key: 'k', secret: 's' }], owner: { id: 'o', token: 't' } },
        { id: 'b', name: null, tags: [], owner: null, vin_internal: 'v' },
      ],
      meta: { total: 2 },
      debug: { sql: 'select *' },
    };
    expect(JSON.stringify(project(made))).toBe(
      JSON.stringify({
        data: [
          { id: 'a', name: 'Engine 7', tags: [{ key: 'k' }], owner: { id: 'o' } },
          { id: 'b', name: null, tags: [], owner: null },
        ],
        meta: { total: 2 },
      }),
    );
  });

  it('keeps what a loose object carries beyond its shape', () => {
    expect(JSON.stringify(project({ data: [], meta: { extra: 1, total: 0 }, debug: 1 }))).toBe('{"data":[],"meta":{"extra":1,"total":0}}');
  });

  it('writes an answer that names nothing more as it is, without copying it', () => {
    const made = { data: [{ id: 'a', name: 'x', tags: [{ key: 'k' }], owner: null }], meta: { total: 1 } };
    expect(project(made)).toBe(made);
  });

  it('adds nothing: an absent field stays absent, a default is not filled in', () => {
    expect(project({ data: [{ id: 'a', owner: null }], meta: { total: 1 } })).toEqual({
      data: [{ id: 'a', owner: null }],
      meta: { total: 1 },
    });
  });

  it('copies a union or a record whole', () => {
    const either = compileProjection(z.union([z.object({ a: z.string() }), z.object({ b: z.string() })]));
    expect(either({ a: '1', c: '2' })).toEqual({ a: '1', c: '2' });
  });
});
