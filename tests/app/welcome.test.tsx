// @vitest-environment jsdom
/**
 * part 1 §2 welcome pages and part 1 §8 sign-in, forgot, unlock and reset errors: every state
 * and message, with fetch answered at the HTTP boundary.
 */
import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { json, renderApp, type Handler } from './support/render-app';

afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

function fill(label: string, value: string) {
  const input = screen.getByLabelText(label);
  fireEvent.change(input, { target: { value } });
  fireEvent.blur(input);
}

function deferred() {
  let resolve!: (r: Response) => void;
  const promise = new Promise<Response>((r) => (resolve = r));
  return { promise, resolve };
}

async function signInWith(answer: Handler | (() => never)) {
  renderApp('/welcome/signin', { 'POST /user_token': answer as Handler });
  await screen.findByRole('heading', { name: 'Sign in' });
  fill('Email', 'ada@example.com');
  fill('Password', 'secret');
  fireEvent.click(screen.getByRole('button', { name: 'Sign In' }));
  return screen.findByRole('alert');
}

describe('part1 §2 sign-in page', () => {
  it('shows show/hide password, the forgot link and the confidentiality and licence notice', async () => {
    renderApp('/welcome/signin', {});
    await screen.findByRole('heading', { name: 'Sign in' });
    const password = screen.getByLabelText('Password') as HTMLInputElement;
    expect(password.type).toBe('password');
    fireEvent.click(screen.getByRole('button', { name: 'Show password' }));
    expect(password.type).toBe('text');
    fireEvent.click(screen.getByRole('button', { name: 'Hide password' }));
    expect(password.type).toBe('password');
    expect(screen.getByRole('link', { name: 'Forgot password?' }).getAttribute('href')).toBe('/welcome/forgot');
    expect(screen.getByText(/confidential and for authorized users only/)).toBeTruthy();
  });

  it("part1 §5 field messages: 'Required' and 'Must be a valid email'", async () => {
    renderApp('/welcome/signin', {});
    await screen.findByRole('heading', { name: 'Sign in' });
    fireEvent.click(screen.getByRole('button', { name: 'Sign In' }));
    expect(await screen.findAllByText('Required')).toHaveLength(2);
    fill('Email', 'not an email');
    expect(await screen.findByText('Must be a valid email')).toBeTruthy();
  });

  it("'Pending...' while submitting, then 'Success! You're being redirected...' and the dashboard", async () => {
    const answer = deferred();
    const { router, calls } = renderApp('/welcome/signin', {
      'POST /user_token': () => answer.promise,
      'GET /profile': () => json(200, { id: 'u', email: 'ada@example.com', organization_id: 'o', permissions: ['thing:read'] }),
    });
    await screen.findByRole('heading', { name: 'Sign in' });
    fill('Email', 'ada@example.com');
    fill('Password', 'secret');
    fireEvent.click(screen.getByRole('button', { name: 'Sign In' }));
    expect(await screen.findByRole('button', { name: 'Pending...' })).toBeTruthy();
    expect(calls[0]?.body).toEqual({ grant_type: 'password', application: 'dashboard', username: 'ada@example.com', password: 'secret' });
    answer.resolve(json(200, { access_token: 'a', refresh_token: 'r', expires_in: 7200 }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard/things'));
  });

  it.each<[string, number, Record<string, unknown>, string[]]>([
    ['400', 400, { error: 'invalid_grant', error_description: 'Email and/or password incorrect.' }, ['Email and/or password incorrect.']],
    ['400 user_suspended', 400, { error: 'user_suspended' }, ['User is suspended.', 'Please contact support@lightbar.example']],
    ['404', 404, {}, ['Email and/or password incorrect.']],
    [
      '403',
      403,
      { error: 'not_authorized' },
      ['Your user is not authorized to access Lightbar.', 'Please contact support@lightbar.example'],
    ],
    [
      '401 expired',
      401,
      { error: 'expired' },
      [
        'Your account has expired due to inactivity.',
        'Please contact your provider to restore your account.',
        'Click Forgot password? to reactivate your account.',
      ],
    ],
    [
      '401 not_authorized_method',
      401,
      { error: 'not_authorized_method' },
      ['Your organization is managing user access to the dashboard.', 'Please contact your administrator for access.'],
    ],
    ['401 user_suspended', 401, { error: 'user_suspended' }, ['User is suspended.', 'Please contact support@lightbar.example']],
    [
      '401 not_safetycloud_enabled',
      401,
      { error: 'not_safetycloud_enabled' },
      ['Your user is not authorized to access Lightbar.', 'Please contact support@lightbar.example'],
    ],
    ['401 locked_out', 401, { error: 'locked_out', error_description: 'Your account is locked.' }, ['Your account is locked.']],
    ['401 other', 401, { error: 'whatever' }, ['Unknown failure.']],
    ['500', 500, {}, ['Unknown failure.']],
  ])('part1 §8 sign-in %s', async (_name, status, body, lines) => {
    const alert = await signInWith(() => json(status, body));
    expect([...alert.querySelectorAll('p')].map((p) => p.textContent)).toEqual(lines);
    if (lines.some((line) => line.startsWith('Please contact support'))) {
      expect(within(alert).getByRole('link', { name: 'support@lightbar.example' }).getAttribute('href')).toBe(
        'mailto:support@lightbar.example',
      );
    }
    if (lines.some((line) => line.includes('reactivate'))) {
      expect(within(alert).getByRole('link', { name: 'Forgot password?' }).getAttribute('href')).toBe('/welcome/forgot');
    }
  });

  it("part1 §8 sign-in status 0: 'Connection failed.'", async () => {
    const alert = await signInWith(() => {
      throw new TypeError('Failed to fetch');
    });
    expect(alert.textContent).toBe('Connection failed.');
  });
});

describe('part1 §2 forgot password', () => {
  async function submitForgot(answer: Handler) {
    const harness = renderApp('/welcome/forgot', { 'POST /forgot_password': answer });
    await screen.findByRole('heading', { name: 'Forgot password' });
    fill('Email', 'ada@example.com');
    fireEvent.click(screen.getByRole('button', { name: 'Reset Password' }));
    return harness;
  }

  it("answers 'You'll receive an email if account was found'", async () => {
    const { calls } = await submitForgot(() => json(200, { message: 'ok' }));
    expect((await screen.findByRole('status')).textContent).toBe("You'll receive an email if account was found");
    expect(calls[0]?.body).toEqual({ email: 'ada@example.com' });
  });

  it.each<[number, string]>([
    [404, "There's no user with such email."],
    [500, 'Unknown failure.'],
  ])('part1 §8 forgot %i: %s', async (status, text) => {
    await submitForgot(() => json(status, {}));
    expect((await screen.findByRole('alert')).textContent).toBe(text);
  });

  it("part1 §8 forgot status 0: 'Connection failed.'", async () => {
    await submitForgot(() => {
      throw new TypeError('offline');
    });
    expect((await screen.findByRole('alert')).textContent).toBe('Connection failed.');
  });
});

describe('part1 §2 reset password', () => {
  const PATH = '/welcome/reset/ada%40example.com/reset-token-1';

  async function submitReset(answer: Handler, password = 'Good#Pass1') {
    const harness = renderApp(PATH, { 'PUT /reset_password': answer });
    await screen.findByRole('heading', { name: 'Set a new password' });
    fill('New Password', password);
    fill('Confirm Password', password);
    fireEvent.click(screen.getByRole('button', { name: 'Save Password' }));
    return harness;
  }

  it("shows the live rule list and 'Password expires after 90 days'", async () => {
    renderApp(PATH, {});
    await screen.findByRole('heading', { name: 'Set a new password' });
    expect(screen.getByText('Password expires after 90 days')).toBeTruthy();
    const rules = () => [...screen.getByRole('list', { name: 'Password requirements' }).querySelectorAll('li')].map((li) => li.dataset.met);
    expect(rules()).toEqual(['false', 'false', 'false', 'false', 'false']);
    fill('New Password', 'abcdefgH1');
    expect(rules()).toEqual(['true', 'true', 'true', 'true', 'false']);
    fill('Confirm Password', 'different');
    expect(await screen.findByText('Should match password')).toBeTruthy();
  });

  it("success: 'Success! You're being redirected...' and sign-in after 2 s", async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const { router, calls } = await submitReset(() => json(200, { message: 'Password updated' }));
    expect((await screen.findByRole('status')).textContent).toBe("Success! You're being redirected...");
    expect(calls[0]?.body).toEqual({ token: 'reset-token-1', password: 'Good#Pass1' });
    await act(async () => {
      await vi.advanceTimersByTimeAsync(1_900);
    });
    expect(router.state.location.pathname).toBe('/welcome/reset/ada%40example.com/reset-token-1');
    await act(async () => {
      await vi.advanceTimersByTimeAsync(200);
    });
    expect(router.state.location.pathname).toBe('/welcome/signin');
  });

  it.each<[string, number, Record<string, unknown>, string[]]>([
    [
      '401 user_suspended',
      401,
      { error: 'user_suspended', message: 'User is suspended.' },
      ['User is suspended.', 'Please contact support'],
    ],
    ['404', 404, { error: 'not_found' }, ['Reset token is expired or does not exist.']],
    [
      '422 reused',
      422,
      { error: 'password_reused', message: 'Password was used before: it cannot be the same as the last 10 passwords.' },
      ['Cannot be same as last 10 passwords.'],
    ],
    ['422 expired', 422, { error: 'token_expired', message: 'Reset token has expired.' }, ['Reset token is expired or does not exist.']],
    [
      '422 other',
      422,
      { error: 'weak_password', message: 'Password does not fulfill password requirements.' },
      ['Password does not fulfill password requirements.'],
    ],
  ])('part1 §8 reset %s', async (_name, status, body, lines) => {
    await submitReset(() => json(status, body));
    const alert = await screen.findByRole('alert');
    expect([...alert.querySelectorAll('p')].map((p) => p.textContent)).toEqual(lines);
  });
});

describe('part1 §2 unlock', () => {
  const PATH = '/welcome/unlock/ada%40example.com/unlock-token-1';

  it('signs in with the unlock token and reaches the dashboard', async () => {
    const { router, calls } = renderApp(PATH, {
      'POST /user_token': () => json(200, { access_token: 'a', refresh_token: 'r', expires_in: 7200 }),
      'GET /profile': () => json(200, { id: 'u', email: 'ada@example.com', organization_id: 'o', permissions: ['incident:read'] }),
    });
    await screen.findByRole('heading', { name: 'Unlock your account' });
    expect((screen.getByLabelText('Email') as HTMLInputElement).value).toBe('ada@example.com');
    fill('Password', 'secret');
    fireEvent.click(screen.getByRole('button', { name: 'Unlock and Sign In' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard/events'));
    expect(calls[0]?.body).toMatchObject({ username: 'ada@example.com', unlock_token: 'unlock-token-1' });
  });

  it("a new link: 'You'll receive an email if account was found'; 404 'There's no user with such email.'", async () => {
    let status = 200;
    renderApp(PATH, { 'POST /unlock_account': () => json(status, {}) });
    await screen.findByRole('heading', { name: 'Unlock your account' });
    fireEvent.click(screen.getByRole('button', { name: 'Send a new unlock link' }));
    expect((await screen.findByRole('status')).textContent).toBe("You'll receive an email if account was found");
    status = 404;
    fireEvent.click(screen.getByRole('button', { name: 'Send a new unlock link' }));
    expect((await screen.findByRole('alert')).textContent).toBe("There's no user with such email.");
  });
});

describe('part1 §2 OAuth-style return', () => {
  it('reads access_token and refresh_token from the query, a token over 400 characters included', async () => {
    const long = 'x'.repeat(500);
    const { router, storage } = renderApp(`/oauth?access_token=${long}&refresh_token=${long}r&expires_in=7200`, {
      'GET /profile': () => json(200, { id: 'u', email: 'ada@example.com', organization_id: 'o', permissions: ['thing:read'] }),
    });
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard/things'));
    expect(JSON.parse(storage.getItem('lightbar.session') ?? '{}').token).toBe(long);
  });

  it('without an expiry, trades the refresh token once for a full session', async () => {
    const { router, calls } = renderApp('/oauth?access_token=aaa&refresh_token=rrr', {
      'POST /user_token': () => json(200, { access_token: 'a2', refresh_token: 'r2', expires_in: 7200 }),
      'GET /profile': () => json(200, { id: 'u', email: 'ada@example.com', organization_id: 'o', permissions: ['thing:read'] }),
    });
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard/things'));
    expect(calls.filter((c) => c.path === '/user_token').map((c) => c.body)).toEqual([
      { grant_type: 'refresh_token', refresh_token: 'rrr' },
    ]);
  });

  it("a refused exchange (422): 'Access token is expired or does not exist.'", async () => {
    renderApp('/oauth?access_token=aaa&refresh_token=rrr', { 'POST /user_token': () => json(422, { error: 'invalid_token' }) });
    expect((await screen.findByRole('alert')).textContent).toBe('Access token is expired or does not exist.');
  });
});
