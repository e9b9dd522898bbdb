import { expect, it } from 'vitest';
import { redactUrl } from './redactUrl';

it('keeps API keys given in the query string out of log lines', () => {
  expect(redactUrl('/wp-json/wc/v3/orders?consumer_key=ck_abc&per_page=5&consumer_secret=cs_def')).toBe(
    '/wp-json/wc/v3/orders?consumer_key=[redacted]&per_page=5&consumer_secret=[redacted]',
  );
  expect(redactUrl('/shop/?orderby=price')).toBe('/shop/?orderby=price');
});
