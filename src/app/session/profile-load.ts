/**
 * GET /profile with the organization check (part 1 §7, §8): the first profile of a session
 * records the token's organization; a later one of another organization signs out.
 */
import { SECOND_MS } from '../../domain/constants';
import { CLIENT_ERROR_CODES, errorText, isNoAnswerOrBusy } from '../../domain/errors';
import { tokenOrgMismatch, type Profile } from '../../domain/profile';
import { ApiError } from '../api-client';
import type { AuthCalls } from './auth-calls';
import type { SessionNotice, SessionState } from './session-state';
import { writeSession, type TokenStorage } from './token-storage';

/** A profile load that got no answer (offline, or aborted) is asked again this much later (chosen). */
export const PROFILE_RETRY_MS = 5 * SECOND_MS;

const HTTP_UNAUTHORIZED = 401;

export interface ProfileLoadOptions {
  state: SessionState;
  auth: Pick<AuthCalls, 'profile'>;
  storage: TokenStorage | null;
  signOut(notice: SessionNotice): void;
}

/** Null when it signed out. A load that got no answer is asked again PROFILE_RETRY_MS later. */
export async function loadProfile({ state, auth, storage, signOut }: ProfileLoadOptions): Promise<Profile | null> {
  for (;;) {
    if (!state.session) return null;
    try {
      const profile = await auth.profile();
      if (state.status !== 'signedIn') return null;
      if (tokenOrgMismatch(profile, state.session?.organizationId)) {
        const text = errorText('profile', { code: CLIENT_ERROR_CODES.organizationMismatch });
        signOut({ title: text.text, body: text.detail });
        return null;
      }
      if (state.session && !state.session.organizationId) {
        state.session.organizationId = profile.organizationId;
        writeSession(storage, { ...state.session });
      }
      state.profile = profile;
      return profile;
    } catch (error) {
      // A 401 that survived a refresh already signed out through the API client.
      if (state.status !== 'signedIn') return null;
      const failure = error instanceof ApiError ? error.failure : { status: 0 };
      // No answer (offline, or the request aborted by a reload), a busy server (503 overloaded
      // under load) or a 401 the session kept (its refresh got no answer): not the profile
      // failure of part 1 §8; ask again later.
      if (isNoAnswerOrBusy(failure) || failure.status === HTTP_UNAUTHORIZED) {
        await new Promise((resolve) => setTimeout(resolve, PROFILE_RETRY_MS));
        continue;
      }
      const text = errorText('profile', failure);
      signOut({ title: text.text, body: text.detail });
      return null;
    }
  }
}
