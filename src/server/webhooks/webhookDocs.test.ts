import { createHmac, timingSafeEqual } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { projectPath } from '../projectPath';
import { webhookHeaders } from './webhookRequest';

/*
 * docs/rest-api.md shows receivers how to check a webhook's signature: that very code is run here against a body
 * the shop signs, and must refuse a changed body or another secret.
 */

function documentedCheck(): (rawBody: Buffer, header: string | undefined, secret: string) => boolean {
  const doc = readFileSync(projectPath('docs/rest-api.md'), 'utf8');
  const section = doc.slice(doc.indexOf('## Webhooks'));
  const code = /```js\n([\s\S]*?)```/.exec(section)?.[1];
  if (!code) throw new Error('No js example in the Webhooks section');
  const body = code.replace(/^import .*$/m, '');
  return new Function('createHmac', 'timingSafeEqual', `${body}\nreturn isFromTheShop;`)(
    createHmac,
    timingSafeEqual,
  );
}

describe('the documented signature check', () => {
  const check = documentedCheck();
  const body = JSON.stringify({ id: 7, status: 'processing', total: '12.50', note: 'é ✓' });
  const headers = webhookHeaders({
    webhook: { id: 3, deliveryUrl: 'https://hooks.example/', secret: 'the-secret' },
    topic: 'order.created',
    deliveryId: 41,
    body,
    source: '',
  });
  const signature = headers['x-wc-webhook-signature'];

  it('accepts the body the shop signed', () => {
    expect(check(Buffer.from(body, 'utf8'), signature, 'the-secret')).toBe(true);
  });

  it('refuses another body, another secret, or no signature', () => {
    expect(check(Buffer.from(body.replace('12.50', '0.01'), 'utf8'), signature, 'the-secret')).toBe(false);
    expect(check(Buffer.from(body, 'utf8'), signature, 'another-secret')).toBe(false);
    expect(check(Buffer.from(body, 'utf8'), undefined, 'the-secret')).toBe(false);
  });
});
