import {
  type ClaimedOrderMail,
  ORDER_MAIL_KINDS,
  type OrderMailKind,
  type OrderMailRecord,
  type OrderMailStatus,
  OUTBOX_MAIL_KINDS,
  type OutboxMailKind,
} from '../../shared/orders/orderMail';

/** The columns of a claimed `mail_outbox` row (migration 0020), aliased alike on both engines. */
export const CLAIMED_MAIL_COLUMNS = `id, kind, order_id AS "orderId", recipient, subject, text_body AS "text",
  html_body AS "html", attempts`;

export const MAIL_RECORD_COLUMNS = `id, kind, order_id AS "orderId", recipient, subject, status, attempts,
  last_error AS "lastError", created_at AS "createdAt", sent_at AS "sentAt"`;

function toKind(value: unknown): OrderMailKind {
  const kind = String(value);
  if (!(ORDER_MAIL_KINDS as readonly string[]).includes(kind)) throw new Error(`Unknown mail kind ${kind}`);
  return kind as OrderMailKind;
}

function toOutboxKind(value: unknown): OutboxMailKind {
  const kind = String(value);
  if (!(OUTBOX_MAIL_KINDS as readonly string[]).includes(kind)) throw new Error(`Unknown mail kind ${kind}`);
  return kind as OutboxMailKind;
}

export function toClaimedMail(row: Record<string, unknown>): ClaimedOrderMail {
  return {
    id: Number(row.id),
    kind: toOutboxKind(row.kind),
    orderId: row.orderId === null || row.orderId === undefined ? null : Number(row.orderId),
    recipient: String(row.recipient),
    subject: String(row.subject),
    text: String(row.text),
    html: String(row.html),
    attempts: Number(row.attempts),
  };
}

export function toMailRecord(row: Record<string, unknown>): OrderMailRecord {
  return {
    id: Number(row.id),
    kind: toKind(row.kind),
    orderId: Number(row.orderId),
    recipient: String(row.recipient),
    subject: String(row.subject),
    status: String(row.status) as OrderMailStatus,
    attempts: Number(row.attempts),
    lastError: row.lastError === null || row.lastError === undefined ? null : String(row.lastError),
    createdAt: Number(row.createdAt),
    sentAt: row.sentAt === null || row.sentAt === undefined ? null : Number(row.sentAt),
  };
}
