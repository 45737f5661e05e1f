import { mkdir, rename, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { AppConfig } from '@workcell/config';
import { createTransport } from 'nodemailer';

/**
 * Outgoing e-mail behind one interface, so the code that sends (the worker's invitation mail) never knows whether a
 * message lands in a developer's outbox directory or goes to an SMTP server (MAIL_DRIVER).
 */

/** One plain-text message. `id` is the sender's deterministic id for it: sending the same id again is the same message. */
export interface MailMessage {
  readonly id: string;
  readonly to: string;
  readonly subject: string;
  readonly text: string;
}

export interface Mailer {
  /** Hands the message over (written or accepted by the server); throws when it was not, so the caller retries. */
  send(message: MailMessage): Promise<void>;
  close(): Promise<void>;
}

/** An RFC 5322 message of `message` from `from` (nodemailer's composer: encoded headers, UTF-8 body, Message-ID from the id). */
async function compose(from: string, message: MailMessage): Promise<Buffer> {
  const transport = createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  const info = await transport.sendMail({ from, ...messageFields(message), textEncoding: 'quoted-printable' });
  return info.message as Buffer;
}

function messageFields(message: MailMessage) {
  return { to: message.to, subject: message.subject, text: message.text, messageId: `<${message.id}@workcell.invalid>` };
}

/**
 * The development driver: each message becomes `<outboxDir>/<id>.eml`, an RFC 5322 file any mail client opens.
 * Written to a temporary name and renamed, so a reader never sees half a message; the same id overwrites the same
 * file, so a retried send leaves one message.
 */
export class OutboxMailer implements Mailer {
  readonly directory: string;

  constructor(
    directory: string,
    private readonly from: string,
  ) {
    this.directory = resolve(directory);
  }

  async send(message: MailMessage): Promise<void> {
    if (!/^[A-Za-z0-9._-]{1,200}$/.test(message.id)) throw new Error(`mail id ${JSON.stringify(message.id)} is not a safe file name`);
    await mkdir(this.directory, { recursive: true });
    const file = join(this.directory, `${message.id}.eml`);
    await writeFile(`${file}.tmp`, await compose(this.from, message));
    await rename(`${file}.tmp`, file);
  }

  /** Nothing to release: every send opens and closes its own file. */
  close(): Promise<void> {
    return Promise.resolve();
  }
}

/** The SMTP driver (nodemailer over MAIL_SMTP_URL, one pooled connection set per process). */
export class SmtpMailer implements Mailer {
  private readonly transport;

  constructor(
    url: string,
    private readonly from: string,
  ) {
    this.transport = createTransport(url);
  }

  async send(message: MailMessage): Promise<void> {
    await this.transport.sendMail({ from: this.from, ...messageFields(message) });
  }

  async close(): Promise<void> {
    this.transport.close();
  }
}

/** The mailer MAIL_DRIVER names. */
export function createMailer(config: AppConfig): Mailer {
  const { driver, outboxDir, smtpUrl, from } = config.mail;
  if (driver === 'smtp' && smtpUrl !== null) return new SmtpMailer(smtpUrl, from);
  return new OutboxMailer(outboxDir, from);
}
