import type { FastifyBaseLogger } from 'fastify';
import { eq } from 'drizzle-orm';
import type { Db } from '../db/connection';
import { mailOutbox } from '../db/schema';

export interface Mail {
  to: string;
  subject: string;
  text: string;
}

export interface Mailer {
  send(mail: Mail): Promise<void>;
  close(): void;
}

/**
 * Reset and unlock links (issue 3): every mail is written to the outbox table and the log; with
 * SMTP_URL it is also sent through nodemailer, and the outbox row records the outcome.
 */
export async function createMailer(db: Db, log: FastifyBaseLogger, smtpUrl?: string, from = 'Lightbar <no-reply@lightbar.local>'): Promise<Mailer> {
  const transport = smtpUrl ? (await import('nodemailer')).createTransport(smtpUrl) : null;
  return {
    async send(mail) {
      const [row] = await db.insert(mailOutbox).values(mail).returning({ id: mailOutbox.id });
      log.info({ to: mail.to, subject: mail.subject }, `mail: ${mail.subject}\n${mail.text}`);
      if (!transport || !row) return;
      try {
        await transport.sendMail({ from, ...mail });
        await db.update(mailOutbox).set({ sentAt: new Date() }).where(eq(mailOutbox.id, row.id));
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        log.error({ to: mail.to, err: message }, 'mail: SMTP send failed');
        await db.update(mailOutbox).set({ error: message }).where(eq(mailOutbox.id, row.id));
      }
    },
    close() {
      transport?.close();
    },
  };
}
