import { describe, expect, it } from 'vitest';
import { createFakeFetch, json } from './createFakeFetch';
import { createRestClient } from './createRestClient';
import { RestError } from './RestError';

const failedUpload = () =>
  json(
    { code: 'rest_upload_image_error', message: 'sizes failed', data: { status: 500 } },
    { status: 500, headers: { 'X-WP-Upload-Attachment-ID': '42' } },
  );

function client(answer: Parameters<typeof createFakeFetch>[0]) {
  const fake = createFakeFetch(answer);
  return {
    rest: createRestClient({ fetch: fake.fetch, root: '/wp-json/', nonce: 'n', nonceEndpoint: '/nonce' }),
    calls: fake.calls,
  };
}
const upload = {
  path: '/wp/v2/media',
  method: 'POST',
  body: 'bytes',
  headers: { 'Content-Type': 'image/jpeg' },
};

describe('mediaUploadMiddleware', () => {
  it('retries post-process 5 times, then deletes the attachment and fails with post_process', async () => {
    const { rest, calls } = client((call) =>
      call.method === 'POST' && call.headers['X-HTTP-Method-Override'] === 'DELETE'
        ? json({ deleted: true })
        : failedUpload(),
    );
    const error = await rest(upload).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(RestError);
    expect(error).toMatchObject({
      code: 'post_process',
      message:
        'Media upload failed. If this is a photo or a large image, please scale it down and try again.',
    });
    const sequence = calls.map(
      (call) => `${call.headers['X-HTTP-Method-Override'] ?? call.method} ${call.url}`,
    );
    expect(sequence).toEqual([
      'POST /wp-json/wp/v2/media?_locale=user',
      ...Array(5).fill('POST /wp-json/wp/v2/media/42/post-process?_locale=user'),
      'DELETE /wp-json/wp/v2/media/42?force=true&_locale=user',
    ]);
    expect(calls[1]?.body).toEqual({ action: 'create-image-subsizes' });
    expect(calls.every((call) => call.headers['X-WP-Nonce'] === 'n')).toBe(true);
  });

  it('answers with the post-process result when a retry succeeds', async () => {
    let attempts = 0;
    const { rest, calls } = client((call) => {
      if (call.url.includes('post-process'))
        return ++attempts < 3 ? failedUpload() : json({ id: 42, done: true });
      return failedUpload();
    });
    expect(await rest(upload)).toEqual({ id: 42, done: true });
    expect(calls).toHaveLength(4);
  });

  it('passes other failures through as their own error, without post-processing', async () => {
    const noId = client(() => json({ code: 'internal_error', message: 'boom' }, { status: 500 }));
    await expect(noId.rest(upload)).rejects.toMatchObject({ code: 'internal_error', message: 'boom' });
    expect(noId.calls).toHaveLength(1);
    const refused = client(() =>
      json(
        { code: 'rest_upload_invalid_type', message: 'Not an image' },
        { status: 415, headers: { 'X-WP-Upload-Attachment-ID': '9' } },
      ),
    );
    await expect(refused.rest(upload)).rejects.toMatchObject({ code: 'rest_upload_invalid_type' });
    expect(refused.calls).toHaveLength(1);
  });

  it('with parse: false rejects with the failed upload Response itself', async () => {
    const { rest } = client(failedUpload);
    const error = await rest({ ...upload, parse: false }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(Response);
    expect((error as Response).status).toBe(500);
  });

  it('leaves uploads that succeed and other requests alone', async () => {
    const { rest, calls } = client(() => json({ id: 7 }, { status: 201 }));
    expect(await rest(upload)).toEqual({ id: 7 });
    expect(await rest({ path: '/wp/v2/media/7' })).toEqual({ id: 7 });
    expect(calls).toHaveLength(2);
  });
});

describe('mediaUploadMiddleware: only an upload is recovered', () => {
  it('fails an upload made offline with fetch_error', async () => {
    const { rest, calls } = client(() => {
      throw new TypeError('Failed to fetch');
    });
    await expect(rest(upload)).rejects.toMatchObject({ code: 'fetch_error' });
    expect(calls).toHaveLength(1);
  });

  it('post-processes nothing but a POST to /wp/v2/media, even when another answer names an attachment', async () => {
    for (const request of [
      { path: '/wp/v2/posts', method: 'POST', data: { title: 'x' } },
      { path: '/wp/v2/media' },
    ]) {
      const { rest, calls } = client(failedUpload);
      await expect(rest(request)).rejects.toMatchObject({ code: 'rest_upload_image_error' });
      expect(calls).toHaveLength(1);
    }
  });
});
