import { readFileSync } from 'node:fs';
import { extname, resolve } from 'node:path';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { postUrl, productUrl, termUrl } from '../../shared/catalog/urls';
import { ShopError } from '../../shared/errors/ShopError';
import type { ShopConfig } from '../../shared/settings/settingsSchema';
import type { Repositories } from '../db/ports';
import { projectPath } from '../projectPath';
import { robotsTxt } from './robotsTxt';
import { type SitemapUrl, sitemapXml } from './sitemapXml';

interface SiteFilesPluginOptions {
  config: ShopConfig;
  repositories: Repositories;
}

export const DEFAULT_FAVICON = projectPath('src/server/siteFiles/favicon.ico');

const ICON_TYPES: Record<string, string> = {
  '.ico': 'image/x-icon',
  '.png': 'image/png',
  '.svg': 'image/svg+xml',
};

/** The sitemap protocol allows 50,000 addresses in one file; the shop's own pages take a few of them. */
const MAX_SITEMAP_PRODUCTS = 45_000;
const MAX_SITEMAP_POSTS = 2_000;

/** The files crawlers and browsers ask every site for: robots.txt, sitemap.xml and favicon.ico. */
export async function siteFilesPlugin(
  app: FastifyInstance,
  { config, repositories }: SiteFilesPluginOptions,
) {
  const favicon = readFavicon(config.server.faviconFile);

  app.get('/robots.txt', async (request, reply) =>
    reply
      .type('text/plain; charset=utf-8')
      .header('cache-control', 'public, max-age=3600')
      .send(robotsTxt(siteOrigin(request))),
  );

  // Built from the database on each request, so a catalog change shows at once; caches keep it five minutes.
  app.get('/sitemap.xml', async function sitemap(request, reply) {
    const { catalog } = repositories;
    const [products, categories, pages, posts] = await Promise.all([
      catalog.listSitemapProducts(MAX_SITEMAP_PRODUCTS),
      catalog.listTerms('product_cat'),
      catalog.listPosts('page', MAX_SITEMAP_POSTS),
      catalog.listPosts('post', MAX_SITEMAP_POSTS),
    ]);
    const urls: SitemapUrl[] = [
      { path: '/' },
      { path: '/shop/', lastModified: products[0]?.updatedAt },
      ...categories.map((term) => ({ path: termUrl(term) })),
      ...products.map((product) => ({ path: productUrl(product.slug), lastModified: product.updatedAt })),
      ...(posts.length > 0 ? [{ path: '/journal/', lastModified: posts[0]?.publishedAt }] : []),
      ...[...pages, ...posts]
        .filter((post) => !post.protected)
        .map((post) => ({ path: postUrl(post.slug), lastModified: post.publishedAt })),
    ];
    return reply
      .type('application/xml; charset=utf-8')
      .header('cache-control', 'public, max-age=300')
      .send(sitemapXml(siteOrigin(request), urls));
  });

  app.get('/favicon.ico', async (_request, reply) =>
    reply.type(favicon.type).header('cache-control', 'public, max-age=86400').send(favicon.body),
  );
}

function siteOrigin(request: FastifyRequest): string {
  return `${request.protocol}://${request.host}`;
}

/** Read once at start: a configured icon that cannot be read stops the start with its path named. */
function readFavicon(configured: string | null): { body: Buffer; type: string } {
  const path = configured === null ? DEFAULT_FAVICON : resolve(configured);
  const type = ICON_TYPES[extname(path).toLowerCase()];
  if (!type) {
    throw new ShopError('invalid_settings', `server.faviconFile: ${path} is not an .ico, .png or .svg file`);
  }
  try {
    return { body: readFileSync(path), type };
  } catch (error) {
    throw new ShopError('invalid_settings', `server.faviconFile: cannot read ${path} (${String(error)})`);
  }
}
