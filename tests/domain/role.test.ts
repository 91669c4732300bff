import { describe, expect, it } from 'vitest';
import { fromRoleWire, roleLabel, roleWireSchema, sortRoles } from '../../src/domain/role';

describe('part1 §3, part2 §6 role labels', () => {
  it.each([
    ['USER (Incidents / Events only)', 'Media'], // part 1's spelling
    ['USER (Incidents/Events only)', 'Media'], // part 2's spelling
    ['USER', 'User'],
    ['ADMIN', 'Admin'],
    ['MANUFACTURER ADMIN', 'Org Admin'],
    ['  manufacturer  admin ', 'Org Admin'],
    ['ENGINEER', 'ENGINEER'],
    ['USER (Incidents)', 'USER (Incidents)'],
  ])('%j → %j', (name, label) => {
    expect(roleLabel(name)).toBe(label);
  });
});

describe('part1 §3 roles sorted by order', () => {
  it('maps and sorts', () => {
    const roles = [
      { id: 3, name: 'ADMIN', description: null, order: 2 },
      { id: 1, name: 'USER', description: 'Regular', order: 1 },
      { id: 4, name: 'MANUFACTURER ADMIN', order: 3 },
      { id: 2, name: 'USER (Incidents/Events only)', description: null, order: 1 },
    ].map((r) => fromRoleWire(roleWireSchema.parse(r)));
    expect(sortRoles(roles).map((r) => [r.id, r.label])).toEqual([
      [1, 'User'],
      [2, 'Media'],
      [3, 'Admin'],
      [4, 'Org Admin'],
    ]);
    expect(roles[0]).toEqual({ id: 3, name: 'ADMIN', description: null, order: 2, label: 'Admin' });
  });

  it('rejects a non-integer id', () => {
    expect(roleWireSchema.safeParse({ id: 'x', name: 'USER', order: 1 }).success).toBe(false);
  });
});
