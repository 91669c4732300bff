import type { z } from 'zod';

/** Copies a value as its schema names it: what the schema does not name is left out. */
export type Projection = (value: unknown) => unknown;

const same: Projection = (value) => value;

/**
 * The projection of a zod schema, compiled once per route: objects keep the keys their shape names
 * (a loose object keeps the others too, after them), arrays project their items, optional,
 * nullable and default wrappers pass null and undefined through. A union, a record or anything
 * else is copied whole (its values are the schema's to check, in the tests).
 */
export function compileProjection(schema: z.ZodType): Projection {
  const def = schema.def as unknown as { type: string; [key: string]: unknown };
  switch (def.type) {
    case 'optional':
    case 'nullable':
    case 'default':
    case 'prefault':
    case 'readonly':
    case 'nonoptional': {
      const inner = compileProjection(def.innerType as z.ZodType);
      return inner === same ? same : (value) => (value === null || value === undefined ? value : inner(value));
    }
    case 'array': {
      const item = compileProjection(def.element as z.ZodType);
      return (value) => {
        if (!Array.isArray(value) || item === same) return value;
        let changed = false;
        const items = value.map((element) => {
          const after = item(element);
          if (after !== element) changed = true;
          return after;
        });
        return changed ? items : value;
      };
    }
    case 'object': {
      const shape = def.shape as Record<string, z.ZodType>;
      const keys = Object.keys(shape);
      const fields = keys.map((key) => compileProjection(shape[key]!));
      const loose = (def.catchall as { def?: { type?: string } } | undefined)?.def?.type === 'unknown';
      const projected = fields.some((field) => field !== same);
      return (value) => {
        if (value === null || typeof value !== 'object' || Array.isArray(value)) return value;
        const source = value as Record<string, unknown>;
        // The usual answer names nothing more and its fields project to themselves: it is kept as
        // it is, no copy made (a page of 5,000 assets is checked, not rebuilt).
        let extra = false;
        if (!loose) for (const key in source) if (!Object.hasOwn(shape, key)) extra = true;
        let changed = false;
        const values = projected
          ? keys.map((key, i) => {
              const before = source[key];
              const after = before === undefined ? before : fields[i]!(before);
              if (after !== before) changed = true;
              return after;
            })
          : null;
        if (!extra && !changed) return value;
        const out: Record<string, unknown> = {};
        keys.forEach((key, i) => {
          if (key in source) out[key] = values ? values[i] : source[key];
        });
        if (loose) for (const key in source) if (!Object.hasOwn(shape, key)) out[key] = source[key];
        return out;
      };
    }
    default:
      return same;
  }
}
