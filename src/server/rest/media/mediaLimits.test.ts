import { existsSync, readdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { crc32, deflateSync } from 'node:zlib';
import sharp from 'sharp';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestApp, type TestApp } from '../../../../test-support/createTestApp';
import { ownerBearer, TEST_OWNER_TOKEN } from '../../../../test-support/testOwner';

/*
 * The limits of wp/v2/media against abuse: image bombs (a huge canvas in a small file) are refused from their
 * header before decoding, uploads are counted per hour, and the uploader's file name is rendered clean.
 */

const HOST = 'shop.test';
let shop: TestApp;

beforeAll(async () => {
  shop = await createTestApp({ seed: false, settings: { server: { ownerToken: TEST_OWNER_TOKEN } } });
});
afterAll(async () => shop?.close());
afterEach(async () => {
  vi.useRealTimers();
  await shop.query('DELETE FROM media');
  rmSync(join(shop.dataDir, 'uploads'), { recursive: true, force: true });
});

/** The headers that let a request upload (and read back what it uploaded): the owner's API credentials. */
function uploaderHeaders(_target: TestApp): Record<string, string> {
  return { host: HOST, ...ownerBearer };
}

function upload(target: TestApp, fileName: string, bytes: Buffer, as: 'multipart' | 'raw' = 'multipart') {
  if (as === 'raw') {
    return target.app.inject({
      method: 'POST',
      url: '/wp-json/wp/v2/media',
      payload: bytes,
      headers: {
        ...uploaderHeaders(target),
        'content-type': 'image/png',
        'content-disposition': `attachment; filename*=UTF-8''${encodeURIComponent(fileName)}`,
      },
    });
  }
  const boundary = '----media-limits';
  const head = `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${fileName}"\r\nContent-Type: image/png\r\n\r\n`;
  return target.app.inject({
    method: 'POST',
    url: '/wp-json/wp/v2/media',
    payload: Buffer.concat([Buffer.from(head), bytes, Buffer.from(`\r\n--${boundary}--\r\n`)]),
    headers: { ...uploaderHeaders(target), 'content-type': `multipart/form-data; boundary=${boundary}` },
  });
}

/** Every file under the uploads folder. */
function uploadedFiles(target: TestApp): string[] {
  const root = join(target.dataDir, 'uploads');
  const walk = (dir: string): string[] =>
    readdirSync(dir).flatMap((name) => {
      const path = join(dir, name);
      return statSync(path).isDirectory() ? walk(path) : [path];
    });
  return existsSync(root) ? walk(root) : [];
}
const mediaRows = async () =>
  Number((await shop.query<{ n: number }>('SELECT COUNT(*) AS n FROM media'))[0]?.n);

/**
 * A valid one-colour PNG, written directly: grayscale, every row a filter byte and zeros, so even 10,000 × 10,000
 * at 1 bit deflates to about 12 KB in a few milliseconds (what makes it a bomb: tiny file, huge canvas).
 */
function flatPng(width: number, height: number, bitDepth: 1 | 16 = 1): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([bitDepth, 0, 0, 0, 0], 8); // grayscale, deflate, no filter, no interlace
  const rows = Buffer.alloc((1 + Math.ceil((width * bitDepth) / 8)) * height);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(rows, { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/**
 * Fixes the clock inside an hour, so a count never straddles two windows. The day is long past, so uploads other
 * tests made on the real clock never share its hour's count.
 */
function clockAt(hour: number) {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(new Date(Date.UTC(2001, 0, 15, hour, 10)));
}

describe('image bombs', () => {
  it('refuses a 10,000 × 10,000 PNG from its header with 413, decoding nothing and storing nothing', async () => {
    const bomb = flatPng(10_000, 10_000);
    expect(bomb.length).toBeLessThan(64 * 1024);
    for (const as of ['multipart', 'raw'] as const) {
      global.gc?.();
      const rssBefore = process.memoryUsage().rss;
      let rssPeak = rssBefore;
      const sampler = setInterval(() => {
        rssPeak = Math.max(rssPeak, process.memoryUsage().rss);
      }, 2);
      const response = await upload(shop, 'bomb.png', bomb, as);
      clearInterval(sampler);
      rssPeak = Math.max(rssPeak, process.memoryUsage().rss);

      expect(response.statusCode).toBe(413);
      expect(response.json()).toMatchObject({
        code: 'rest_upload_file_too_big',
        data: { status: 413, width: 10_000, height: 10_000, maxPixels: 40_000_000 },
      });
      expect(response.json().message).toContain('at most 40 megapixels');
      // Decoding this canvas costs well over 100 MB; reading its header costs next to nothing.
      expect(rssPeak - rssBefore).toBeLessThan(40 * 1024 * 1024);
    }
    expect(uploadedFiles(shop)).toEqual([]);
    expect(await mediaRows()).toBe(0);
  }, 30_000);

  it('accepts a canvas of exactly 40 megapixels and refuses one a row of pixels larger', async () => {
    const over = await upload(shop, 'over.png', flatPng(8_000, 5_001));
    expect(over.statusCode).toBe(413);
    expect(await mediaRows()).toBe(0);
    const limit = await upload(shop, 'limit.png', flatPng(8_000, 5_000));
    expect(limit.statusCode).toBe(201);
    expect(limit.json().media_details).toMatchObject({ width: 8_000, height: 5_000 });
    expect(Object.keys(limit.json().media_details.sizes).sort()).toEqual(['large', 'medium', 'thumbnail']);
  }, 30_000);

  it('gives a PNG of 16 bits a channel half the canvas, as each pixel costs twice as much to decode', async () => {
    const over = await upload(shop, 'deep.png', flatPng(5_000, 4_001, 16));
    expect(over.statusCode).toBe(413);
    expect(over.json()).toMatchObject({ data: { width: 5_000, height: 4_001, maxPixels: 20_000_000 } });
    expect(over.json().message).toContain('5000 × 4001 pixels at 16 bits a channel');
    expect(await mediaRows()).toBe(0);
    expect((await upload(shop, 'deep.png', flatPng(5_000, 4_000, 16))).statusCode).toBe(201);
  }, 30_000);
});

describe('decoding', () => {
  it('makes the sizes of concurrent uploads one image at a time, so their memory never adds up', async () => {
    const photo = await sharp({ create: { width: 4000, height: 3000, channels: 3, background: '#7a8f6b' } })
      .png()
      .toBuffer();
    const answers = await Promise.all(
      ['one', 'two', 'three'].map((name) => upload(shop, `${name}.png`, photo)),
    );
    expect(answers.map((answer) => answer.statusCode)).toEqual([201, 201, 201]);
    // When each image's sizes were written: serialised, no two uploads' time spans overlap.
    const spans = answers
      .map((answer) => {
        const sizes = Object.values(answer.json().media_details.sizes) as { source_url: string }[];
        const times = sizes.map(
          (size) =>
            statSync(
              join(
                shop.dataDir,
                'uploads',
                size.source_url.replace(`http://${HOST}/wp-content/uploads/`, ''),
              ),
            ).mtimeMs,
        );
        expect(times).toHaveLength(3);
        return { first: Math.min(...times), last: Math.max(...times) };
      })
      .sort((a, b) => a.first - b.first);
    for (let i = 1; i < spans.length; i++)
      expect(spans[i]?.first).toBeGreaterThanOrEqual(spans[i - 1]?.last as number);
  }, 30_000);
});

describe('upload count', () => {
  it('takes 200 uploads an hour, then answers 429 with Retry-After and stores nothing more', async () => {
    clockAt(14); // 50 minutes left in the hour
    const tiny = flatPng(2, 2);
    // Sent together, so the count must hold under concurrent uploads (it is one atomic upsert per try).
    const answers = await Promise.all(
      Array.from({ length: 205 }, (_, i) => upload(shop, `tiny-${i}.png`, tiny)),
    );
    const statuses = answers.map((answer) => answer.statusCode);
    expect(statuses.filter((status) => status === 201)).toHaveLength(200);
    expect(statuses.filter((status) => status === 429)).toHaveLength(5);
    const refused = answers.find((answer) => answer.statusCode === 429);
    expect(refused?.headers['retry-after']).toBe(String(50 * 60));
    expect(refused?.json()).toMatchObject({
      code: 'rate_limited',
      message: 'Too many uploads: at most 200 an hour. Please try again in 50 minutes.',
      data: { status: 429, retryAfterSeconds: 3000 },
    });
    expect(await mediaRows()).toBe(200);
    expect(uploadedFiles(shop)).toHaveLength(200);

    clockAt(15);
    expect((await upload(shop, 'next-hour.png', tiny)).statusCode).toBe(201);
  }, 60_000);
});

describe('title.rendered', () => {
  it('is the file name cleaned like any rendered markup, on upload and on read', async () => {
    const png = flatPng(20, 20);
    const response = await upload(shop, '<img src=x onerror=alert(1)>Sage <em>linen & co.png', png, 'raw');
    expect(response.statusCode).toBe(201);
    const expected = 'Sage <em>linen &amp; co</em>';
    expect(response.json().title).toEqual({ rendered: expected });
    const read = await shop.app.inject({
      url: `/wp-json/wp/v2/media/${response.json().id}`,
      headers: uploaderHeaders(shop),
    });
    expect(read.json().title).toEqual({ rendered: expected });
    expect(read.body).not.toContain('<img');
  });
});
