import { describe, expect, it } from 'vitest';
import { TOKEN_REFRESH_LEAD_MS } from '../../src/domain/constants';
import {
  isSessionExpired,
  refreshDelay,
  refreshRequest,
  signInRequest,
  tokenRequestSchema,
  tokenResponseSchema,
  toSession,
} from '../../src/domain/session';

const NOW = 1_717_243_200_000; // 2024-06-01T12:00:00Z

describe('part1 §3 token response → session', () => {
  it('expiresAt = (created_at + expires_in) × 1000', () => {
    const resp = tokenResponseSchema.parse({ access_token: 'A', refresh_token: 'R', expires_in: 7200, created_at: 1_717_240_000 });
    expect(toSession(resp, NOW)).toEqual({ token: 'A', refreshToken: 'R', expiresIn: 7200, expiresAt: (1_717_240_000 + 7200) * 1000 });
  });

  it.each([undefined, null])('created_at %s defaults to now', (createdAt) => {
    const resp = tokenResponseSchema.parse({ access_token: 'A', refresh_token: 'R', expires_in: 7200, created_at: createdAt });
    expect(toSession(resp, NOW).expiresAt).toBe(NOW + 7_200_000);
  });

  it.each([
    ['no access token', { refresh_token: 'R', expires_in: 1 }],
    ['empty access token', { access_token: '', refresh_token: 'R', expires_in: 1 }],
    ['no expires_in', { access_token: 'A', refresh_token: 'R' }],
    ['a string expires_in', { access_token: 'A', refresh_token: 'R', expires_in: '60' }],
  ])('rejects %s', (_name, body) => {
    expect(tokenResponseSchema.safeParse(body).success).toBe(false);
  });
});

describe('part1 §4 refresh 10 s before expiry', () => {
  const session = { expiresAt: NOW + 60_000 };
  it.each([
    ['a minute left', NOW, 50_000, false],
    ['10 s + 1 ms left', NOW + 50_000 - 1, 1, false],
    ['exactly 10 s left', NOW + 50_000, 0, true],
    ['5 s left', NOW + 55_000, -5_000, true],
    ['already past', NOW + 70_000, -20_000, true],
  ])('%s', (_name, now, delay, expired) => {
    expect(refreshDelay(session, now)).toBe(delay);
    expect(isSessionExpired(session, now)).toBe(expired);
  });

  it('the lead is 10 s', () => {
    expect(TOKEN_REFRESH_LEAD_MS).toBe(10_000);
  });
});

describe('part1 §7 POST /user_token bodies', () => {
  it('sign-in', () => {
    expect(signInRequest('a@b.example', 'pw')).toEqual({
      grant_type: 'password',
      application: 'dashboard',
      username: 'a@b.example',
      password: 'pw',
    });
  });

  it('sign-in with an unlock token', () => {
    expect(signInRequest('a@b.example', 'pw', 'tok')).toMatchObject({ unlock_token: 'tok' });
    expect(signInRequest('a@b.example', 'pw', null)).not.toHaveProperty('unlock_token');
  });

  it('refresh', () => {
    expect(refreshRequest('R1')).toEqual({ grant_type: 'refresh_token', refresh_token: 'R1' });
  });

  it.each([
    ['sign-in', signInRequest('a@b.example', 'pw', 'u'), true],
    ['refresh', refreshRequest('R'), true],
    ['an unknown grant', { grant_type: 'client_credentials' }, false],
    ['sign-in for another application', { grant_type: 'password', application: 'mobile', username: 'u', password: 'p' }, false],
    ['refresh without a token', { grant_type: 'refresh_token' }, false],
  ])('the server schema, %s (%j): accepts %s', (_name, body, ok) => {
    expect(tokenRequestSchema.safeParse(body).success).toBe(ok);
  });
});
