import { orderReceivedUrl } from '../../shared/catalog/urls';
import { formatMoney } from '../../shared/money/formatMoney';
import { orderAddressLines } from '../../shared/orders/orderAddressLines';
import type { OrderMailKind } from '../../shared/orders/orderMail';
import type { Order } from '../../shared/orders/orderTypes';
import { paymentMethodTitle } from '../../shared/orders/paymentMethods';
import type { ShopConfig } from '../../shared/settings/settingsSchema';

/*
 * What an order mail says, kind by kind, in one model that both renderings (HTML by React, plain text) show, so
 * the two parts of a message never disagree.
 */

export interface OrderMailContent {
  shopName: string;
  subject: string;
  heading: string;
  intro: string;
  orderNumber: string;
  date: string;
  lines: { name: string; variation: string; quantity: number; total: string }[];
  subtotal: string;
  /** The method's title and cost ("Flat rate (5,00 €)", "Local pickup (Free)"); null for an order without shipping. */
  shipping: string | null;
  /** The tax row, when the order has tax on top of its prices. */
  tax: { label: string; amount: string } | null;
  total: string;
  /** Said after the total when the prices include the tax, as WooCommerce writes it: "(includes 2,61 € Tax)". */
  totalNote: string | null;
  paymentMethod: string;
  /** How to pay a bank-transfer order: in the mail that confirms it, the shop's accounts and the reference. */
  bankDetails: BankDetails | null;
  /** The billing address, one line each, with the email and phone it was given. */
  billing: string[];
  /** Where the order goes, for every order that ships (null for one made before shipping existed). */
  shippingAddress: string[] | null;
  customerNote: string;
  link: { label: string; url: string } | null;
}

export interface BankDetails {
  reference: string;
  accounts: { name: string; fields: { label: string; value: string }[] }[];
}

type BankAccount = ShopConfig['checkout']['payment']['bacs']['accounts'][number];

// The order-received page's labels and order, so the mail and the page read alike.
const BANK_FIELDS: [Exclude<keyof BankAccount, 'accountName'>, string][] = [
  ['bankName', 'Bank'],
  ['accountNumber', 'Account number'],
  ['sortCode', 'Sort code'],
  ['iban', 'IBAN'],
  ['bic', 'BIC'],
];

/**
 * Only the "order received" mail of a bank-transfer order says how to pay: it is the one the shopper gets while
 * the order waits for the money; later mails would repeat it to someone who has paid.
 */
function bankDetailsFor(kind: OrderMailKind, order: Order, config: ShopConfig): BankDetails | null {
  if (kind !== 'order_received' || order.paymentMethod !== 'bacs') return null;
  return {
    reference: `Use your order number as the payment reference: ${order.id}.`,
    accounts: config.checkout.payment.bacs.accounts.map((account) => ({
      name: account.accountName,
      fields: BANK_FIELDS.filter(([field]) => account[field].trim() !== '').map(([field, label]) => ({
        label,
        value: account[field],
      })),
    })),
  };
}

// Building an Intl formatter costs about a millisecond; a shop has one locale, so each is built once.
const regionNames = new Map<string, Intl.DisplayNames | null>();
const dateFormats = new Map<string, Intl.DateTimeFormat | null>();

function cached<T>(cache: Map<string, T | null>, locale: string, make: () => T): T | null {
  if (!cache.has(locale)) {
    try {
      cache.set(locale, make());
    } catch {
      cache.set(locale, null);
    }
  }
  return cache.get(locale) ?? null;
}

function countryName(code: string, locale: string): string {
  const names = cached(regionNames, locale, () => new Intl.DisplayNames([locale], { type: 'region' }));
  try {
    return names?.of(code) ?? code;
  } catch {
    return code;
  }
}

function orderDate(createdAt: string, locale: string): string {
  const date = new Date(createdAt);
  if (Number.isNaN(date.getTime())) return createdAt;
  // UTC: the server's zone says nothing about the shop's, and every mail of an order must show one date.
  const format = cached(
    dateFormats,
    locale,
    () => new Intl.DateTimeFormat(locale, { dateStyle: 'long', timeZone: 'UTC' }),
  );
  return format ? format.format(date) : createdAt.slice(0, 10);
}

/**
 * Links: the customer's mail links to the order-received page with the order's key, the same address the
 * customer's browser was sent to after checkout (it shows only what the mail already says). The owner's mail links
 * to the back office's order page, which holds no key and needs the owner's login. Without `server.mail.shopUrl`
 * there is no trustworthy address of the shop, so there are no links.
 */
function linkFor(kind: OrderMailKind, order: Order, shopUrl: string | null): OrderMailContent['link'] {
  if (!shopUrl) return null;
  const origin = shopUrl.replace(/\/$/, '');
  if (kind === 'new_order') return { label: 'View the order', url: `${origin}/admin/orders/${order.id}/` };
  return { label: 'View your order', url: `${origin}${orderReceivedUrl(order.id, order.orderKey)}` };
}

export function orderMailContent(kind: OrderMailKind, order: Order, config: ShopConfig): OrderMailContent {
  const shopName = config.shop.name;
  const locale = config.i18n.locale;
  const money = (amount: number) => formatMoney(amount, config.shop.currency);
  const number = String(order.id);
  const customer = order.billing.firstName;
  const fullName = `${order.billing.firstName} ${order.billing.lastName}`.trim();
  const texts: Record<OrderMailKind, { subject: string; heading: string; intro: string }> = {
    order_received: {
      subject: `Your ${shopName} order #${number} has been received`,
      heading: 'Thank you for your order',
      intro: `Hi ${customer}, we have received your order #${number} and are getting it ready. Here is what you ordered.`,
    },
    new_order: {
      subject: `[${shopName}] New order #${number}`,
      heading: `New order #${number}`,
      intro: `You have received an order from ${fullName}.`,
    },
    order_completed: {
      subject: `Your ${shopName} order #${number} is complete`,
      heading: 'Your order is complete',
      intro: `Hi ${customer}, we have finished processing your order #${number}.`,
    },
    order_cancelled: {
      subject: `Your ${shopName} order #${number} has been cancelled`,
      heading: 'Your order has been cancelled',
      intro: `Hi ${customer}, your order #${number} has been cancelled. If you did not expect this, please contact us.`,
    },
    order_refunded: {
      subject: `Your ${shopName} order #${number} has been refunded`,
      heading: 'Your order has been refunded',
      intro: `Hi ${customer}, your order #${number} has been refunded in full (${money(order.total)}).`,
    },
  };
  const billing = order.billing;
  const country = (code: string) => countryName(code, locale);
  const hasTax = order.taxTotal > 0;
  return {
    shopName,
    ...texts[kind],
    orderNumber: number,
    date: orderDate(order.createdAt, locale),
    lines: order.lines.map((line) => ({
      name: line.name,
      variation: Object.entries(line.attributes)
        .map(([label, value]) => `${label}: ${value}`)
        .join(', '),
      quantity: line.quantity,
      total: money(line.lineTotal),
    })),
    subtotal: money(order.subtotal),
    shipping: order.shipping
      ? `${order.shipping.title} (${order.shipping.cost > 0 ? money(order.shipping.cost) : 'Free'})`
      : null,
    tax: hasTax && !order.pricesIncludeTax ? { label: order.taxLabel, amount: money(order.taxTotal) } : null,
    total: money(order.total),
    totalNote:
      hasTax && order.pricesIncludeTax ? `(includes ${money(order.taxTotal)} ${order.taxLabel})` : null,
    paymentMethod: paymentMethodTitle(order.paymentMethod),
    bankDetails: bankDetailsFor(kind, order, config),
    billing: [...orderAddressLines(billing, country), billing.email, billing.phone].filter(
      (line) => line.trim() !== '',
    ),
    shippingAddress: order.shipping ? orderAddressLines(order.shippingAddress, country) : null,
    customerNote: order.customerNote,
    link: linkFor(kind, order, config.server.mail.shopUrl),
  };
}
