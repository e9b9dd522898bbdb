import type { MailTransport, OutgoingMail } from '../src/server/mail/mailTransport';

/**
 * A mail transport for tests: keeps what it was given, and fails while `failuresLeft` counts down (or always,
 * with `failuresLeft = Infinity`) with `failureMessage`.
 */
export class RecordingTransport implements MailTransport {
  readonly description = 'test transport';
  sent: OutgoingMail[] = [];
  tries = 0;
  failuresLeft: number;
  failureMessage: string;
  /** How long each send takes, so that concurrent senders overlap. */
  delayMs: number;

  constructor({ failuresLeft = 0, failureMessage = 'connection refused', delayMs = 0 } = {}) {
    this.failuresLeft = failuresLeft;
    this.failureMessage = failureMessage;
    this.delayMs = delayMs;
  }

  async send(mail: OutgoingMail) {
    this.tries++;
    if (this.delayMs > 0) await new Promise((resolve) => setTimeout(resolve, this.delayMs));
    if (this.failuresLeft > 0) {
      this.failuresLeft--;
      throw new Error(this.failureMessage);
    }
    this.sent.push(mail);
  }

  close() {}
}
