// @vitest-environment jsdom
/** part 1 §2 routes: where signed-out and signed-in visits go, the section redirects, and the status pages. */
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { json, profileWire, renderApp } from './support/render-app';

afterEach(() => cleanup());

const signedInRoutes = (permissions: string[]) => ({
  'GET /profile': () => json(200, profileWire(permissions)),
  'GET /organization/things_count': () => json(200, { count: 42 }),
  'GET /version': () => json(200, { version: '1.0.0' }),
});

describe('part1 §2 public routes', () => {
  it.each([
    ['/', '/welcome/signin'],
    ['/dashboard', '/welcome/signin'],
    ['/dashboard/areas/7', '/welcome/signin'],
    ['/welcome', '/welcome/signin'],
  ])('signed out, %s goes to %s', async (from, to) => {
    const { router } = renderApp(from, {});
    await waitFor(() => expect(router.state.location.pathname).toBe(to));
  });

  it('a protected path is remembered and reached after sign-in', async () => {
    const { router } = renderApp('/dashboard/areas/7', {
      ...signedInRoutes(['exclusion:read', 'thing:read']),
      'POST /user_token': () => json(200, { access_token: 'a', refresh_token: 'r', expires_in: 7200 }),
      'GET /organization/exclusion_zone': () => json(200, []),
    });
    await screen.findByRole('heading', { name: 'Sign in' });
    fireEvent.change(screen.getByLabelText('Email'), { target: { value: 'ada@example.com' } });
    fireEvent.change(screen.getByLabelText('Password'), { target: { value: 'secret' } });
    fireEvent.click(screen.getByRole('button', { name: 'Sign In' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard/areas/7'));
    // The areas section's detail page of area 7 (which this organization does not have).
    // The section's chunk loads first (seconds on a busy machine).
    expect(await screen.findByRole('heading', { level: 1, name: 'Area' }, { timeout: 10_000 })).toBeTruthy();
    expect(await screen.findByText('This area was not found.', {}, { timeout: 10_000 })).toBeTruthy();
  });

  it.each([
    ['/', ['thing:read'], '/dashboard/things'],
    ['/welcome/signin', ['thing:read'], '/dashboard/things'],
    ['/dashboard', ['incident:read'], '/dashboard/events'],
    ['/dashboard', ['report:read'], '/dashboard/data/reports'],
    ['/dashboard', ['export:read'], '/dashboard/data/exports'],
    ['/dashboard/data', ['export:read', 'report:read'], '/dashboard/data/reports'],
    ['/dashboard/accounts_new/users', ['engineer:test'], '/dashboard/accounts-new/users'],
  ])('signed in, %s with %j goes to %s', async (from, permissions, to) => {
    const { router } = renderApp(from, signedInRoutes(permissions), { signedIn: true });
    await waitFor(() => expect(router.state.location.pathname).toBe(to));
  });

  it('no allowed section: the unauthorized page', async () => {
    renderApp('/dashboard', signedInRoutes([]), { signedIn: true });
    // The profile loads first (a second or more on a loaded machine).
    expect(
      await screen.findByRole('heading', { name: 'Sorry, you are not currently authorized to access this page.' }, { timeout: 5_000 }),
    ).toBeTruthy();
  });

  it('a section without its permission: the unauthorized page inside the shell', async () => {
    renderApp('/dashboard/things', signedInRoutes(['incident:read']), { signedIn: true });
    // The profile loads first (a second or more on a loaded machine).
    expect(
      await screen.findByRole('heading', { name: 'Sorry, you are not currently authorized to access this page.' }, { timeout: 5_000 }),
    ).toBeTruthy();
  });

  it.each(['/nowhere', '/dashboard/nowhere'])('unknown URL %s: the not-found page and its button to /dashboard', async (path) => {
    renderApp(path, signedInRoutes(['thing:read']), { signedIn: true });
    expect(await screen.findByRole('heading', { name: 'Sorry, the requested URL was not found here.' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Take me back to the main page' }).getAttribute('href')).toBe('/dashboard');
  });
});
