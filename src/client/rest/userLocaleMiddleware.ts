import { addQueryArgs, getQueryArg } from './queryArgs';
import type { RestMiddleware } from './restTypes';

/** As api-fetch does, every request asks for the user's locale (`_locale=user`) unless it names one. */
export const userLocaleMiddleware: RestMiddleware = function userLocaleMiddleware(options, next) {
  const withLocale = (target: string | undefined) =>
    target !== undefined && getQueryArg(target, '_locale') === null
      ? addQueryArgs(target, { _locale: 'user' })
      : target;
  return next({ ...options, path: withLocale(options.path), url: withLocale(options.url) });
};
