import { serializeJsonLd } from '../../shared/structuredData/jsonLd';

/** schema.org structured data for search engines; the JSON is escaped for a script element (serializeJsonLd). */
export function JsonLd({ data }: { data: unknown }) {
  return (
    <script
      type="application/ld+json"
      // biome-ignore lint/security/noDangerouslySetInnerHtml: serializeJsonLd escapes <, > and & inside the JSON
      dangerouslySetInnerHTML={{ __html: serializeJsonLd(data) }}
    />
  );
}
