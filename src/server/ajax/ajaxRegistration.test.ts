import Fastify, { type FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { type AjaxHandler, ajaxPlugin, rewriteWcAjaxUrl } from './ajaxPlugin';

/*
 * Handlers are registered by name: two features claiming one name would silently shadow each other, so the app
 * refuses to start instead, naming the handler.
 */

let app: FastifyInstance | null = null;
afterEach(async () => {
  await app?.close();
  app = null;
});

const answering = (answer: string): AjaxHandler<z.ZodType> => ({
  schema: z.looseObject({}),
  methods: ['GET'],
  handle: async () => ({ answer }),
});

/** The ajax plugin starts after the session plugin; these handlers need no visitor. */
const noSessions = fp(async () => {}, { name: 'shop-session' });

/** A tiny shop: the ajax plugin and two features, each registering its handlers. */
async function start(
  first: (app: FastifyInstance) => void,
  second: (app: FastifyInstance) => void,
): Promise<FastifyInstance> {
  app = Fastify({ rewriteUrl: (request) => rewriteWcAjaxUrl(request.url ?? '/') });
  await app.register(noSessions);
  await app.register(ajaxPlugin);
  await app.register(async (feature) => first(feature));
  await app.register(async (feature) => second(feature));
  await app.ready();
  return app;
}

describe('registering ajax handlers', () => {
  it('fails the start when two features register one wc-ajax name', async () => {
    await expect(
      start(
        (feature) => feature.ajax.wcAjax('get_refreshed_fragments', answering('cart')),
        (feature) => feature.ajax.wcAjax('get_refreshed_fragments', answering('theme')),
      ),
    ).rejects.toThrow('wc-ajax handler "get_refreshed_fragments" is registered twice');
  });

  it('fails the start when two features register one /ajax action', async () => {
    await expect(
      start(
        (feature) => feature.ajax.siteAjax('stats_event', answering('stats')),
        (feature) => feature.ajax.siteAjax('stats_event', answering('insights')),
      ),
    ).rejects.toThrow('ajax handler "stats_event" is registered twice');
  });

  it('starts when a name is used once on each dispatcher, and each answers its own', async () => {
    const shop = await start(
      (feature) => feature.ajax.wcAjax('ping', answering('wc-ajax')),
      (feature) => feature.ajax.siteAjax('ping', answering('ajax')),
    );
    expect((await shop.inject('/?wc-ajax=ping')).json()).toEqual({ answer: 'wc-ajax' });
    expect((await shop.inject('/ajax?action=ping')).json()).toEqual({ answer: 'ajax' });
  });
});
