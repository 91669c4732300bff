/**
 * Signing in the way a user does, through the sign-in form (part 1 §3), and the signed-in page's
 * token for API calls the test sends itself. Every spec signs in through this one helper.
 */
import { expect, type Page } from '@playwright/test';
import { SESSION_STORAGE_KEY } from '../src/app/session/token-storage';
import { DEMO_PASSWORD } from './server-fixture';

/** Fills the open sign-in form and presses Sign In; the caller waits for what should follow. */
export async function signIn(page: Page, email: string, password = DEMO_PASSWORD): Promise<void> {
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign In' }).click();
}

/** The access token of the page's session (the record the app keeps in local storage); '' when signed out. */
export async function sessionToken(page: Page): Promise<string> {
  return page.evaluate((key) => (JSON.parse(localStorage.getItem(key) ?? '{}') as { token?: string }).token ?? '', SESSION_STORAGE_KEY);
}

/** A GET the test sends itself with the page's session: the parsed JSON of a 200 answer. */
export async function apiGet(page: Page, url: string, path: string): Promise<unknown> {
  const token = await sessionToken(page);
  const response = await page.request.get(`${url}${path}`, { headers: { authorization: `Bearer ${token}`, accept: 'application/json' } });
  const text = await response.text();
  // A failure says what the server answered (a 401's reason, a 422's fields), not only its status.
  expect(response.status(), `GET ${path}: ${text.slice(0, 300)}`).toBe(200);
  return JSON.parse(text) as unknown;
}
