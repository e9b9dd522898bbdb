import type { FastifyRequest } from 'fastify';
import type { ThemePageState } from '../../client/theme/Layout';
import { isStoreNoticeDismissed } from '../../client/theme/storeNoticeCookie';
import type { PageSettings } from '../../shared/settings/settingsSchema';
import type { Repositories } from '../db/ports';
import type { PageDocument } from '../render/renderPage';
import { isComingSoonBannerDismissed } from '../rest/comingSoonBanner';

/**
 * What the theme's frame needs to know about this visitor and page, decided on the server so a dismissed
 * banner never flashes. The coming-soon dismissal is stored by the REST route (`wp/v2/users/me`); it is looked up
 * only while the banner is on, so other pages cost no extra read.
 */
export async function themePageState(
  request: FastifyRequest,
  settings: PageSettings,
  page: PageDocument,
  repositories: Repositories,
): Promise<ThemePageState> {
  return {
    storeNoticeDismissed: isStoreNoticeDismissed(request.cookies, settings.theme.storeNotice.id),
    comingSoonDismissed:
      settings.theme.comingSoon.enabled && (await isComingSoonBannerDismissed(request, repositories)),
    objectId: page.objectId ?? null,
  };
}
