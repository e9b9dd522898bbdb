/*
 * Just enough of RFC 5322 and MIME to read what the shop's mail transport wrote: headers (unfolded), and the
 * text and HTML parts of a multipart/alternative body decoded from quoted-printable, base64 or 7bit.
 */

export interface ReadMail {
  headers: Map<string, string>;
  text: string;
  html: string;
}

function splitMessage(raw: string): { headers: Map<string, string>; body: string } {
  const end = raw.indexOf('\r\n\r\n');
  if (end < 0) throw new Error('no blank line between headers and body');
  const headers = new Map<string, string>();
  const unfolded = raw.slice(0, end).replace(/\r\n[ \t]+/g, ' ');
  for (const line of unfolded.split('\r\n')) {
    const colon = line.indexOf(':');
    if (colon > 0) headers.set(line.slice(0, colon).toLowerCase(), line.slice(colon + 1).trim());
  }
  return { headers, body: raw.slice(end + 4) };
}

function decodeBody(body: string, encoding: string | undefined): string {
  switch ((encoding ?? '7bit').toLowerCase()) {
    case 'base64':
      return Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
    case 'quoted-printable': {
      const bytes = body
        .replace(/=\r\n/g, '')
        .replace(/=([0-9A-F]{2})/gi, (_all, hex: string) => `%${hex}`)
        // Percent-escape what is not an escape already, then decode the UTF-8 bytes.
        .replace(/%(?![0-9A-F]{2})/gi, '%25');
      return decodeURIComponent(bytes.replace(/%(?=[0-9A-F]{2})/gi, '%'));
    }
    default:
      return body;
  }
}

export function readEml(raw: string): ReadMail {
  const { headers, body } = splitMessage(raw);
  const boundary = /boundary="?([^";]+)"?/.exec(headers.get('content-type') ?? '')?.[1];
  if (!boundary) throw new Error('not a multipart message');
  let text = '';
  let html = '';
  for (const chunk of body.split(`--${boundary}`).slice(1)) {
    if (chunk.startsWith('--')) break;
    const part = splitMessage(chunk.replace(/^\r\n/, ''));
    const decoded = decodeBody(part.body.replace(/\r\n$/, ''), part.headers.get('content-transfer-encoding'));
    const type = part.headers.get('content-type') ?? '';
    if (type.startsWith('text/plain')) text = decoded;
    if (type.startsWith('text/html')) html = decoded;
  }
  return { headers, text, html };
}
