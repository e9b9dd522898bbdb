import type { MouseEvent } from 'react';
import type { PageSettings } from '../../shared/settings/settingsSchema';
import { stripTags } from './core/normalizeQuery';
import type { Suggestion } from './core/suggestionTypes';
import { Highlighted } from './Highlighted';
import { Html } from './Html';

type SearchSettings = PageSettings['search'];

function HistoryIcon({ icons }: { icons: SearchSettings['icons'] }) {
  return <Html html={icons.history} className="shop-search__thumb shop-search__thumb--icon" />;
}

function Thumbnail({
  suggestion,
  settings,
  inHistory,
}: {
  suggestion: Suggestion;
  settings: SearchSettings;
  inHistory: boolean;
}) {
  // A recent product saved while images were off carries the history icon in place of its picture.
  if (!settings.show.images) return inHistory ? <HistoryIcon icons={settings.icons} /> : null;
  if (suggestion.thumb_html) return <Html html={suggestion.thumb_html} className="shop-search__thumb" />;
  const src = suggestion.image || suggestion.image_src;
  if (!src) return null;
  return (
    <span className="shop-search__thumb">
      <img src={src} alt="" width={48} height={48} loading="lazy" />
    </span>
  );
}

function VendorLine({ suggestion, settings }: { suggestion: Suggestion; settings: SearchSettings }) {
  if (!settings.show.vendor || !suggestion.vendor) return null;
  // An option must not contain a link (axe nested-interactive), so the vendor name navigates on click itself.
  const onClick = (event: MouseEvent) => {
    const url = suggestion.vendor_url;
    if (!url || !(url.startsWith('/') || /^https?:\/\//.test(url))) return;
    event.stopPropagation();
    window.location.assign(url);
  };
  return (
    <span className="shop-search__vendor">
      {settings.labels.soldBy}{' '}
      {/* biome-ignore lint/a11y/useKeyWithClickEvents: the option itself is the keyboard target; this is a pointer shortcut */}
      {/* biome-ignore lint/a11y/noStaticElementInteractions: an option must not contain a link (axe nested-interactive) */}
      <span className="shop-search__vendor-name" data-url={suggestion.vendor_url} onClick={onClick}>
        {suggestion.vendor}
      </span>
      {suggestion.shop_city ? (
        <span className="shop-search__vendor-city">, {suggestion.shop_city}</span>
      ) : null}
    </span>
  );
}

/** The inside of one suggestion, by type, honouring every `search.show` switch. */
/** The count in "See all products (…)": "N+" when the server counted only until the answer was certain. */
export function showMoreCount(suggestion: Pick<Suggestion, 'total' | 'total_is_lower_bound'>): string {
  if (suggestion.total === undefined) return '';
  return suggestion.total_is_lower_bound ? `${suggestion.total}+` : String(suggestion.total);
}

export function SuggestionContent({
  suggestion,
  query,
  settings,
  price,
  inHistory = false,
}: {
  suggestion: Suggestion;
  query: string;
  settings: SearchSettings;
  price: string | undefined;
  /** Shown in the history view (recent searches), not as an answer to a query. */
  inHistory?: boolean;
}) {
  const { show, labels } = settings;
  switch (suggestion.type) {
    case 'more_products':
      return (
        <span className="shop-search__more">{labels.showMore.replace('%s', showMoreCount(suggestion))}</span>
      );
    case 'history-search':
      return (
        <>
          <HistoryIcon icons={settings.icons} />
          <span className="shop-search__title">{stripTags(suggestion.value)}</span>
        </>
      );
    case 'taxonomy':
      return (
        <>
          <Thumbnail suggestion={suggestion} settings={settings} inHistory={inHistory} />
          <span className="shop-search__body">
            <span className="shop-search__title">
              {suggestion.breadcrumbs ? (
                <span className="shop-search__breadcrumbs">{stripTags(suggestion.breadcrumbs)} › </span>
              ) : null}
              <Highlighted text={suggestion.value} query={query} />
            </span>
          </span>
        </>
      );
    case 'vendor':
      return (
        <>
          <Thumbnail suggestion={suggestion} settings={settings} inHistory={inHistory} />
          <span className="shop-search__body">
            <span className="shop-search__title">
              <Highlighted text={suggestion.value} query={query} />
            </span>
            {suggestion.shop_city ? <span className="shop-search__meta">{suggestion.shop_city}</span> : null}
            {show.description && suggestion.desc ? (
              <span className="shop-search__desc">{stripTags(suggestion.desc)}</span>
            ) : null}
          </span>
        </>
      );
    case 'post':
      return (
        <span className="shop-search__body">
          <span className="shop-search__title">
            <Highlighted text={suggestion.value} query={query} />
          </span>
        </span>
      );
    default:
      return (
        <>
          <Thumbnail suggestion={suggestion} settings={settings} inHistory={inHistory} />
          <span className="shop-search__body">
            <Html html={suggestion.meta_before} className="shop-search__slot" />
            <span className="shop-search__title">
              <Html html={suggestion.title_before} className="shop-search__slot" />
              <Highlighted text={suggestion.value} query={query} />
              <Html html={suggestion.title_after} className="shop-search__slot" />
              {show.saleBadge && suggestion.on_sale ? <Badge kind="sale" label={labels.sale} /> : null}
              {show.featuredBadge && suggestion.featured ? (
                <Badge kind="featured" label={labels.featured} />
              ) : null}
            </span>
            <SuggestionRating suggestion={suggestion} />
            {show.sku && suggestion.sku ? (
              <span className="shop-search__sku">
                {labels.sku} <Highlighted text={suggestion.sku} query={query} />
              </span>
            ) : null}
            {show.description && suggestion.desc ? (
              <span className="shop-search__desc">{stripTags(suggestion.desc)}</span>
            ) : null}
            <VendorLine suggestion={suggestion} settings={settings} />
            <Html html={suggestion.meta_after} className="shop-search__slot" />
            <Html html={suggestion.content_after} className="shop-search__slot" />
          </span>
          {show.price && price ? <Html html={price} className="shop-search__price" /> : null}
        </>
      );
  }
}

/**
 * A product's stars and count under its name. As with the badges, the option's accessible name gets words of their
 * own (", rated 4.5 out of 5 from 3 reviews") and the drawn stars and "(3)" are hidden from screen readers.
 */
function SuggestionRating({ suggestion }: { suggestion: Suggestion }) {
  const { rating, rating_count: count } = suggestion;
  if (rating === undefined || !count) return null;
  const average = rating.toFixed(1);
  return (
    <span className="shop-search__rating" data-rating={average} data-rating-count={count}>
      <span className="shop-search__badge-words">
        , rated {average} out of 5 from {count} {count === 1 ? 'review' : 'reviews'}
      </span>
      <span aria-hidden="true">
        <span className="star-rating">
          <span className="star-rating__fill" style={{ width: `${(rating / 5) * 100}%` }} />
        </span>{' '}
        {average} ({count})
      </span>
    </span>
  );
}

/**
 * A badge after the name. The option's accessible name joins its text as laid out and takes the badge's uppercase
 * styling, so screen readers get words of their own, ", featured", in an inline span of no size (a hidden span
 * taken out of the line would read " , featured"), and the drawn badge is hidden from them: "Sunglasses, featured",
 * not "SunglassesFEATURED".
 */
function Badge({ kind, label }: { kind: 'sale' | 'featured'; label: string }) {
  return (
    <>
      <span className="shop-search__badge-words">, {label}</span>
      <span className={`shop-search__badge shop-search__badge--${kind}`} aria-hidden="true">
        {label}
      </span>
    </>
  );
}
