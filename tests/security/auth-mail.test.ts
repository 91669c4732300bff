import { Writable } from 'node:stream';
import type { AddressInfo } from 'node:net';
import { eq } from 'drizzle-orm';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HOUR_MS, MAX_FAILED_SIGN_INS } from '../../src/domain/constants';
import { MAX_RECOVERY_MAILS_PER_HOUR } from '../../server/mail/recovery-mail-quota';
import { mailOutbox } from '../../server/db/schema';
import { createTestServer, PASSWORD, type TestServer } from '../support/test-server';

const GENERIC = { message: "You'll receive an email if account was found" };

/** Every line the server logs, as written (pino JSON). */
function logCapture() {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(chunk.toString());
      done();
    },
  });
  return { stream, lines, text: () => lines.join('') };
}

/** A real SMTP server that keeps every message it receives. */
async function startSmtp() {
  const received: { to: string[]; data: string }[] = [];
  const smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    onData(stream, session, callback) {
      let data = '';
      stream.on('data', (chunk: Buffer) => (data += chunk.toString()));
      stream.on('end', () => {
        received.push({ to: session.envelope.rcptTo.map((r) => r.address), data });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', () => resolve()));
  const port = (smtp.server.address() as AddressInfo).port;
  return {
    received,
    url: `smtp://127.0.0.1:${port}?ignoreTLS=true`,
    close: () => new Promise<void>((resolve) => smtp.close(() => resolve())),
  };
}

const post = (server: TestServer, url: string, payload: object) => server.app.inject({ method: 'POST', url, payload });
const signInWith = (server: TestServer, email: string, password: string, unlockToken?: string) =>
  post(server, '/user_token', {
    grant_type: 'password',
    application: 'dashboard',
    username: email,
    password,
    ...(unlockToken ? { unlock_token: unlockToken } : {}),
  });

/** Decodes a quoted-printable message body enough to read a link out of it. */
const plain = (data: string) => data.replace(/=\r?\n/g, '').replace(/=3D/g, '=');

describe('mail secrets stay out of the log and the database when SMTP delivers (OWASP Logging Cheat Sheet)', () => {
  let smtp: Awaited<ReturnType<typeof startSmtp>>;
  let server: TestServer;
  const log = logCapture();
  beforeAll(async () => {
    smtp = await startSmtp();
    server = await createTestServer({ env: { SMTP_URL: smtp.url }, logStream: log.stream });
  });
  afterAll(async () => {
    await server.close();
    await smtp.close();
  });

  it('reset and unlock links reach the SMTP server; the log says who got which kind; no token in the log, no outbox row', async () => {
    const org = await server.createOrg();
    const user = await server.createUser({ org, role: 'USER', email: 'secret.keeper@example.com' });
    expect((await post(server, '/forgot_password', { email: user.email })).json()).toEqual(GENERIC);
    for (let attempt = 1; attempt <= MAX_FAILED_SIGN_INS; attempt += 1) await signInWith(server, user.email, 'Wrong#Pass1');

    expect(smtp.received.map((mail) => mail.to)).toEqual([[user.email], [user.email]]);
    const resetToken = /\/welcome\/reset\/[^/\s]+\/([A-Za-z0-9_-]+)/.exec(plain(smtp.received[0]!.data))?.[1];
    const unlockToken = /\/welcome\/unlock\/[^/\s]+\/([A-Za-z0-9_-]+)/.exec(plain(smtp.received[1]!.data))?.[1];
    expect(resetToken).toBeDefined();
    expect(unlockToken).toBeDefined();
    // Both links work (so these are the live secrets) …
    expect((await signInWith(server, user.email, PASSWORD, unlockToken)).statusCode).toBe(200);
    expect(
      (await server.app.inject({ method: 'PUT', url: '/reset_password', payload: { token: resetToken, password: 'Brand#New2pass' } }))
        .statusCode,
    ).toBe(200);
    // … and neither was ever logged or kept.
    expect(log.text()).not.toContain(resetToken!);
    expect(log.text()).not.toContain(unlockToken!);
    const sent = log.lines
      .map((line) => JSON.parse(line) as { msg: string; to?: string; kind?: string })
      .filter((entry) => entry.msg === 'mail: sent');
    expect(sent.map(({ to, kind }) => ({ to, kind }))).toEqual([
      { to: user.email, kind: 'reset' },
      { to: user.email, kind: 'unlock' },
    ]);
    expect(await server.database.db.select().from(mailOutbox)).toEqual([]);
  });
});

describe('without SMTP the outbox is the delivery; the log shows links only on a demo install', () => {
  it.each([
    ['LIGHTBAR_DEMO=0', '0', false],
    ['the demo (LIGHTBAR_DEMO on)', '1', true],
  ])('%s', async (_case, demo, linkInLog) => {
    const log = logCapture();
    const server = await createTestServer({ env: { LIGHTBAR_DEMO: demo }, logStream: log.stream });
    try {
      const org = await server.createOrg();
      const user = await server.createUser({ org, role: 'USER', email: 'outbox.only@example.com' });
      await post(server, '/forgot_password', { email: user.email });
      const [row] = await server.database.db.select().from(mailOutbox).where(eq(mailOutbox.to, user.email));
      const token = /\/welcome\/reset\/[^/\s]+\/([A-Za-z0-9_-]+)/.exec(row!.text)![1]!;
      expect(log.text().includes(token)).toBe(linkInLog);
    } finally {
      await server.close();
    }
  });
});

describe('reset and unlock mails are limited per account (mail flood)', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await createTestServer();
  });
  afterAll(() => server.close());

  const mailsTo = async (email: string) => (await server.database.db.select().from(mailOutbox).where(eq(mailOutbox.to, email))).length;

  it(`29 concurrent forgot-password calls send ${MAX_RECOVERY_MAILS_PER_HOUR} mails, every answer the same; an hour later one more`, async () => {
    const org = await server.createOrg();
    const user = await server.createUser({ org, role: 'USER', email: 'flooded@example.com' });
    const answers = await Promise.all(Array.from({ length: 29 }, () => post(server, '/forgot_password', { email: user.email })));
    expect(answers.map((answer) => [answer.statusCode, answer.json()])).toEqual(answers.map(() => [200, GENERIC]));
    expect(await mailsTo(user.email)).toBe(MAX_RECOVERY_MAILS_PER_HOUR);
    server.clock.advance(HOUR_MS);
    await post(server, '/forgot_password', { email: user.email });
    expect(await mailsTo(user.email)).toBe(MAX_RECOVERY_MAILS_PER_HOUR + 1);
  });

  it('unlock mails count against the same limit, and answer the same words', async () => {
    const org = await server.createOrg();
    const user = await server.createUser({ org, role: 'USER', email: 'locked.flood@example.com', lockedAt: new Date(server.clock.ms) });
    const answers = await Promise.all(Array.from({ length: 20 }, () => post(server, '/unlock_account', { email: user.email })));
    expect(answers.every((answer) => answer.statusCode === 200 && JSON.stringify(answer.json()) === JSON.stringify(GENERIC))).toBe(true);
    await post(server, '/forgot_password', { email: user.email });
    expect(await mailsTo(user.email)).toBe(MAX_RECOVERY_MAILS_PER_HOUR);
  });
});
