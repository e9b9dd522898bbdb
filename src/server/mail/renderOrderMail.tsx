import { renderToStaticMarkup } from 'react-dom/server';
import type { OrderMailKind } from '../../shared/orders/orderMail';
import type { Order } from '../../shared/orders/orderTypes';
import type { ShopConfig } from '../../shared/settings/settingsSchema';
import { OrderMailHtml } from './OrderMailHtml';
import { type OrderMailContent, orderMailContent } from './orderMailContent';

export interface RenderedMail {
  subject: string;
  text: string;
  html: string;
}

/** The plain-text part: the same content as the HTML, laid out for a reader without HTML. */
export function orderMailText(content: OrderMailContent): string {
  const lines = content.lines.map((line) => {
    const variation = line.variation ? ` (${line.variation})` : '';
    return `- ${line.name}${variation} × ${line.quantity}: ${line.total}`;
  });
  const bank = content.bankDetails;
  const bankLines = bank
    ? [
        'Our bank details',
        bank.reference,
        ...bank.accounts.flatMap((account) => [
          '',
          ...(account.name ? [account.name] : []),
          ...account.fields.map((field) => `${field.label}: ${field.value}`),
        ]),
        '',
      ]
    : [];
  return [
    content.heading,
    '',
    content.intro,
    '',
    ...bankLines,
    `Order #${content.orderNumber} (${content.date})`,
    '',
    ...lines,
    '',
    `Subtotal: ${content.subtotal}`,
    ...(content.shipping ? [`Shipping: ${content.shipping}`] : []),
    ...(content.tax ? [`${content.tax.label}: ${content.tax.amount}`] : []),
    `Payment method: ${content.paymentMethod}`,
    `Total: ${content.total}${content.totalNote ? ` ${content.totalNote}` : ''}`,
    ...(content.customerNote ? ['', 'Note:', content.customerNote] : []),
    '',
    'Billing address:',
    ...content.billing,
    ...(content.shippingAddress ? ['', 'Shipping address:', ...content.shippingAddress] : []),
    ...(content.link ? ['', `${content.link.label}: ${content.link.url}`] : []),
    '',
    `-- ${content.shopName}`,
    '',
  ].join('\n');
}

/** An order mail, both parts: the HTML rendered by React (which escapes every text), and plain text. */
export function renderOrderMail(kind: OrderMailKind, order: Order, config: ShopConfig): RenderedMail {
  const content = orderMailContent(kind, order, config);
  return {
    subject: content.subject,
    text: orderMailText(content),
    html: `<!DOCTYPE html>${renderToStaticMarkup(<OrderMailHtml content={content} />)}`,
  };
}
