import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../db/connection';
import { mailOutbox } from '../db/schema';

/** What a mail is for: the log names it instead of showing the body (its link is a live secret). */
export type MailKind = 'reset' | 'unlock' | 'welcome';

export interface Mail {
  to: string;
  subject: string;
  text: string;
  kind: MailKind;
}

export interface Mailer {
  send(mail: Mail): Promise<void>;
  close(): void;
}

export interface MailerOptions {
  from?: string;
  /**
   * Without SMTP, also write each body (its link) to the log: only for the demo, where the
   * operator signs in from the log (docs/decisions/design.md, mail).
   */
  logBodies?: boolean;
}

const DEFAULT_FROM = 'Lightbar <no-reply@lightbar.local>';

/**
 * Reset, unlock and welcome mails carry live tokens, so neither the log nor the database keeps
 * them when SMTP delivers (OWASP Logging Cheat Sheet: never log session identifiers or
 * credentials): with SMTP_URL a mail goes through nodemailer and the log records who got which
 * kind. Without SMTP_URL the `mail_outbox` table is the delivery (an operator reads it); the log
 * records the same line, plus the body only when `logBodies` is on.
 */
export async function createMailer(db: Db, log: FastifyBaseLogger, smtpUrl?: string, options: MailerOptions = {}): Promise<Mailer> {
  const transport = smtpUrl ? (await import('nodemailer')).createTransport(smtpUrl) : null;
  const from = options.from ?? DEFAULT_FROM;
  return {
    async send(mail) {
      const { kind, ...content } = mail;
      if (!transport) {
        await db.insert(mailOutbox).values(content);
        if (options.logBodies) log.info({ to: mail.to, kind }, `mail: kept in the outbox: ${mail.subject}\n${mail.text}`);
        else log.info({ to: mail.to, kind }, 'mail: kept in the outbox');
        return;
      }
      try {
        await transport.sendMail({ from, ...content });
        log.info({ to: mail.to, kind }, 'mail: sent');
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        // Not kept for a retry: the row would hold the link in clear; the user asks for a new one.
        log.error({ to: mail.to, kind, err: message }, 'mail: SMTP send failed');
      }
    },
    close() {
      transport?.close();
    },
  };
}
