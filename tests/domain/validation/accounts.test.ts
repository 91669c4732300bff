import { describe, expect, it } from 'vitest';
import { deviceConfigSchema, organizationFormSchema, userFormSchema } from '../../../src/domain/validation/accounts';
import { fieldErrors } from '../../../src/domain/validation/field-errors';

describe('part2 §5 user', () => {
  const valid = { firstName: 'Ann', lastName: 'Lee', email: 'ann@example.com', roleId: 2 };
  it.each<[string, Record<string, unknown>, Record<string, string>]>([
    ['valid', {}, {}],
    ['first name missing', { firstName: ' ' }, { firstName: 'Required' }],
    ['last name missing', { lastName: '' }, { lastName: 'Required' }],
    ['email missing', { email: '' }, { email: 'Required' }],
    ['email invalid', { email: 'ann@' }, { email: 'Must be a valid email' }],
    ['role missing', { roleId: undefined }, { roleId: 'Required' }],
    ['role not an integer', { roleId: 1.5 }, { roleId: 'Required' }],
  ])('%s', (_name, change, expected) => {
    expect(fieldErrors(userFormSchema.safeParse({ ...valid, ...change }))).toEqual(expected);
  });
});

describe('part2 §5 organization and address', () => {
  const valid = {
    name: 'County Fire',
    address1: '1 Main St',
    address2: '',
    city: 'Springfield',
    state: 'IL',
    postalCode: '62701',
    countryCode: 'US',
  };
  it.each<[string, Record<string, unknown>, Record<string, string>]>([
    ['valid', {}, {}],
    ['name missing', { name: '' }, { name: 'Required' }],
    ['address line 1 missing', { address1: '' }, { address1: 'Required' }],
    ['address line 2 optional', { address2: undefined }, {}],
    ['city missing', { city: ' ' }, { city: 'Required' }],
    ['state missing', { state: '' }, { state: 'Required' }],
    ['postal code missing', { postalCode: '' }, { postalCode: 'Required' }],
    ['zip 12345-6789', { postalCode: '12345-6789' }, {}],
    ['zip 12345-678', { postalCode: '12345-678' }, { postalCode: 'Invalid zip code' }],
    ['Canada', { countryCode: 'CA', postalCode: 'K1A0B1' }, {}],
    ['country code of 3', { countryCode: 'USA' }, { countryCode: 'Must be 2 or fewer characters' }],
    ['legacy e-mail invalid', { email: 'x@' }, { email: 'Must be a valid email' }],
    ['legacy e-mail empty', { email: '' }, {}],
  ])('%s', (_name, change, expected) => {
    expect(fieldErrors(organizationFormSchema.safeParse({ ...valid, ...change }))).toEqual(expected);
  });
});

describe('part2 §5 device config', () => {
  const valid = {
    fileName: 'ha7.cfg',
    platform: 'linux',
    thingType: 'police',
    model: 'HA7',
    warningLightPin: '17',
    indicatorPin: '18',
  };
  it.each<[string, Record<string, unknown>, Record<string, string>]>([
    ['valid', {}, {}],
    ['file name missing', { fileName: '' }, { fileName: 'Required' }],
    ['platform missing', { platform: '' }, { platform: 'Required' }],
    ['type missing', { thingType: '' }, { thingType: 'Required' }],
    ['model missing', { model: ' ' }, { model: 'Required' }],
    ['warning light pin missing', { warningLightPin: '' }, { warningLightPin: 'Required' }],
    ['indicator pin equal', { indicatorPin: '17' }, { indicatorPin: 'Cannot be the same as Warning Light Pin' }],
    ['indicator pin equal after trimming', { indicatorPin: ' 17 ' }, { indicatorPin: 'Cannot be the same as Warning Light Pin' }],
    ['indicator pin empty', { indicatorPin: '' }, {}],
  ])('%s', (_name, change, expected) => {
    expect(fieldErrors(deviceConfigSchema.safeParse({ ...valid, ...change }))).toEqual(expected);
  });
});
