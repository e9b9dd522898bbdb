import type { FastifyRequest } from 'fastify';
import { ShopError } from '../../../shared/errors/ShopError';
import { fileNameFromContentDisposition } from './uploadFileName';

export function tooBig(maxBytes: number) {
  return new ShopError(
    'rest_upload_file_too_big',
    `The file is too large: uploads are limited to ${Math.floor(maxBytes / (1024 * 1024))} MB.`,
  );
}

/**
 * The uploaded bytes and the client's file name, from either form WordPress accepts: multipart (`file` field)
 * or the raw body with `Content-Disposition: attachment; filename=…`. Over `maxBytes` is a 413 without reading
 * the rest into memory.
 */
export async function readUpload(
  request: FastifyRequest,
  maxBytes: number,
): Promise<{ bytes: Buffer; name: string | undefined }> {
  if (request.isMultipart()) {
    const part = await request.file({ limits: { fileSize: maxBytes, files: 1 } });
    if (!part) throw new ShopError('rest_upload_no_data', 'No data supplied.');
    try {
      return { bytes: await part.toBuffer(), name: part.filename };
    } catch (error) {
      if ((error as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') throw tooBig(maxBytes);
      throw error;
    }
  }
  const body = request.body;
  if (!Buffer.isBuffer(body) || body.length === 0) {
    throw new ShopError('rest_upload_no_data', 'No data supplied.');
  }
  return { bytes: body, name: fileNameFromContentDisposition(request.headers['content-disposition']) };
}
