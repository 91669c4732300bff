/**
 * Signing in the way a user does, through the sign-in form (part 1 §3), and the signed-in page's
 * token for API calls the test sends itself. Every spec signs in through this one helper.
 */
import { expect, type Page } from '@playwright/test';
import { SESSION_STORAGE_KEY, type StoredSession } from '../src/app/session/token-storage';
import { signInRequest, toSession, tokenResponseSchema } from '../src/domain/session';
import { DEMO_PASSWORD } from './server-fixture';

/** Fills the open sign-in form and presses Sign In; the caller waits for what should follow. */
export async function signIn(page: Page, email: string, password = DEMO_PASSWORD): Promise<void> {
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign In' }).click();
}

/**
 * Signs `email` in for the page's next load, for the specs about what comes after signing in: the
 * session is the one the sign-in form would store (the same POST /user_token, the same record in
 * local storage), put there before the page's first script runs, and returned (its token for the
 * spec's own calls). One page load instead of three (the form, the dashboard it opens, then the
 * page the spec is about); the form itself is e2e/shell.spec.ts's subject. Only the tab's first
 * document is given the session, so signing out later stays signed out.
 */
export async function signInBeforeLoad(page: Page, url: string, email: string, password = DEMO_PASSWORD): Promise<StoredSession> {
  const response = await page.request.post(`${url}/user_token`, { data: signInRequest(email, password) });
  const text = await response.text();
  expect(response.status(), `POST /user_token for ${email}: ${text.slice(0, 300)}`).toBe(200);
  const session: StoredSession = toSession(tokenResponseSchema.parse(JSON.parse(text)), Date.now());
  await page.addInitScript(
    ([key, value]) => {
      if (sessionStorage.getItem('e2e.session-given')) return;
      sessionStorage.setItem('e2e.session-given', '1');
      localStorage.setItem(key, value);
    },
    [SESSION_STORAGE_KEY, JSON.stringify(session)] as const,
  );
  return session;
}

/** Opens `path` signed in as `email` (signInBeforeLoad): the page the spec is about is the first it loads. */
export async function openSignedIn(page: Page, url: string, email: string, path: string, password = DEMO_PASSWORD): Promise<StoredSession> {
  const session = await signInBeforeLoad(page, url, email, password);
  await page.goto(`${url}${path}`);
  return session;
}

/** The access token of the page's session (the record the app keeps in local storage); '' when signed out. */
export async function sessionToken(page: Page): Promise<string> {
  return page.evaluate((key) => (JSON.parse(localStorage.getItem(key) ?? '{}') as { token?: string }).token ?? '', SESSION_STORAGE_KEY);
}

/**
 * A GET the test sends itself with the page's session (or `token`: one from signInBeforeLoad, before
 * the page has loaded): the parsed JSON of a 200 answer.
 */
export async function apiGet(page: Page, url: string, path: string, token?: string): Promise<unknown> {
  token ??= await sessionToken(page);
  const response = await page.request.get(`${url}${path}`, { headers: { authorization: `Bearer ${token}`, accept: 'application/json' } });
  const text = await response.text();
  // A failure says what the server answered (a 401's reason, a 422's fields), not only its status.
  expect(response.status(), `GET ${path}: ${text.slice(0, 300)}`).toBe(200);
  return JSON.parse(text) as unknown;
}
