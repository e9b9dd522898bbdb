import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { ShopError } from '../../../shared/errors/ShopError';
import { flag } from '../../../shared/settings/flag';
import { sanitizeRichText } from '../../catalog/sanitizeRichText';
import type { MediaAttachment, Repositories } from '../../db/ports';
import { queryAndBody } from '../../http/requestFields';
import { type RateLimit, refuseWhenLimited } from '../../security/rateLimiter';
import { filterFields, parseFieldsParam } from '../filterFields';
import { parseRestInput } from '../parseRestInput';
import { restRoute } from '../restRoute';
import type { MediaLibrary } from './MediaLibrary';
import { SubsizeError } from './MediaLibrary';
import { readUpload, tooBig } from './readUpload';

/** Where the uploads folder is served (WordPress's path, so themes' URL rules keep working). */
export const UPLOADS_URL = '/wp-content/uploads/';

/**
 * Uploads per hour, every try counted (refused ones too: a refused image bomb still cost a header read). 200 is
 * far above an owner adding a product's photos by hand and still caps what reaches the disk at 200 ×
 * `rest.maxUploadBytes` an hour.
 */
export const UPLOADS_PER_HOUR: RateLimit = { name: 'media-uploads', limit: 200, windowMs: 60 * 60 * 1000 };
/**
 * Whose uploads are counted: the shop has one owner, and every upload is theirs (or, where a nonce alone lets a
 * visitor upload, counted with theirs), so one count caps the shop's disk growth whoever sends the files.
 */
const UPLOADER = 'shop-owner';

const idParams = z.object({ id: z.coerce.number().int().positive() });
const postProcessBody = z.object({
  action: z.literal('create-image-subsizes', { error: 'action must be create-image-subsizes' }),
});
const deleteQuery = z.object({ force: flag(false) });

function toRestMedia(attachment: MediaAttachment, origin: string) {
  const url = (file: string) => `${origin}${UPLOADS_URL}${file}`;
  const date = attachment.createdAt.replace(/\.\d+Z$|Z$/, '');
  return {
    id: attachment.id,
    date,
    date_gmt: date,
    slug: attachment.slug,
    status: 'inherit',
    type: 'attachment',
    link: url(attachment.file),
    // The title is the uploader's file name: rendered markup, so cleaned like every other rendered field.
    title: { rendered: sanitizeRichText(attachment.title) },
    alt_text: attachment.altText,
    media_type: 'image',
    mime_type: attachment.mimeType,
    source_url: url(attachment.file),
    media_details: {
      width: attachment.width,
      height: attachment.height,
      file: attachment.file,
      filesize: attachment.filesize,
      sizes: Object.fromEntries(
        Object.entries(attachment.sizes).map(([name, size]) => [
          name,
          {
            file: size.file.split('/').pop(),
            width: size.width,
            height: size.height,
            filesize: size.filesize,
            mime_type: size.mimeType,
            source_url: url(size.file),
          },
        ]),
      ),
    },
  };
}

/** wp/v2/media: upload (with sub-sizes), read, post-process (resume sub-sizes) and delete with force=true. */
export function registerMediaRoutes(
  app: FastifyInstance,
  {
    repositories,
    library,
    maxUploadBytes,
  }: { repositories: Repositories; library: MediaLibrary; maxUploadBytes: number },
) {
  const origin = (request: FastifyRequest) => `${request.protocol}://${request.host}`;
  const fields = (request: FastifyRequest) =>
    parseFieldsParam((request.query as Record<string, unknown>)._fields);
  async function find(request: FastifyRequest) {
    const { id } = parseRestInput(idParams, request.params);
    const attachment = await repositories.media.get(id);
    if (!attachment) throw new ShopError('rest_post_invalid_id', 'Invalid post ID.');
    return attachment;
  }
  async function withAttachmentHeader<T>(
    reply: { header(name: string, value: string): unknown },
    work: () => Promise<T>,
  ) {
    try {
      return await work();
    } catch (error) {
      // As WordPress does: a 5xx after the row exists names it, so the client can post-process or delete it.
      if (error instanceof SubsizeError)
        reply.header('X-WP-Upload-Attachment-ID', String(error.attachmentId));
      throw error;
    }
  }

  restRoute(
    app,
    '/wp-json/wp/v2/media',
    {
      async POST(request, reply) {
        // Refused before busboy reads a byte of a multipart body that cannot fit (raw bodies: see collectRawBody).
        if (Number(request.headers['content-length'] ?? 0) > maxUploadBytes + 64 * 1024)
          throw tooBig(maxUploadBytes);
        const verdict = await app.rateLimiter.take(UPLOADS_PER_HOUR, UPLOADER);
        const minutes = Math.ceil(verdict.retryAfterSeconds / 60);
        refuseWhenLimited(
          reply,
          verdict,
          `Too many uploads: at most ${UPLOADS_PER_HOUR.limit} an hour. Please try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`,
        );
        const { bytes, name } = await readUpload(request, maxUploadBytes);
        const attachment = await withAttachmentHeader(reply, () => library.upload(bytes, name));
        const body = toRestMedia(attachment, origin(request));
        return reply
          .status(201)
          .header('Location', `${origin(request)}/wp-json/wp/v2/media/${attachment.id}`)
          .send(filterFields(body, fields(request)));
      },
    },
    // Multipart framing on top of the largest file; the raw-body parser enforces the file limit itself.
    // Uploads are the owner's alone: a nonce proves intent, not permission.
    { bodyLimit: maxUploadBytes + 64 * 1024, guard: { methods: ['POST'], check: app.owner.requireOwner } },
  );

  restRoute(
    app,
    '/wp-json/wp/v2/media/:id',
    {
      async GET(request) {
        return filterFields(toRestMedia(await find(request), origin(request)), fields(request));
      },
      async DELETE(request) {
        const attachment = await find(request);
        const { force } = parseRestInput(deleteQuery, request.query);
        if (!force) {
          throw new ShopError(
            'rest_trash_not_supported',
            "Media does not support trashing. Set 'force=true' to delete.",
          );
        }
        const previous = toRestMedia(attachment, origin(request));
        await library.delete(attachment);
        return { deleted: true, previous };
      },
    },
    { guard: { methods: ['DELETE'], check: app.owner.requireOwner } },
  );

  restRoute(
    app,
    '/wp-json/wp/v2/media/:id/post-process',
    {
      async POST(request, reply) {
        const attachment = await find(request);
        parseRestInput(
          postProcessBody,
          parseRestInput(queryAndBody, { query: request.query, body: request.body }),
        );
        const done = await withAttachmentHeader(reply, () => library.createMissingSubsizes(attachment));
        return filterFields(toRestMedia(done, origin(request)), fields(request));
      },
    },
    { guard: { methods: ['POST'], check: app.owner.requireOwner } },
  );
}
