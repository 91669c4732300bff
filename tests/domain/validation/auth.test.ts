import { describe, expect, it } from 'vitest';
import { forgotPasswordSchema, passwordRules, resetPasswordSchema, signInSchema } from '../../../src/domain/validation/auth';
import { fieldErrors } from '../../../src/domain/validation/field-errors';

describe('part1 §5 sign-in', () => {
  it.each<[string, { email: string; password: string }, Record<string, string>]>([
    ['valid', { email: 'ann@example.com', password: 'x' }, {}],
    ['email missing', { email: '', password: 'x' }, { email: 'Required' }],
    ['email blank', { email: '   ', password: 'x' }, { email: 'Required' }],
    ['email without @', { email: 'ann.example.com', password: 'x' }, { email: 'Must be a valid email' }],
    ['email without a dot in the domain', { email: 'ann@example', password: 'x' }, { email: 'Must be a valid email' }],
    ['email with a space', { email: 'ann smith@example.com', password: 'x' }, { email: 'Must be a valid email' }],
    ['email with nothing before @', { email: '@example.com', password: 'x' }, { email: 'Must be a valid email' }],
    ['email trimmed', { email: ' ann@example.com ', password: 'x' }, {}],
    ['password missing', { email: 'ann@example.com', password: '' }, { password: 'Required' }],
    ['password blank', { email: 'ann@example.com', password: '  ' }, { password: 'Required' }],
  ])('%s', (_name, form, expected) => {
    expect(fieldErrors(signInSchema.safeParse(form))).toEqual(expected);
  });

  it('keeps the password as typed and trims the email', () => {
    expect(signInSchema.parse({ email: ' a@b.co ', password: ' pw ' })).toEqual({ email: 'a@b.co', password: ' pw ' });
  });

  it('forgot password needs a valid email', () => {
    expect(fieldErrors(forgotPasswordSchema.safeParse({ email: 'x' }))).toEqual({ email: 'Must be a valid email' });
  });
});

describe('part1 §5 reset password rules', () => {
  it.each<[string, string, readonly boolean[]]>([
    ['exactly 8 with everything', 'Abcdef1!', [true, true, true, true, true]],
    ['7 characters', 'Abcde1!', [false, true, true, true, true]],
    ['no digit', 'Abcdefg!', [true, false, true, true, true]],
    ['no uppercase', 'abcdef1!', [true, true, false, true, true]],
    ['no lowercase', 'ABCDEF1!', [true, true, true, false, true]],
    ['no special', 'Abcdefg1', [true, true, true, true, false]],
    ['a special outside the list', 'Abcdef1$', [true, true, true, true, false]],
    ['every listed special counts: {', 'Abcdef1{', [true, true, true, true, true]],
    ['every listed special counts: ~', 'Abcdef1~', [true, true, true, true, true]],
    ['empty', '', [false, false, false, false, false]],
  ])('%s', (_name, password, met) => {
    expect(passwordRules(password).map((rule) => rule.met)).toEqual(met);
  });

  it('lists the rules in order with their labels', () => {
    expect(passwordRules('').map((rule) => rule.label)).toEqual([
      'At least 8 characters',
      'At least one number',
      'At least one uppercase letter',
      'At least one lowercase letter',
      'At least one special character (*@!#%&()^~{})',
    ]);
  });

  it.each<[string, { password: string; passwordConfirmation: string }, Record<string, string>]>([
    ['valid', { password: 'Abcdef1!', passwordConfirmation: 'Abcdef1!' }, {}],
    ['mismatch', { password: 'Abcdef1!', passwordConfirmation: 'Abcdef1?' }, { passwordConfirmation: 'Should match password' }],
    ['too short', { password: 'Abcde1!', passwordConfirmation: 'Abcde1!' }, { password: 'At least 8 characters' }],
    ['missing', { password: '', passwordConfirmation: '' }, { password: 'Required' }],
    [
      'no special',
      { password: 'Abcdefg1', passwordConfirmation: 'Abcdefg1' },
      { password: 'At least one special character (*@!#%&()^~{})' },
    ],
  ])('schema: %s', (_name, form, expected) => {
    expect(fieldErrors(resetPasswordSchema.safeParse(form))).toEqual(expected);
  });
});
