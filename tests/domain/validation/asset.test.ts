import { describe, expect, it } from 'vitest';
import {
  assetFormSchema,
  availableProviders,
  canAddIntegration,
  organizationAccessSchema,
  type AssetForm,
} from '../../../src/domain/validation/asset';
import { fieldErrors } from '../../../src/domain/validation/field-errors';

const valid: AssetForm = {
  inService: true,
  isPubliclyReporting: true,
  nickname: 'Engine 7',
  thingType: 'type-1',
  thingSubtype: null,
  vinNumber: '1HGCM82633A004352',
  plateNumber: 'ABC 123',
  registryNumber: 'R-7',
  integrations: [],
};

const x = (n: number): string => 'x'.repeat(n);

describe('part1 §5 asset edit', () => {
  it.each<[string, Partial<Record<keyof AssetForm, unknown>>, Record<string, string>]>([
    ['valid', {}, {}],
    ['nickname missing', { nickname: '' }, { nickname: 'Required' }],
    ['nickname blank', { nickname: '   ' }, { nickname: 'Required' }],
    ['nickname of 50', { nickname: x(50) }, {}],
    ['nickname of 51', { nickname: x(51) }, { nickname: 'Must be 50 or fewer characters' }],
    ['plate of 50', { plateNumber: x(50) }, {}],
    ['plate of 51', { plateNumber: x(51) }, { plateNumber: 'Must be 50 or fewer characters' }],
    ['vehicle id of 50', { registryNumber: x(50) }, {}],
    ['vehicle id of 51', { registryNumber: x(51) }, { registryNumber: 'Must be 50 or fewer characters' }],
    ['VIN with a dash', { vinNumber: '1HGCM-82633' }, { vinNumber: 'Please only use numbers or letters' }],
    ['VIN with a space', { vinNumber: '1HG CM' }, { vinNumber: 'Please only use numbers or letters' }],
    ['VIN empty', { vinNumber: '' }, {}],
    ['type missing', { thingType: '' }, { thingType: 'Required' }],
    ['type absent', { thingType: undefined }, { thingType: 'Required' }],
    ['numeric type id', { thingType: 4 }, {}],
  ])('%s', (_name, change, expected) => {
    expect(fieldErrors(assetFormSchema.safeParse({ ...valid, ...change }))).toEqual(expected);
  });
});

describe('part1 §5 integrations', () => {
  const row = (provider: string, id = 'ext-1') => ({ provider, id });
  it.each<[string, { provider: string; id: string }[], Record<string, string>]>([
    ['one', [row('samsara')], {}],
    ['two different (the maximum)', [row('samsara'), row('geotab')], {}],
    [
      'three',
      [row('samsara'), row('geotab'), row('other')],
      { integrations: 'Available providers in use', 'integrations.2.provider': 'Required' },
    ],
    ['provider twice', [row('samsara'), row('samsara', 'ext-2')], { 'integrations.1.provider': 'Provider already used' }],
    ['provider missing', [row('')], { 'integrations.0.provider': 'Required' }],
    ['id missing', [row('geotab', ' ')], { 'integrations.0.id': 'Required' }],
  ])('%s', (_name, integrations, expected) => {
    expect(fieldErrors(assetFormSchema.safeParse({ ...valid, integrations }))).toEqual(expected);
  });

  it.each<[number, boolean, string | null]>([
    [0, true, null],
    [1, true, null],
    [2, false, 'Available providers in use'],
  ])('with %i rows another may be added: %s', (count, allowed, message) => {
    const rows = [{ provider: 'samsara' }, { provider: 'geotab' }].slice(0, count);
    expect(canAddIntegration(rows)).toEqual({ allowed, message });
  });

  it('offers a row its own provider and the unused ones', () => {
    const rows = [{ provider: 'samsara' }, { provider: '' }];
    expect(availableProviders(rows, 1)).toEqual(['geotab']);
    expect(availableProviders(rows, 0)).toEqual(['samsara', 'geotab']);
  });
});

describe('part1 §5 organization access edit', () => {
  it.each<[string, string, boolean]>([
    ['manager', 'manager', true],
    ['accessor', 'accessor', true],
    ['delete', 'delete', true],
    ['anything else', 'owner', false],
  ])('%s', (_name, relationshipType, ok) => {
    const result = organizationAccessSchema.safeParse({
      relations: [{ organizationUuid: 'o-1', organizationName: 'County', relationshipType }],
    });
    expect(result.success).toBe(ok);
  });
});
