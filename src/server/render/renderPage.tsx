import type { ReactNode } from 'react';
import { renderToString } from 'react-dom/server';
import { ShopSettingsContext } from '../../client/ShopSettingsContext';
import { Layout, type LayoutProps } from '../../client/theme/Layout';
import type { PageSettings } from '../../shared/settings/settingsSchema';
import type { ClientAssets } from './clientAssets';

export interface PageDocument {
  title: string;
  description?: string;
  /** Pages that must never be indexed: cart, checkout, order received, errors. */
  noindex?: boolean;
  canonical?: string;
  /** The product or page this page shows (the theme's element-hiding data is per object). */
  objectId?: number;
  body: ReactNode;
}

/** JSON inside a <script> must not be able to close it: `<` becomes its unicode escape. */
export function serializeJsonForScript(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

/** Renders a whole page: the document, the theme's layout, the page body and the settings islands read. */
export function renderPage(
  page: PageDocument,
  layout: Omit<LayoutProps, 'children'>,
  settings: PageSettings,
  assets: ClientAssets,
): string {
  const html = renderToString(
    <html lang={settings.i18n.locale}>
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>{`${page.title} – ${settings.shop.name}`}</title>
        {page.description && <meta name="description" content={page.description} />}
        {page.noindex && <meta name="robots" content="noindex, nofollow" />}
        {page.canonical && <link rel="canonical" href={page.canonical} />}
        {assets.styles.map((href) => (
          <link key={href} rel="stylesheet" href={href} />
        ))}
        {assets.preloads.map((href) => (
          <link key={href} rel="modulepreload" href={href} />
        ))}
        {assets.scripts.map((src) => (
          <script key={src} type="module" src={src} />
        ))}
      </head>
      <body>
        <ShopSettingsContext value={settings}>
          <Layout {...layout}>{page.body}</Layout>
        </ShopSettingsContext>
        <script
          id="shop-settings"
          type="application/json"
          // biome-ignore lint/security/noDangerouslySetInnerHtml: serialized JSON with `<` escaped
          dangerouslySetInnerHTML={{ __html: serializeJsonForScript(settings) }}
        />
      </body>
    </html>,
  );
  return `<!doctype html>${html}`;
}
