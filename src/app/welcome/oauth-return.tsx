/**
 * The OAuth-style return (part 1 §2): reads access_token and refresh_token from the query string
 * (any length: a token over OAUTH_LONG_TOKEN_LENGTH characters is accepted). With expires_in (and
 * created_at) in the query the session is stored as it is; without, the refresh token is traded
 * once for a session whose expiry is known.
 */
import { useEffect, useRef, useState } from 'react';
import { Link, Navigate, useSearchParams } from 'react-router-dom';
import { useSnapshot } from 'valtio';
import { errorText, type UserError } from '../../domain/errors';
import { WELCOME_TEXT } from '../../domain/labels';
import { DASHBOARD_PATH } from '../../domain/permissions';
import { tokenResponseSchema, type TokenResponse } from '../../domain/session';
import { userErrorOf } from '../api-client';
import { useServices } from '../services';
import { ErrorBox } from './error-box';
import { WelcomeCard } from './welcome-layout';

/** The token response the query carries in full, or null when it names no expiry. */
export function tokensFromQuery(params: URLSearchParams): TokenResponse | null {
  const parsed = tokenResponseSchema.safeParse({
    access_token: params.get('access_token') ?? '',
    refresh_token: params.get('refresh_token') ?? '',
    expires_in: params.has('expires_in') ? Number(params.get('expires_in')) : undefined,
    created_at: params.has('created_at') ? Number(params.get('created_at')) : undefined,
  });
  return parsed.success ? parsed.data : null;
}

export function OAuthReturn() {
  const { auth, session } = useServices();
  const { status } = useSnapshot(session.state);
  const [params] = useSearchParams();
  const [failure, setFailure] = useState<UserError | null>(null);
  const [done, setDone] = useState(false);
  // A refresh token is spent by its first use: the exchange runs once per query (StrictMode runs effects twice).
  const handled = useRef<string | null>(null);

  useEffect(() => {
    const key = params.toString();
    if (handled.current === key) return;
    handled.current = key;
    const full = tokensFromQuery(params);
    const refreshToken = params.get('refresh_token');
    if (full) {
      session.signIn(full);
      setDone(true);
      return;
    }
    if (!params.get('access_token') || !refreshToken) {
      setFailure(errorText('tokenVerify', { status: 422 }));
      return;
    }
    auth
      .refresh(refreshToken)
      .then((tokens) => {
        session.signIn(tokens);
        setDone(true);
      })
      .catch((error: unknown) => {
        setFailure(userErrorOf(error, 'tokenRefresh'));
      });
  }, [auth, session, params]);

  if (done && status === 'signedIn') return <Navigate to={DASHBOARD_PATH} replace />;
  return (
    <main className="welcome">
      <WelcomeCard title={WELCOME_TEXT.signInTitle}>
        {failure ? <ErrorBox error={failure} /> : <p role="status">{WELCOME_TEXT.signingInWithLink}</p>}
        <Link className="welcome-link" to="/welcome/signin">
          {WELCOME_TEXT.backToSignIn}
        </Link>
      </WelcomeCard>
    </main>
  );
}
