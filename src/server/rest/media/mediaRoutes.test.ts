import { existsSync, readdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { crc32, deflateSync } from 'node:zlib';
import sharp from 'sharp';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../../test-support/createTestApp';
import { ownerBearer, TEST_OWNER_TOKEN } from '../../../../test-support/testOwner';

const HOST = 'shop.test';
let shop: TestApp;
let faulty: TestApp;

beforeAll(async () => {
  [shop, faulty] = await Promise.all([
    createTestApp({
      seed: false,
      settings: { rest: { maxUploadBytes: 2 * 1024 * 1024 }, server: { ownerToken: TEST_OWNER_TOKEN } },
    }),
    createTestApp({
      seed: false,
      settings: { server: { testFaults: ['image-subsizes'], ownerToken: TEST_OWNER_TOKEN } },
    }),
  ]);
});
afterAll(async () => {
  await Promise.all([shop.close(), faulty.close()]);
});

const photo = (width = 1600, height = 900) =>
  sharp({ create: { width, height, channels: 3, background: '#c8844a' } })
    .jpeg()
    .toBuffer();

/** Every file under the uploads folder, as paths relative to it. */
function uploadedFiles(target: TestApp): string[] {
  const root = join(target.dataDir, 'uploads');
  const walk = (dir: string): string[] =>
    readdirSync(dir).flatMap((name) => {
      const path = join(dir, name);
      return statSync(path).isDirectory() ? walk(path) : [path.slice(root.length + 1)];
    });
  return existsSync(root) ? walk(root) : [];
}
const mediaRows = async (target: TestApp) =>
  (await target.query<{ n: number }>('SELECT COUNT(*) AS n FROM media'))[0]?.n;

function multipart(fileName: string, bytes: Buffer, type = 'image/jpeg') {
  const boundary = '----shop-test-boundary';
  const head = `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${fileName}"\r\nContent-Type: ${type}\r\n\r\n`;
  return {
    payload: Buffer.concat([Buffer.from(head), bytes, Buffer.from(`\r\n--${boundary}--\r\n`)]),
    contentType: `multipart/form-data; boundary=${boundary}`,
  };
}

async function upload(target: TestApp, fileName: string, bytes: Buffer, raw = false) {
  const body = raw
    ? {
        payload: bytes,
        headers: {
          'content-type': 'image/jpeg',
          'content-disposition': `attachment; filename="${fileName}"`,
        },
      }
    : (() => {
        const form = multipart(fileName, bytes);
        return { payload: form.payload, headers: { 'content-type': form.contentType } };
      })();
  return target.app.inject({
    method: 'POST',
    url: '/wp-json/wp/v2/media',
    payload: body.payload,
    headers: { host: HOST, ...ownerBearer, ...body.headers },
  });
}

describe('wp/v2/media', () => {
  afterEach(async () => {
    // Each test starts from an empty library, so "nothing left behind" is checked against nothing.
    await shop.query('DELETE FROM media');
    rmSync(join(shop.dataDir, 'uploads'), { recursive: true, force: true });
  });

  it('stores a multipart upload with thumbnail, medium and large sizes on disk, keeping the aspect ratio', async () => {
    const response = await upload(shop, 'Summer Linen Shirt.JPG', await photo());
    expect(response.statusCode).toBe(201);
    const media = response.json();
    expect(media).toMatchObject({
      type: 'attachment',
      mime_type: 'image/jpeg',
      title: { rendered: 'Summer Linen Shirt' },
      media_details: { width: 1600, height: 900 },
    });
    expect(media.source_url).toMatch(
      /^http:\/\/shop\.test\/wp-content\/uploads\/\d{4}\/\d{2}\/summer-linen-shirt\.jpg$/,
    );
    const sizes = media.media_details.sizes as Record<
      string,
      { width: number; height: number; source_url: string }
    >;
    expect(Object.keys(sizes).sort()).toEqual(['large', 'medium', 'thumbnail']);
    expect(sizes.thumbnail).toMatchObject({ width: 150, height: 84 });
    expect(sizes.medium).toMatchObject({ width: 300, height: 169 });
    expect(sizes.large).toMatchObject({ width: 1024, height: 576 });
    for (const size of Object.values(sizes)) {
      const file = size.source_url.replace('http://shop.test/wp-content/uploads/', '');
      const meta = await sharp(join(shop.dataDir, 'uploads', file)).metadata();
      expect([meta.width, meta.height]).toEqual([size.width, size.height]);
    }
    expect(uploadedFiles(shop)).toHaveLength(4);

    const served = await shop.app.inject({
      url: media.source_url.replace('http://shop.test', ''),
      headers: { host: HOST },
    });
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toBe('image/jpeg');
    expect(served.headers['x-content-type-options']).toBe('nosniff');

    const deleted = await shop.app.inject({
      method: 'DELETE',
      url: `/wp-json/wp/v2/media/${media.id}?force=true`,
      headers: { host: HOST, ...ownerBearer },
    });
    expect(deleted.json()).toMatchObject({ deleted: true, previous: { id: media.id } });
    expect(uploadedFiles(shop)).toEqual([]);
    expect(await mediaRows(shop)).toBe(0);
  });

  it('accepts a raw body named by Content-Disposition and never enlarges a small image', async () => {
    const response = await upload(shop, 'tiny.jpg', await photo(200, 100), true);
    expect(response.statusCode).toBe(201);
    expect(Object.keys(response.json().media_details.sizes)).toEqual(['thumbnail']);
    const second = await upload(shop, 'tiny.jpg', await photo(200, 100), true);
    expect(second.json().source_url).toMatch(/tiny-1\.jpg$/);
  });

  it('refuses a text file renamed .jpg, leaving nothing on disk or in the database', async () => {
    const before = uploadedFiles(shop);
    const response = await upload(shop, 'notes.jpg', Buffer.from('just some text, not an image\n'));
    expect(response.statusCode).toBe(415);
    expect(response.json()).toMatchObject({ code: 'rest_upload_invalid_type', data: { status: 415 } });
    // A JPEG signature in front of garbage is not an image either.
    const fake = await upload(
      shop,
      'fake.jpg',
      Buffer.concat([Buffer.from([0xff, 0xd8, 0xff]), Buffer.alloc(64)]),
    );
    expect(fake.json()).toMatchObject({ code: 'rest_upload_invalid_type' });
    expect(uploadedFiles(shop)).toEqual(before);
    expect(await mediaRows(shop)).toBe(0);
  });

  it('refuses a 50 MB body as multipart and as raw body with 413', async () => {
    const huge = Buffer.concat([await photo(10, 10), Buffer.alloc(50 * 1024 * 1024)]);
    for (const raw of [false, true]) {
      const response = await upload(shop, 'huge.jpg', huge, raw);
      expect(response.statusCode).toBe(413);
      expect(response.json()).toMatchObject({ code: 'rest_upload_file_too_big', data: { status: 413 } });
    }
    expect(uploadedFiles(shop)).toEqual([]);
    expect(await mediaRows(shop)).toBe(0);
  });

  it('stops a multipart file just over the limit while reading it, with 413', async () => {
    // Under the request-size precheck (limit + framing), so the file-size limit while streaming is what refuses it.
    const justOver = Buffer.concat([await photo(10, 10), Buffer.alloc(2 * 1024 * 1024)]);
    const response = await upload(shop, 'just-over.jpg', justOver);
    expect(response.statusCode).toBe(413);
    expect(response.json()).toMatchObject({ code: 'rest_upload_file_too_big' });
    expect(uploadedFiles(shop)).toEqual([]);
    expect(await mediaRows(shop)).toBe(0);
  });

  it('refuses a small file that declares a huge canvas (decompression bomb) with 413', async () => {
    const chunk = (type: string, data: Buffer) => {
      const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
      const length = Buffer.alloc(4);
      length.writeUInt32BE(data.length);
      const crc = Buffer.alloc(4);
      crc.writeUInt32BE(crc32(body));
      return Buffer.concat([length, body, crc]);
    };
    const header = Buffer.alloc(13);
    header.writeUInt32BE(20_000, 0);
    header.writeUInt32BE(20_000, 4);
    header.set([8, 2, 0, 0, 0], 8);
    const bomb = Buffer.concat([
      Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
      chunk('IHDR', header),
      chunk('IDAT', deflateSync(Buffer.alloc(1024))),
      chunk('IEND', Buffer.alloc(0)),
    ]);
    const response = await upload(shop, 'bomb.png', bomb);
    expect(response.statusCode).toBe(413);
    expect(response.json()).toMatchObject({ code: 'rest_upload_file_too_big' });
    expect(response.json().message).toContain('megapixels');
    expect(uploadedFiles(shop)).toEqual([]);
    expect(await mediaRows(shop)).toBe(0);
  });

  it('cleans path traversal out of file names and keeps the sniffed extension', async () => {
    const png = await sharp({ create: { width: 40, height: 40, channels: 4, background: '#fff' } })
      .png()
      .toBuffer();
    const response = await upload(shop, '../../../etc/Passwd ÉTÉ.php', png);
    expect(response.statusCode).toBe(201);
    expect(response.json().media_details.file).toMatch(/^\d{4}\/\d{2}\/passwd-ete\.png$/);
    const windows = await upload(shop, '..\\..\\boot.ini', png, true);
    expect(windows.json().media_details.file).toMatch(/^\d{4}\/\d{2}\/boot\.png$/);
    expect(uploadedFiles(shop).every((file) => /^\d{4}\/\d{2}\/[a-z0-9-]+\.png$/.test(file))).toBe(true);
  });

  it('needs the owner, an upload body and force=true to delete', async () => {
    const anonymous = await shop.app.inject({
      method: 'POST',
      url: '/wp-json/wp/v2/media',
      headers: { host: HOST, 'content-type': 'image/jpeg' },
      payload: await photo(20, 20),
    });
    expect(anonymous.json()).toMatchObject({ code: 'unauthorized' });
    const empty = await upload(shop, 'empty.jpg', Buffer.alloc(0), true);
    expect(empty.json()).toMatchObject({ code: 'rest_upload_no_data' });
    const created = (await upload(shop, 'keep.jpg', await photo(20, 20), true)).json();
    const soft = await shop.app.inject({
      method: 'POST',
      url: `/wp-json/wp/v2/media/${created.id}`,
      headers: {
        host: HOST,
        ...ownerBearer,
        'x-http-method-override': 'DELETE',
      },
    });
    expect(soft.statusCode).toBe(501);
    expect(soft.json()).toMatchObject({ code: 'rest_trash_not_supported' });
    expect(await mediaRows(shop)).toBe(1);
  });
});

describe('post-process after a failed sub-size (server.testFaults)', () => {
  it('answers 500 with X-WP-Upload-Attachment-ID, keeps what was made, and post-process resumes', async () => {
    const response = await upload(faulty, 'big.jpg', await photo());
    expect(response.statusCode).toBe(500);
    expect(response.json()).toMatchObject({ code: 'rest_upload_image_error', data: { status: 500 } });
    const id = Number(response.headers['x-wp-upload-attachment-id']);
    expect(id).toBeGreaterThan(0);
    const row = await faulty.repositories.media.get(id);
    expect(row?.subsizesDone).toBe(false);
    expect(Object.keys(row?.sizes ?? {})).toEqual(['thumbnail']);

    const retry = await faulty.app.inject({
      method: 'POST',
      url: `/wp-json/wp/v2/media/${id}/post-process`,
      headers: { host: HOST, ...ownerBearer },
      payload: { action: 'create-image-subsizes' },
    });
    expect(retry.statusCode).toBe(500);
    expect(retry.headers['x-wp-upload-attachment-id']).toBe(String(id));
    const badAction = await faulty.app.inject({
      method: 'POST',
      url: `/wp-json/wp/v2/media/${id}/post-process`,
      headers: { host: HOST, ...ownerBearer },
      payload: { action: 'rotate' },
    });
    expect(badAction.json()).toMatchObject({ code: 'rest_invalid_param' });
  });
});
