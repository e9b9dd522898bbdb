import { mkdir, open, rename, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import sharp from 'sharp';
import { ShopError } from '../../../shared/errors/ShopError';
import type { MediaAttachment, MediaRepository, MediaSize } from '../../db/ports';
import { sniffImageType } from './sniffImageType';
import { uploadBaseName, uploadTitle } from './uploadFileName';

/** WordPress's default intermediate sizes, all keeping the aspect ratio (fit inside the box, never enlarged). */
const SUBSIZES = [
  { name: 'thumbnail', width: 150, height: 150 },
  { name: 'medium', width: 300, height: 300 },
  { name: 'large', width: 1024, height: 1024 },
] as const;

type MediaFault = 'image-subsizes';

/**
 * Largest canvas accepted: 40 megapixels (8,000 × 5,000), more than the full sensor of nearly every phone and
 * camera, and 35 times the 1,024-pixel `large` size the shop shows. Decoding cost grows with the pixel count, not
 * the file size: a 10,000 × 10,000 PNG of one colour is a few KB on disk yet took the server past 400 MB while
 * its sizes were made. A canvas over the limit is refused from its header, before a pixel is decoded.
 */
const MAX_PIXELS = 40_000_000;

interface MediaLibraryOptions {
  uploadsDir: string;
  media: MediaRepository;
  /** Test-only fault injection (settings `server.testFaults`); empty in production. */
  faults?: readonly MediaFault[];
  now?: () => Date;
}

/** Thrown when sub-sizes could not be made after the attachment row exists: the client may resume or delete it. */
export class SubsizeError extends ShopError {
  constructor(readonly attachmentId: number) {
    super(
      'rest_upload_image_error',
      'The image was uploaded but its sizes could not be created. Post-process the upload to try again.',
      { attachmentId },
    );
  }
}

/**
 * Stores uploaded images under the uploads folder (`YYYY/MM/name.ext`) with their sub-sizes. Every check runs
 * before anything is written, and a write that fails removes what it wrote, so a refused upload leaves no file
 * and no row. Sub-sizes come last: if they fail the attachment exists, and `createMissingSubsizes` resumes.
 */
export class MediaLibrary {
  readonly #options: MediaLibraryOptions;
  /**
   * The sub-sizes being made, one image at a time in this process: decoding an image near MAX_PIXELS can take a
   * few hundred MB, and concurrent uploads must not multiply that. Header checks do not wait for it.
   */
  #decoding: Promise<unknown> = Promise.resolve();
  constructor(options: MediaLibraryOptions) {
    this.#options = options;
  }

  async upload(bytes: Buffer, clientName: string | undefined): Promise<MediaAttachment> {
    if (bytes.length === 0) throw new ShopError('rest_upload_no_data', 'No data supplied.');
    const type = sniffImageType(bytes);
    if (!type) {
      throw new ShopError(
        'rest_upload_invalid_type',
        'Sorry, this file type is not permitted: upload a JPEG, PNG, GIF or WebP image.',
      );
    }
    // Header only, so the pixel limit is ours to apply below with a clear message, not a decode failure.
    const metadata = await sharp(bytes, { limitInputPixels: false })
      .metadata()
      .catch(() => null);
    if (!metadata?.width || !metadata.height) {
      throw new ShopError('rest_upload_invalid_type', 'The file is not a valid image.');
    }
    // A small file can declare a huge canvas (a decompression bomb): refuse it before anything is stored. A PNG
    // of 16 bits a channel costs about twice as much to decode per pixel, so it gets half the canvas.
    const deep = metadata.depth === 'ushort';
    const maxPixels = deep ? MAX_PIXELS / 2 : MAX_PIXELS;
    if (metadata.width * metadata.height > maxPixels) {
      throw new ShopError(
        'rest_upload_file_too_big',
        `The image is too large: ${metadata.width} × ${metadata.height} pixels${deep ? ' at 16 bits a channel' : ''}, and at most ${maxPixels / 1_000_000} megapixels are accepted. Please scale it down and try again.`,
        { width: metadata.width, height: metadata.height, maxPixels },
      );
    }

    const now = this.#options.now?.() ?? new Date();
    const folder = `${now.getUTCFullYear()}/${String(now.getUTCMonth() + 1).padStart(2, '0')}`;
    const file = await this.#writeUnique(folder, uploadBaseName(clientName), type.extension, bytes);
    let attachment: MediaAttachment;
    try {
      attachment = await this.#options.media.create({
        slug: uploadBaseName(clientName),
        title: uploadTitle(clientName),
        altText: '',
        mimeType: type.mimeType,
        file,
        filesize: bytes.length,
        width: metadata.width,
        height: metadata.height,
      });
    } catch (error) {
      await removeFile(this.pathOf(file));
      throw error;
    }
    return this.createMissingSubsizes(attachment);
  }

  /** Makes the sub-sizes the attachment lacks (all of them after an upload; the rest after a failure). */
  createMissingSubsizes(attachment: MediaAttachment): Promise<MediaAttachment> {
    const turn = this.#decoding.then(() => this.#makeMissingSubsizes(attachment));
    this.#decoding = turn.catch(() => undefined);
    return turn;
  }

  async #makeMissingSubsizes(attachment: MediaAttachment): Promise<MediaAttachment> {
    const sizes: Record<string, MediaSize> = { ...attachment.sizes };
    const base = attachment.file.replace(/\.[^.]+$/, '');
    const extension = attachment.file.slice(base.length);
    try {
      for (const size of SUBSIZES) {
        if (sizes[size.name]) continue;
        // Like WordPress, no size that would only enlarge the original.
        if (attachment.width <= size.width && attachment.height <= size.height) continue;
        if (this.#options.faults?.includes('image-subsizes') && size.name !== 'thumbnail') {
          throw new Error(`Injected fault: creating the ${size.name} size fails`);
        }
        // A dot cannot occur in a cleaned base name, so this temporary name never meets another upload.
        const target = `${base}.${size.name}${extension}`;
        // The limit again at decoding: an original stored under an older, higher limit is never decoded whole.
        const info = await sharp(this.pathOf(attachment.file), {
          animated: false,
          limitInputPixels: MAX_PIXELS,
        })
          .rotate()
          .resize({ width: size.width, height: size.height, fit: 'inside', withoutEnlargement: true })
          .toFile(this.pathOf(target));
        const named = `${base}-${info.width}x${info.height}${extension}`;
        await rename(this.pathOf(target), this.pathOf(named));
        sizes[size.name] = {
          file: named,
          width: info.width,
          height: info.height,
          mimeType: attachment.mimeType,
          filesize: info.size,
        };
        // Kept after each size, so a resumed post-process skips what is already done.
        await this.#options.media.setSizes(attachment.id, sizes, false);
      }
    } catch {
      throw new SubsizeError(attachment.id);
    }
    await this.#options.media.setSizes(attachment.id, sizes, true);
    return { ...attachment, sizes, subsizesDone: true };
  }

  /** Deletes the row first (the attachment is gone even if a file cannot be removed), then its files. */
  async delete(attachment: MediaAttachment): Promise<void> {
    await this.#options.media.delete(attachment.id);
    const files = [attachment.file, ...Object.values(attachment.sizes).map((size) => size.file)];
    await Promise.all(files.map((file) => removeFile(this.pathOf(file))));
  }

  /** Where an uploaded file (as `MediaAttachment.file` names it) lies on disk. */
  pathOf(file: string): string {
    return join(this.#options.uploadsDir, ...file.split('/'));
  }

  /** Writes with `wx` (fail if it exists) and counts up on a clash, so two uploads never share a name. */
  async #writeUnique(folder: string, base: string, extension: string, bytes: Buffer): Promise<string> {
    await mkdir(join(this.#options.uploadsDir, ...folder.split('/')), { recursive: true });
    // An original never ends like a sub-size (`-150x100`), so no sub-size can ever be named like another upload.
    const first = /-\d+x\d+$/.test(base) ? 1 : 0;
    for (let attempt = first; attempt < 1000; attempt++) {
      const file = `${folder}/${attempt === 0 ? base : `${base}-${attempt}`}.${extension}`;
      let handle: Awaited<ReturnType<typeof open>>;
      try {
        handle = await open(this.pathOf(file), 'wx');
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'EEXIST') continue;
        throw error;
      }
      try {
        await handle.writeFile(bytes);
        await handle.close();
      } catch (error) {
        await handle.close().catch(() => {});
        await removeFile(this.pathOf(file));
        throw error;
      }
      return file;
    }
    throw new Error(`No free file name for ${base}.${extension} in ${folder}`);
  }
}

async function removeFile(path: string) {
  await unlink(path).catch((error: NodeJS.ErrnoException) => {
    if (error.code !== 'ENOENT') throw error;
  });
}
