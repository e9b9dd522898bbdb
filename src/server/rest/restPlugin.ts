import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import multipart from '@fastify/multipart';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { z } from 'zod';
import { ShopError } from '../../shared/errors/ShopError';
import type { ShopConfig } from '../../shared/settings/settingsSchema';
import type { Repositories } from '../db/ports';
import { REST_NONCE_ACTION } from './checkRestNonce';
import { registerComingSoonRoute } from './comingSoonBanner';
import { MediaLibrary } from './media/MediaLibrary';
import { registerMediaRoutes, UPLOADS_URL } from './media/mediaRoutes';
import { tooBig } from './media/readUpload';
import { registerPostRoutes } from './postRoutes';
import { registerReviewRoutes } from './reviewRoutes';

interface RestPluginOptions {
  config: ShopConfig;
  repositories: Repositories;
  /** DATA_DIR: uploads go to `{dataDir}/uploads/YYYY/MM/`. */
  dataDir: string;
}

/**
 * The REST API under `/wp-json/` with WordPress's conventions (docs/contract.md "Endpoints"), the REST nonce endpoint
 * and the uploads folder. Routes are registered one by one (no `/wp-json/*` catch-all), so other plugins add
 * their own namespaces beside ours and reuse `checkRestNonce`. The index lists every `/wp-json/` route
 * registered after this plugin, whoever registers it.
 */
export const restPlugin = fp(
  async function restPlugin(app: FastifyInstance, options: RestPluginOptions) {
    const routes = new Map<string, Set<string>>();
    app.addHook('onRoute', function collectRestRoute(route) {
      if (!route.url.startsWith('/wp-json/') || route.url === '/wp-json/') return;
      const methods =
        route.config?.restMethods ?? (Array.isArray(route.method) ? route.method : [route.method]);
      const known = routes.get(route.url) ?? new Set<string>();
      for (const method of methods) if (method !== 'HEAD') known.add(method);
      routes.set(route.url, known);
    });

    app.ajax.siteAjax('rest-nonce', {
      schema: z.object({}),
      methods: ['GET'],
      // WordPress's admin-ajax.php answers the same call with the bare nonce as text.
      async handle(_input, request, reply) {
        return reply
          .type('text/plain; charset=utf-8')
          .send(app.nonces.create(REST_NONCE_ACTION, request.visitor));
      },
    });

    app.get('/wp-json/', async function restIndex(request) {
      const origin = `${request.protocol}://${request.host}`;
      const namespaces = new Set<string>();
      const index: Record<string, { namespace: string; methods: string[] }> = {};
      for (const [url, methods] of routes) {
        const path = url.slice('/wp-json'.length).replace(/:(\w+)/g, '(?P<$1>[^/]+)');
        const namespace = path.split('/').slice(1, 3).join('/');
        namespaces.add(namespace);
        index[path] = { namespace, methods: [...methods] };
      }
      return {
        name: options.config.shop.name,
        description: options.config.shop.tagline,
        url: origin,
        home: `${origin}/`,
        namespaces: [...namespaces].sort(),
        routes: index,
      };
    });

    await app.register(async function restRoutes(scope) {
      await registerRestRoutes(scope, options);
    });
  },
  { name: 'shop-rest', fastify: '5.x', dependencies: ['shop-session', 'shop-ajax'] },
);

async function registerRestRoutes(
  app: FastifyInstance,
  { config, repositories, dataDir }: RestPluginOptions,
) {
  const uploadsDir = join(dataDir, 'uploads');
  const maxUploadBytes = config.rest.maxUploadBytes;
  mkdirSync(uploadsDir, { recursive: true });

  // Encapsulated: these parsers apply to this plugin's routes only.
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser(
    'application/json',
    { parseAs: 'string' },
    function parseRestJson(_request, body, done) {
      const text = String(body);
      if (text.trim() === '') return done(null, undefined);
      try {
        done(null, JSON.parse(text));
      } catch {
        done(new ShopError('rest_invalid_json', 'Invalid JSON body passed.'), undefined);
      }
    },
  );
  // Raw-body uploads (`Content-Type: image/jpeg` + `Content-Disposition`), capped without buffering the excess.
  app.addContentTypeParser('*', function collectRawBody(request, payload, done) {
    if (Number(request.headers['content-length'] ?? 0) > maxUploadBytes) {
      payload.resume();
      return done(tooBig(maxUploadBytes), undefined);
    }
    const chunks: Buffer[] = [];
    let size = 0;
    function onData(chunk: Buffer) {
      size += chunk.length;
      if (size > maxUploadBytes) {
        payload.removeListener('data', onData);
        payload.removeListener('end', onEnd);
        payload.resume();
        done(tooBig(maxUploadBytes), undefined);
        return;
      }
      chunks.push(chunk);
    }
    function onEnd() {
      done(null, Buffer.concat(chunks));
    }
    payload.on('data', onData);
    payload.once('end', onEnd);
    payload.once('error', (error) => done(error, undefined));
  });
  await app.register(multipart);

  await app.register(fastifyStatic, {
    root: uploadsDir,
    prefix: UPLOADS_URL,
    decorateReply: false,
    index: false,
    // The folder only ever holds images whose type was sniffed from their bytes; never let a browser guess.
    setHeaders: (response) => response.setHeader('X-Content-Type-Options', 'nosniff'),
  });

  const library = new MediaLibrary({
    uploadsDir,
    media: repositories.media,
    faults: config.server.testFaults,
  });
  registerPostRoutes(app, repositories);
  registerReviewRoutes(app, repositories);
  registerMediaRoutes(app, { repositories, library, maxUploadBytes });
  registerComingSoonRoute(app, repositories);
}
