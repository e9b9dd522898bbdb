import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { Variation } from '../../shared/catalog/types';
import { ShopError } from '../../shared/errors/ShopError';
import { registerPlaceholderImageRoute } from '../catalog/placeholderImageRoute';
import type { Repositories } from '../db/ports';

export interface SwatchesPluginOptions {
  repositories: Repositories;
}

/** What `/?wc-ajax=get_variations` answers: every published variation of the product, in menu order. */
export interface GetVariationsResponse {
  product_id: number;
  variations: Variation[];
}

const getVariationsInput = z.looseObject({
  product_id: z.coerce.number().int().positive('Unknown product'),
});

/**
 * Variation swatches on the server: the variations of a product too large to inline in its page
 * (`swatches.lazyVariationsThreshold`, CONTRACT.md "Endpoints"), and the local images of image swatches.
 */
export async function swatchesPlugin(app: FastifyInstance, { repositories }: SwatchesPluginOptions) {
  const { catalog } = repositories;

  // Read-only and public like the product page it completes, so it needs no nonce.
  app.ajax.wcAjax('get_variations', {
    schema: getVariationsInput,
    methods: ['GET'],
    handle: async (input): Promise<GetVariationsResponse> => {
      const product = await catalog.getProductById(input.product_id);
      if (product?.type !== 'variable')
        throw new ShopError('product_not_found', 'That product does not exist or has no variations.');
      return { product_id: product.id, variations: product.variations };
    },
  });

  registerPlaceholderImageRoute(app, '/swatch-images', (id) => catalog.getSwatchImagePlaceholder(id));
}
