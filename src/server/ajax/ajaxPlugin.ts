import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { z } from 'zod';
import { ShopError } from '../../shared/errors/ShopError';
import { parseInput } from '../http/parseInput';
import { queryAndBody } from '../http/requestFields';

/*
 * The two ajax dispatchers WooCommerce's and WordPress's scripts call: WooCommerce's `/?wc-ajax={name}` and the
 * site's `/ajax` with `action=…` (WordPress's admin-ajax). This plugin owns both routes; features register handlers by name with their zod schema, so no two
 * plugins ever fight over `/`.
 */

export interface AjaxHandler<Schema extends z.ZodType> {
  schema: Schema;
  methods: ('GET' | 'POST')[];
  handle(input: z.output<Schema>, request: FastifyRequest, reply: FastifyReply): Promise<unknown>;
}

export interface AjaxRegistry {
  wcAjax<Schema extends z.ZodType>(name: string, handler: AjaxHandler<Schema>): void;
  siteAjax<Schema extends z.ZodType>(action: string, handler: AjaxHandler<Schema>): void;
}

declare module 'fastify' {
  interface FastifyInstance {
    ajax: AjaxRegistry;
  }
}

/** Where `app.ts` rewrites `/?wc-ajax=name` to, so the dispatcher is an ordinary route. */
export const WC_AJAX_PATH = '/wc-ajax/';

export function rewriteWcAjaxUrl(url: string): string {
  const [path, query = ''] = url.split('?', 2) as [string, string?];
  if (path !== '/' || !query.includes('wc-ajax=')) return url;
  const params = new URLSearchParams(query);
  const name = params.get('wc-ajax') ?? '';
  params.delete('wc-ajax');
  const rest = params.toString();
  return `${WC_AJAX_PATH}${encodeURIComponent(name)}${rest ? `?${rest}` : ''}`;
}

// biome-ignore lint/suspicious/noExplicitAny: handlers of every schema live in one map
type AnyHandler = AjaxHandler<any>;

export const ajaxPlugin = fp(
  async function ajaxPlugin(app: FastifyInstance) {
    const wcHandlers = new Map<string, AnyHandler>();
    const siteHandlers = new Map<string, AnyHandler>();
    const register = (map: Map<string, AnyHandler>, kind: string) => (name: string, handler: AnyHandler) => {
      if (map.has(name)) throw new Error(`${kind} handler "${name}" is registered twice`);
      map.set(name, handler);
    };
    app.decorate('ajax', {
      wcAjax: register(wcHandlers, 'wc-ajax'),
      siteAjax: register(siteHandlers, 'ajax'),
    } satisfies AjaxRegistry);

    async function dispatch(
      handler: AnyHandler | undefined,
      name: string,
      request: FastifyRequest,
      reply: FastifyReply,
    ) {
      if (!handler?.methods.includes(request.method as 'GET' | 'POST')) {
        // The name is the caller's own input: echoed only when it looks like a name, since clients may show
        // an error message as markup.
        const shown = /^[\w-]{1,64}$/.test(name) ? ` "${name}"` : '';
        throw new ShopError('invalid_request', `Unknown ajax action${shown} for ${request.method}`);
      }
      const input = parseInput(
        handler.schema,
        parseInput(queryAndBody, { query: request.query, body: request.body }),
      );
      reply.header('cache-control', 'no-store');
      return handler.handle(input, request, reply);
    }

    const wcParams = z.object({ name: z.string() });
    app.route({
      method: ['GET', 'POST'],
      url: `${WC_AJAX_PATH}:name`,
      handler: async function wcAjaxDispatcher(request, reply) {
        const { name } = parseInput(wcParams, request.params);
        return dispatch(wcHandlers.get(name), name, request, reply);
      },
    });
    const siteAction = z.object({ action: z.string().min(1, 'Missing action') });
    app.route({
      method: ['GET', 'POST'],
      url: '/ajax',
      handler: async function siteAjaxDispatcher(request, reply) {
        const { action } = parseInput(
          siteAction,
          parseInput(queryAndBody, { query: request.query, body: request.body }),
        );
        return dispatch(siteHandlers.get(action), action, request, reply);
      },
    });
  },
  { name: 'shop-ajax', fastify: '5.x', dependencies: ['shop-session'] },
);
