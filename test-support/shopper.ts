import type { FastifyInstance } from 'fastify';
import { expect } from 'vitest';
import { BILLING_FORM } from './billingForm';

const HOST = 'shop.test';

/** A shopper's cookie jar, sending each request to the app (server process) it is given, as a browser would. */
export class Shopper {
  cookies = new Map<string, string>();

  /** A browser's user agent, sent with every request when given (the statistics tell visitors apart by it). */
  constructor(readonly userAgent?: string) {}

  async send(app: FastifyInstance, method: 'GET' | 'POST', url: string, form?: Record<string, string>) {
    const cookie = [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
    const response = await app.inject({
      method,
      url,
      headers: {
        host: HOST,
        ...(this.userAgent ? { 'user-agent': this.userAgent } : {}),
        ...(cookie ? { cookie } : {}),
        ...(form ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
      },
      ...(form ? { payload: new URLSearchParams(form).toString() } : {}),
    });
    for (const set of response.cookies as { name: string; value: string }[]) {
      if (set.value === '') this.cookies.delete(set.name);
      else this.cookies.set(set.name, set.value);
    }
    return response;
  }

  /** `quantity` of a product in the cart, then the checkout page's form filled in: every hidden field as given. */
  async readyForm(app: FastifyInstance, productId: number, quantity = 2): Promise<Record<string, string>> {
    const added = await this.send(app, 'POST', '/?wc-ajax=add_to_cart', {
      product_id: String(productId),
      quantity: String(quantity),
    });
    expect(added.statusCode).toBe(200);
    const page = await this.send(app, 'GET', '/checkout/');
    expect(page.statusCode).toBe(200);
    const hidden = Object.fromEntries(
      [...page.body.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)"/g)].map((match) => [
        match[1] as string,
        match[2] as string,
      ]),
    );
    return { ...hidden, ...BILLING_FORM };
  }
}
