import { type CurrencyFormat, formatMoney } from '../../shared/money/formatMoney';

/** One facet as the server counted it (the shape of src/server/search/facets' FacetCounts). */
export interface FacetView {
  key: string;
  param: string;
  label: string;
  values: {
    value: string;
    label: string;
    count: number;
    selected: boolean;
    depth?: number;
    min?: number;
    max?: number;
  }[];
}

export interface FacetFiltersProps {
  facets: FacetView[];
  /** Where the form sends the shopper (the listing's first page). */
  action: string;
  /** Parameters the form keeps (the search text, the ordering). */
  hidden: Record<string, string>;
  /** The listing without any filter. */
  clearUrl: string;
  /** A price range the URL chose that is none of the offered ranges (`min-max` in minor units). */
  customPrice: { min: number | null; max: number | null } | null;
  currency: CurrencyFormat;
}

const idOf = (key: string, value: string) => `facet-${key}-${value}`.replace(/[^A-Za-z0-9_-]/g, '_');

/**
 * The filters of a listing: a plain GET form (works without JavaScript through its button), one fieldset of
 * checkboxes per facet, each label with its count; the whole panel is a disclosure that phones start closed
 * (startFacetFilters). A value nobody could find is left out unless chosen, so it can be unchosen.
 */
export function FacetFilters(props: FacetFiltersProps) {
  const chosen = props.facets.reduce(
    (sum, facet) => sum + facet.values.filter((value) => value.selected).length,
    0,
  );
  const anyPriceChosen =
    props.customPrice !== null ||
    props.facets.some((f) => f.key === 'price' && f.values.some((v) => v.selected));
  const money = (minor: number) => formatMoney(minor, props.currency);
  return (
    <details className="facet-panel" open data-facet-panel="">
      <summary className="facet-panel-summary">
        Filters{chosen > 0 ? <span className="facet-chosen"> ({chosen} chosen)</span> : null}
      </summary>
      <form className="facet-filters" method="get" action={props.action} aria-label="Filter products">
        <div data-facet-fields="">
          {Object.entries(props.hidden).map(([name, value]) => (
            <input key={name} type="hidden" name={name} value={value} />
          ))}
          {props.facets.map((facet) => {
            if (facet.key === 'price') {
              const ranges = facet.values.filter((value) => value.count > 0 || value.selected);
              if (ranges.length === 0 && !props.customPrice) return null;
              return (
                <fieldset key={facet.key} className="facet" data-facet={facet.key}>
                  <legend>{facet.label}</legend>
                  <ul className="facet-values">
                    <li>
                      <input
                        type="radio"
                        id={idOf(facet.key, 'any')}
                        name="price_range"
                        value=""
                        defaultChecked={!anyPriceChosen}
                      />
                      <label htmlFor={idOf(facet.key, 'any')}>Any price</label>
                    </li>
                    {props.customPrice ? (
                      <li>
                        <input
                          type="radio"
                          id={idOf(facet.key, 'custom')}
                          name="price_range"
                          value={`${props.customPrice.min ?? ''}-${props.customPrice.max ?? ''}`}
                          defaultChecked
                        />
                        <label htmlFor={idOf(facet.key, 'custom')}>
                          {props.customPrice.max === null
                            ? `${money(props.customPrice.min ?? 0)} and up`
                            : `${money(props.customPrice.min ?? 0)} – ${money(props.customPrice.max)}`}
                        </label>
                      </li>
                    ) : null}
                    {ranges.map((range) => (
                      <li key={range.value}>
                        <input
                          type="radio"
                          id={idOf(facet.key, range.value)}
                          name="price_range"
                          value={range.value}
                          defaultChecked={range.selected}
                        />
                        <label htmlFor={idOf(facet.key, range.value)}>
                          {money(range.min ?? 0)} – {money(range.max ?? 0)} <Count count={range.count} />
                        </label>
                      </li>
                    ))}
                  </ul>
                </fieldset>
              );
            }
            const values = facet.values.filter((value) => value.count > 0 || value.selected);
            if (values.length === 0) return null;
            return (
              <fieldset key={facet.key} className="facet" data-facet={facet.key}>
                <legend>{facet.label}</legend>
                <ul className="facet-values">
                  {values.map((value) => (
                    <li
                      key={value.value}
                      className={value.depth ? `facet-depth-${Math.min(value.depth, 4)}` : undefined}
                    >
                      <input
                        type="checkbox"
                        id={idOf(facet.key, value.value)}
                        name={facet.param}
                        value={value.value}
                        defaultChecked={value.selected}
                      />
                      <label htmlFor={idOf(facet.key, value.value)}>
                        {value.label} <Count count={value.count} />
                      </label>
                    </li>
                  ))}
                </ul>
              </fieldset>
            );
          })}
          <div className="facet-actions">
            <button type="submit" className="button">
              Apply filters
            </button>
            {chosen > 0 || props.customPrice ? (
              <a className="facet-clear" href={props.clearUrl}>
                Clear filters
              </a>
            ) : null}
          </div>
        </div>
        <p
          className="facet-status screen-reader-text"
          role="status"
          aria-live="polite"
          data-facet-status=""
        />
      </form>
    </details>
  );
}

function Count({ count }: { count: number }) {
  return (
    <span className="facet-count">
      <span aria-hidden="true">({count})</span>
      <span className="screen-reader-text">, {count === 1 ? '1 product' : `${count} products`}</span>
    </span>
  );
}
