// A shopper's cookies for benchmarks that speak HTTP without a browser.
/** A shopper's cookie jar over fetch: keeps Set-Cookie values and sends them back, follows no redirects. */
export function createCookieJar() {
  const cookies = new Map();
  return {
    header: () => [...cookies].map(([name, value]) => `${name}=${value}`).join('; '),
    store(response) {
      this.storeLines(response.headers.getSetCookie());
    },
    storeLines(lines) {
      for (const line of lines) {
        const [pair] = line.split(';');
        const at = pair.indexOf('=');
        const name = pair.slice(0, at).trim();
        const value = pair.slice(at + 1).trim();
        if (value === '' || /expires=thu, 01 jan 1970/i.test(line)) cookies.delete(name);
        else cookies.set(name, value);
      }
    },
  };
}

/** The cookies of a shopper who has one mug in the cart, so cart, checkout and fragments have a line to show. */
export async function cookieWithCartItem(base) {
  const jar = createCookieJar();
  const response = await fetch(`${base}/?wc-ajax=add_to_cart`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: 'product_id=1021&quantity=1',
  });
  if (!response.ok) throw new Error(`add_to_cart answered ${response.status}`);
  jar.store(response);
  return jar.header();
}
