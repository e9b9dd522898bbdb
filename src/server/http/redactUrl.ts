/** Query parameters that carry credentials (WooCommerce REST API keys) and never go into a log line. */
const SECRET_PARAMETERS = /([?&](?:consumer_key|consumer_secret)=)[^&#]*/gi;

/** The URL as a log may show it: credential parameters replaced by `[redacted]`. */
export function redactUrl(url: string): string {
  return url.replace(SECRET_PARAMETERS, '$1[redacted]');
}
