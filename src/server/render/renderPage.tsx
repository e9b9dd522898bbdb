import type { ReactNode } from 'react';
import { renderToString } from 'react-dom/server';
import { type CardMarkup, CardMarkupContext } from '../../client/catalog/ProductCard';
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

/** Each settings section's JSON, by the section object: most are the shop's own for the life of the process. */
const serializedSections = new WeakMap<object, string>();

/**
 * The page's settings as `serializeJsonForScript` writes them, each section serialized once per section object:
 * a page's settings are the shop's (made once, never changed) with a few sections of its own (nonces, the
 * statistics hit), so only those are serialized on each page. The same bytes as serializing the whole.
 */
export function serializeSettingsForScript(settings: PageSettings): string {
  const sections: string[] = [];
  for (const [key, value] of Object.entries(settings)) {
    if (value === undefined) continue;
    let json = typeof value === 'object' && value !== null ? serializedSections.get(value) : undefined;
    if (json === undefined) {
      json = serializeJsonForScript(value);
      if (typeof value === 'object' && value !== null) serializedSections.set(value, json);
    }
    sections.push(`${serializeJsonForScript(key)}:${json}`);
  }
  return `{${sections.join(',')}}`;
}

/**
 * Renders a whole page: the document, the theme's layout, the page body and the settings islands read. `cardMarkup`
 * hands out product cards rendered before (cardMarkup.tsx); without it every card is rendered here.
 */
export function renderPage(
  page: PageDocument,
  layout: Omit<LayoutProps, 'children'>,
  settings: PageSettings,
  assets: ClientAssets,
  cardMarkup: CardMarkup | null = null,
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
          <CardMarkupContext value={cardMarkup}>
            <Layout {...layout}>{page.body}</Layout>
          </CardMarkupContext>
        </ShopSettingsContext>
        <script
          id="shop-settings"
          type="application/json"
          // biome-ignore lint/security/noDangerouslySetInnerHtml: serialized JSON with `<` escaped
          dangerouslySetInnerHTML={{ __html: serializeSettingsForScript(settings) }}
        />
      </body>
    </html>,
  );
  return `<!doctype html>${html}`;
}
