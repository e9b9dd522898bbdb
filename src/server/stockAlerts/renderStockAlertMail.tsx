import { renderToStaticMarkup } from 'react-dom/server';
import type { DueStockAlert, StockAlertMail } from '../db/ports';

export interface StockAlertMailLinks {
  /** Absolute address of the product page; null when the shop has no public address (`server.mail.shopUrl`). */
  productUrl: string | null;
  /** Absolute address of the unsubscribe page with the signed token; null likewise. */
  unsubscribeUrl: string | null;
}

/** The one mail an alert sends: both parts, the HTML rendered by React (which escapes every text). */
export function renderStockAlertMail(
  alert: Pick<DueStockAlert, 'email' | 'productName'>,
  shopName: string,
  links: StockAlertMailLinks,
): StockAlertMail {
  const subject = `${alert.productName} is back in stock at ${shopName}`;
  const intro = `Good news: ${alert.productName}, which you asked us about, is back in stock.`;
  const closing = 'This is the only email you will get about it: your request has now been removed.';
  const text = [
    intro,
    '',
    ...(links.productUrl ? [`Order it here: ${links.productUrl}`, ''] : []),
    closing,
    ...(links.unsubscribeUrl
      ? ['', `Stop every back-in-stock email to this address: ${links.unsubscribeUrl}`]
      : []),
    '',
    `-- ${shopName}`,
    '',
  ].join('\n');
  const html = `<!DOCTYPE html>${renderToStaticMarkup(
    <html lang="en">
      <body>
        <h1>{alert.productName} is back in stock</h1>
        <p>{intro}</p>
        {links.productUrl && (
          <p>
            <a href={links.productUrl}>Order {alert.productName}</a>
          </p>
        )}
        <p>{closing}</p>
        {links.unsubscribeUrl && (
          <p>
            <a href={links.unsubscribeUrl}>Stop every back-in-stock email to this address</a>
          </p>
        )}
        <p>{shopName}</p>
      </body>
    </html>,
  )}`;
  return { recipient: alert.email, subject, text, html };
}
