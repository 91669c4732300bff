import { Writable } from 'node:stream';
import { eq } from 'drizzle-orm';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SMTPServer } from 'smtp-server';
import type { AddressInfo } from 'node:net';
import { createMailer } from '../../server/mail/mailer';
import { mailOutbox } from '../../server/db/schema';
import { openTestDatabase } from '../support/test-db';
import type { Database } from '../../server/db/connection';

const silentLog = { info: () => undefined, error: () => undefined } as unknown as Parameters<typeof createMailer>[1];

/** A real pino logger (Fastify's) whose lines are kept. */
function recordingLog() {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(chunk.toString());
      done();
    },
  });
  const log = Fastify({ logger: { level: 'info', stream } }).log;
  return { log, entries: () => lines.map((line) => JSON.parse(line) as Record<string, unknown>) };
}

describe('mail: outbox without SMTP, SMTP without keeping secrets', () => {
  let database: Database;
  let smtp: SMTPServer;
  let port: number;
  const received: { from: string; to: string[]; data: string }[] = [];

  beforeAll(async () => {
    database = await openTestDatabase();
    smtp = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      onData(stream, session, callback) {
        let data = '';
        stream.on('data', (chunk: Buffer) => (data += chunk.toString()));
        stream.on('end', () => {
          received.push({
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
            to: session.envelope.rcptTo.map((r) => r.address),
            data,
          });
          callback();
        });
      },
    });
    await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', () => resolve()));
    port = (smtp.server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    await new Promise<void>((resolve) => smtp.close(() => resolve()));
    await database.close();
  });

  it('without SMTP_URL a mail is written to the outbox only', async () => {
    const mailer = await createMailer(database.db, silentLog);
    await mailer.send({ to: 'outbox@example.com', subject: 'Hello', text: 'Body', kind: 'reset' });
    const [row] = await database.db.select().from(mailOutbox).where(eq(mailOutbox.to, 'outbox@example.com'));
    expect(row).toMatchObject({ subject: 'Hello', text: 'Body', sentAt: null, error: null });
    mailer.close();
  });

  it('with SMTP_URL the mail reaches a real SMTP server; the log names recipient and kind, no outbox row keeps the link', async () => {
    const { log, entries } = recordingLog();
    const mailer = await createMailer(database.db, log, `smtp://127.0.0.1:${port}?ignoreTLS=true`);
    await mailer.send({
      to: 'dispatcher@example.com',
      subject: 'Reset your Lightbar password',
      text: 'Set a new password here: http://x/welcome/reset/a/b',
      kind: 'reset',
    });
    expect(received).toHaveLength(1);
    expect(received[0]!.to).toEqual(['dispatcher@example.com']);
    expect(received[0]!.data).toContain('Subject: Reset your Lightbar password');
    expect(received[0]!.data).toContain('/welcome/reset/a/b');
    expect(await database.db.select().from(mailOutbox).where(eq(mailOutbox.to, 'dispatcher@example.com'))).toEqual([]);
    expect(entries()).toMatchObject([{ msg: 'mail: sent', to: 'dispatcher@example.com', kind: 'reset' }]);
    expect(JSON.stringify(entries())).not.toContain('/welcome/reset/a/b');
    mailer.close();
  });

  it('an unreachable SMTP server is logged with recipient, kind and error; the link is kept nowhere', async () => {
    const { log, entries } = recordingLog();
    const mailer = await createMailer(database.db, log, 'smtp://127.0.0.1:1?ignoreTLS=true&connectionTimeout=2000');
    await mailer.send({ to: 'lost@example.com', subject: 'Unlock', text: 'http://x/welcome/unlock/a/secret-link', kind: 'unlock' });
    expect(await database.db.select().from(mailOutbox).where(eq(mailOutbox.to, 'lost@example.com'))).toEqual([]);
    const [entry] = entries();
    expect(entry).toMatchObject({ msg: 'mail: SMTP send failed', to: 'lost@example.com', kind: 'unlock' });
    expect(String(entry!.err)).toMatch(/ECONNREFUSED|connect/i);
    expect(JSON.stringify(entries())).not.toContain('secret-link');
    mailer.close();
  });
});
