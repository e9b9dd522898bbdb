import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { ShopError } from '../../shared/errors/ShopError';
import type { ImagePlaceholder } from '../db/ports';
import { parseInput } from '../http/parseInput';
import { renderPlaceholderSvg } from './renderPlaceholderSvg';

const imageFile = z.object({ file: z.string().regex(/^\d{1,12}\.svg$/, 'Unknown image') });

/**
 * `GET {prefix}/{id}.svg`: an image drawn locally from what `lookup` knows of it (product and swatch images never
 * load from an external host). Cached for a day; the SVG may not run scripts or load anything.
 */
export function registerPlaceholderImageRoute(
  app: FastifyInstance,
  prefix: string,
  lookup: (id: number) => Promise<ImagePlaceholder | null>,
) {
  app.get(`${prefix}/:file`, async function placeholderImage(request, reply) {
    const { file } = parseInput(imageFile, request.params);
    const placeholder = await lookup(Number(file.slice(0, -4)));
    if (!placeholder) throw new ShopError('not_found', 'There is no such image.');
    return reply
      .header('content-type', 'image/svg+xml')
      .header('cache-control', 'public, max-age=86400')
      .header('content-security-policy', "default-src 'none'; style-src 'unsafe-inline'")
      .send(renderPlaceholderSvg(placeholder));
  });
}
