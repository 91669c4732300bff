import { describe, expect, it } from 'vitest';
import {
  apiKeyFormSchema,
  changePasswordSchema,
  deviceConfigSchema,
  organizationFormSchema,
  profileFormSchema,
  userFormSchema,
} from '../../../src/domain/validation/accounts';
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
    ['Canada', { countryCode: 'CA', state: 'ON', postalCode: 'K1A0B1' }, {}],
    ['US state not in the list', { state: 'ZZ' }, { state: 'Select a state' }],
    ['US state in lower case', { state: 'il' }, {}],
    ['Canadian province not in the list', { countryCode: 'CA', state: 'IL', postalCode: 'K1A0B1' }, { state: 'Select a province' }],
    ['free-text state elsewhere', { countryCode: 'GB', state: 'Greater London', postalCode: 'SW1A1AA' }, {}],
    ['an IANA time zone', { timezone: 'Europe/Paris' }, {}],
    ['an unknown time zone', { timezone: 'Mars/Olympus' }, { timezone: 'Select a time zone' }],
    ['an empty time zone', { timezone: '' }, { timezone: 'Required' }],
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
    ['pins 0 and 255', { warningLightPin: '0', indicatorPin: '255' }, {}],
    ['warning light pin not a number', { warningLightPin: 'GPIO17' }, { warningLightPin: 'Must be a whole number from 0 to 255' }],
    ['indicator pin over 255', { indicatorPin: '256' }, { indicatorPin: 'Must be a whole number from 0 to 255' }],
    ['heartbeat interval 1 and 86400', { heartbeatInterval: 86_400 }, {}],
    ['heartbeat interval 0', { heartbeatInterval: 0 }, { heartbeatInterval: 'Must be a whole number from 1 to 86400' }],
    ['heartbeat interval not a number', { heartbeatInterval: Number.NaN }, { heartbeatInterval: 'Must be a whole number from 1 to 86400' }],
    ['heartbeat interval over a day', { heartbeatInterval: 86_401 }, { heartbeatInterval: 'Must be a whole number from 1 to 86400' }],
  ])('%s', (_name, change, expected) => {
    expect(fieldErrors(deviceConfigSchema.safeParse({ ...valid, ...change }))).toEqual(expected);
  });
});

describe('part2 §5 account profile (designed PUT /profile)', () => {
  const valid = {
    firstName: 'Ada',
    lastName: 'Lovelace',
    phone: '',
    address1: '1 Main St',
    city: 'Austin',
    state: 'TX',
    postalCode: '78701',
    countryCode: 'US',
  };
  it.each<[string, Record<string, unknown>, Record<string, string>]>([
    ['valid', {}, {}],
    ['phone +1 (512) 555-0100', { phone: '+1 (512) 555-0100' }, {}],
    ['phone with letters', { phone: 'call me' }, { phone: 'Invalid phone number' }],
    ['phone too short', { phone: '12345' }, { phone: 'Invalid phone number' }],
    ['first name missing', { firstName: ' ' }, { firstName: 'Required' }],
    ['state not a US state', { state: 'ZZ' }, { state: 'Select a state' }],
    ['zip invalid', { postalCode: '1234' }, { postalCode: 'Invalid zip code' }],
  ])('%s', (_name, change, expected) => {
    expect(fieldErrors(profileFormSchema.safeParse({ ...valid, ...change }))).toEqual(expected);
  });
});

describe('part2 §5 change password (reset rules apply to account administration)', () => {
  it.each<[string, Record<string, unknown>, Record<string, string>]>([
    ['valid', {}, {}],
    ['current missing', { currentPassword: '' }, { currentPassword: 'Required' }],
    ['too short', { password: 'Ab#1', passwordConfirmation: 'Ab#1' }, { password: 'At least 8 characters' }],
    ['confirmation differs', { passwordConfirmation: 'New#Pass13' }, { passwordConfirmation: 'Should match password' }],
  ])('%s', (_name, change, expected) => {
    const form = { currentPassword: 'Old#Pass1', password: 'New#Pass12', passwordConfirmation: 'New#Pass12', ...change };
    expect(fieldErrors(changePasswordSchema.safeParse(form))).toEqual(expected);
  });
});

describe('API key form (part 2 §2 API keys, §5 "Required strings are trimmed, min 1")', () => {
  it.each<[string, Record<string, string>]>([
    ['  Depot gateway  ', {}],
    ['   ', { description: 'Required' }],
    ['x'.repeat(100), {}],
    ['x'.repeat(101), { description: '100 Max Characters' }],
  ])('%j → %j', (description, expected) => {
    expect(fieldErrors(apiKeyFormSchema.safeParse({ description }))).toEqual(expected);
  });
});
