/**
 * The auth calls of part 1 §7 over the API client, each mapped through its catalogue context
 * (part 1 §8): sign-in, refresh, verify, revoke, forgot, unlock, reset and the profile.
 */
import { z } from 'zod';
import { fromProfileWire, profileWireSchema, type Profile } from '../../domain/profile';
import { refreshRequest, signInRequest, tokenResponseSchema, type TokenResponse } from '../../domain/session';
import type { ApiClient } from '../api-client';

const anyAnswer = z.unknown();

export interface AuthCalls {
  signIn(email: string, password: string, unlockToken?: string | null): Promise<TokenResponse>;
  refresh(refreshToken: string): Promise<TokenResponse>;
  verify(accessToken: string): Promise<void>;
  revoke(token: string): Promise<void>;
  forgotPassword(email: string): Promise<void>;
  unlockAccount(email: string): Promise<void>;
  resetPassword(token: string, password: string): Promise<void>;
  profile(): Promise<Profile>;
}

export function createAuthCalls(api: ApiClient): AuthCalls {
  return {
    signIn: (email, password, unlockToken) =>
      api.request('/user_token', {
        method: 'POST',
        body: signInRequest(email, password, unlockToken),
        schema: tokenResponseSchema,
        context: 'signIn',
        auth: false,
      }),
    refresh: (refreshToken) =>
      api.request('/user_token', {
        method: 'POST',
        body: refreshRequest(refreshToken),
        schema: tokenResponseSchema,
        context: 'tokenRefresh',
        auth: false,
      }),
    async verify(accessToken) {
      await api.request('/verify_token', {
        method: 'POST',
        body: { access_token: accessToken },
        schema: anyAnswer,
        context: 'tokenVerify',
        auth: false,
      });
    },
    async revoke(token) {
      await api.request('/revoke_token', { method: 'POST', body: { token }, context: 'general', auth: false });
    },
    async forgotPassword(email) {
      await api.request('/forgot_password', { method: 'POST', body: { email }, context: 'forgot', auth: false });
    },
    async unlockAccount(email) {
      await api.request('/unlock_account', { method: 'POST', body: { email }, context: 'unlock', auth: false });
    },
    async resetPassword(token, password) {
      await api.request('/reset_password', { method: 'PUT', body: { token, password }, context: 'reset', auth: false });
    },
    async profile() {
      return fromProfileWire(await api.request('/profile', { schema: profileWireSchema, context: 'profile' }));
    },
  };
}
