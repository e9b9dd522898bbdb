import type { FastifyRequest } from 'fastify';
import type { ThemePageState } from '../../client/theme/Layout';
import { isStoreNoticeDismissed } from '../../client/theme/storeNoticeCookie';
import type { PageSettings } from '../../shared/settings/settingsSchema';
import type { Repositories } from '../db/repositories';
import type { PageDocument } from '../render/renderPage';

/**
 * What the theme's frame needs to know about this visitor and page, decided on the server so a dismissed
 * banner never flashes. The coming-soon dismissal is stored by the REST route (`wp/v2/users/me`, issue of the
 * REST API); until that route is wired in here, the banner shows whenever `theme.comingSoon.enabled` is on.
 */
export async function themePageState(
  request: FastifyRequest,
  settings: PageSettings,
  page: PageDocument,
  _repositories: Repositories,
): Promise<ThemePageState> {
  return {
    storeNoticeDismissed: isStoreNoticeDismissed(request.cookies, settings.theme.storeNotice.id),
    comingSoonDismissed: false,
    objectId: page.objectId ?? null,
  };
}
