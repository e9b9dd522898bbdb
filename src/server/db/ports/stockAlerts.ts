/** "Notify me when available" alerts (migration 0028). Times in Unix milliseconds. */

export type StockAlertSubscribeResult =
  /** Stored: one mail when the product comes back. */
  | 'subscribed'
  /** The address already waits for this product: nothing more is stored. */
  | 'already_subscribed'
  /** The product can be bought now: nothing to wait for. */
  | 'available'
  /** No published product or variation has this id (or it is one nobody can wait for: grouped, external). */
  | 'not_found';

/** An alert whose product came back, with what its mail names. */
export interface DueStockAlert {
  id: number;
  productId: number;
  email: string;
  emailKey: string;
  /** The product's (or variation's) name. */
  productName: string;
  /** The product page's slug (a variation's parent's). */
  productSlug: string;
}

/** A back-in-stock message as the outbox stores it. */
export interface StockAlertMail {
  recipient: string;
  subject: string;
  text: string;
  html: string;
}

export interface StockAlertRepository {
  /**
   * Stores an alert for an unavailable product, checked and written under the product row's lock, so a restock
   * committing at the same moment either comes first (answer `available`) or marks this alert due.
   */
  subscribe(alert: { productId: number; email: string; emailKey: string; now: number }): Promise<{
    result: StockAlertSubscribeResult;
    /** The product page's slug (a variation's parent's). */
    slug: string | null;
  }>;
  /**
   * Turns up to `limit` due alerts into outbox mail (kind `back_in_stock`) and deletes them, in one transaction:
   * concurrent senders, in one process or several, never take the same alert, so each one is mailed once.
   * Answers how many were queued.
   */
  queueDue(render: (alert: DueStockAlert) => StockAlertMail, now: number, limit: number): Promise<number>;
  hasDue(): Promise<boolean>;
  /** Deletes every alert of the address with this key; answers how many. */
  unsubscribe(emailKey: string): Promise<number>;
}
