import { randomBytes } from 'node:crypto';
import { mkdir, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createTransport } from 'nodemailer';

/** One message as the outbox hands it to a transport. */
export interface OutgoingMail {
  from: string | { name: string; address: string };
  to: string;
  subject: string;
  text: string;
  html: string;
}

/** Delivers one message or throws; the outbox keeps the message and retries it later. */
export interface MailTransport {
  /** What the shop logs about where mail goes: never the SMTP password. */
  readonly description: string;
  send(mail: OutgoingMail): Promise<void>;
  close(): void;
}

/** Where the default transport writes messages: `DATA_DIR/mail/`. */
export function mailDir(dataDir: string): string {
  return join(dataDir, 'mail');
}

/**
 * Writes each message, composed by nodemailer as an RFC 5322 message with CRLF line ends, as an `.eml` file into
 * `dir`: a shop with no mail server still "sends", and an owner or a test can open what it sent. The file appears
 * whole or not at all (written under a temporary name, then renamed), so a reader never sees half a message.
 */
export function fileMailTransport(dir: string): MailTransport {
  const composer = createTransport({ streamTransport: true, buffer: true, newline: 'windows' });
  return {
    description: `.eml files in ${dir}`,
    async send(mail) {
      const info = await composer.sendMail(mail);
      const message = info.message;
      if (!Buffer.isBuffer(message)) throw new Error('nodemailer did not compose the message into a buffer');
      await mkdir(dir, { recursive: true });
      const stamp = new Date().toISOString().replace(/[-:.]/g, '');
      const name = `${stamp}-${randomBytes(6).toString('hex')}.eml`;
      const temporary = join(dir, `.${name}.tmp`);
      await writeFile(temporary, message, { mode: 0o600 });
      await rename(temporary, join(dir, name));
    },
    close() {
      composer.close();
    },
  };
}

/**
 * Sends through the SMTP server of `url` (`smtp://user:password@host:587`). Timeouts are shorter than nodemailer's
 * (minutes) so a dead server fails the attempt well within the outbox's claim on the message.
 */
export function smtpMailTransport(url: string): MailTransport {
  const transport = createTransport({
    url,
    connectionTimeout: 30_000,
    greetingTimeout: 30_000,
    socketTimeout: 60_000,
  });
  return {
    description: withoutCredentials(url),
    async send(mail) {
      await transport.sendMail(mail);
    },
    close() {
      transport.close();
    },
  };
}

/** The SMTP URL with its user and password left out, for logs and error messages. */
export function withoutCredentials(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.protocol}//${parsed.host}`;
  } catch {
    return 'smtp (unparsable URL)';
  }
}

/** The transport the settings choose: SMTP when `server.mail.smtp` is set, `.eml` files otherwise. */
export function mailTransportFor(smtp: string | null, dataDir: string): MailTransport {
  return smtp ? smtpMailTransport(smtp) : fileMailTransport(mailDir(dataDir));
}
