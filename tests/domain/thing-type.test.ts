import { describe, expect, it } from 'vitest';
import {
  fromThingSubtypeWire,
  fromThingTypeWire,
  subtypesForType,
  thingSubtypeWireSchema,
  thingTypeWireSchema,
  typeOptionsFor,
  type ThingType,
  codeWords,
  thingSubtypeLabel,
  thingTypeLabel,
} from '../../src/domain/thing-type';

describe('part1 §3 thing type and subtype', () => {
  it.each([
    ['a display name', 'Police Car', 'Police Car'],
    ['none', null, 'police'],
    ['an empty one', '', 'police'],
  ])('type displayName with %s', (_name, displayName, expected) => {
    const t = fromThingTypeWire(thingTypeWireSchema.parse({ id: 't1', name: 'police', display_name: displayName, is_emergency: true }));
    expect(t).toEqual({ id: 't1', name: 'police', displayName: expected, isEmergency: true });
  });

  it('is_emergency defaults to false', () => {
    expect(thingTypeWireSchema.parse({ id: 't', name: 'tow' }).is_emergency).toBe(false);
  });

  it('maps a subtype', () => {
    const s = fromThingSubtypeWire(thingSubtypeWireSchema.parse({ id: 's1', name: 'engine', thing_type_id: 't2' }));
    expect(s).toEqual({ id: 's1', name: 'engine', displayName: 'engine', thingTypeId: 't2' });
  });

  it('a subtype needs its type id', () => {
    expect(thingSubtypeWireSchema.safeParse({ id: 's1', name: 'engine' }).success).toBe(false);
  });
});

describe('part1 §5 subtype options depend on the chosen type', () => {
  const subtypes = [
    { id: 's1', name: 'engine', displayName: 'Engine', thingTypeId: 'fire' },
    { id: 's2', name: 'ladder', displayName: 'Ladder', thingTypeId: 'fire' },
    { id: 's3', name: 'cruiser', displayName: 'Cruiser', thingTypeId: 'police' },
  ];
  it.each([
    ['fire', ['s1', 's2']],
    ['police', ['s3']],
    ['tow', []],
    ['', []],
    [null, []],
  ] as const)('type %s → %j', (typeId, ids) => {
    expect(subtypesForType(subtypes, typeId).map((s) => s.id)).toEqual(ids);
  });
});

describe('part1 §5 type options limited to the kind matching the asset', () => {
  const types: ThingType[] = [
    { id: 'police', name: 'police', displayName: 'Police', isEmergency: true },
    { id: 'fire', name: 'fire', displayName: 'Fire', isEmergency: true },
    { id: 'tow', name: 'tow', displayName: 'Tow', isEmergency: false },
    { id: 'waste', name: 'waste', displayName: 'Waste', isEmergency: false },
  ];
  it.each([
    ['an emergency type by id', { thingTypeId: 'fire', thingType: null, isResponderType: false }, ['police', 'fire']],
    ['a non-emergency type by id', { thingTypeId: 'tow', thingType: null, isResponderType: true }, ['tow', 'waste']],
    ['a type found by name', { thingTypeId: null, thingType: 'waste', isResponderType: true }, ['tow', 'waste']],
    ['an unknown type, responder', { thingTypeId: 'x', thingType: 'x', isResponderType: true }, ['police', 'fire']],
    ['no type, not a responder', { thingTypeId: null, thingType: null, isResponderType: false }, ['tow', 'waste']],
  ])('%s', (_name, asset, ids) => {
    expect(typeOptionsFor(asset, types).map((t) => t.id)).toEqual(ids);
  });
});

describe('type and subtype labels: display names, else the code as words', () => {
  it('reads the lists, falls back to words', () => {
    const types = [{ name: 'police', displayName: 'Police Department' }];
    const subtypes = [{ id: 'st-1', name: 'patrol_car', displayName: 'Patrol Car' }];
    expect(thingTypeLabel('police', types)).toBe('Police Department');
    expect(thingTypeLabel('arrow_board', types)).toBe('Arrow board');
    expect(thingSubtypeLabel({ id: 'st-1', name: 'anything' }, subtypes)).toBe('Patrol Car');
    expect(thingSubtypeLabel({ id: null, name: 'patrol_car' }, subtypes)).toBe('Patrol Car');
    expect(thingSubtypeLabel({ id: null, name: 'attenuator_truck' }, subtypes)).toBe('Attenuator truck');
    expect(codeWords('all-lanes-open')).toBe('All lanes open');
  });
});
