import type { ReactElement, ReactNode } from 'react';
import {
  FIGURE_DEFINITIONS,
  type FigureId,
  sourceTypeWords,
  sourceWords,
} from '../../shared/insights/figureDefinitions';
import type {
  InsightsRange,
  SearchesPanel,
  SourceSortKey,
  SourcesPanel,
  VisitorsPanel,
} from '../../shared/insights/insightsTypes';
import { pageTotals } from '../../shared/insights/pageTotals';
import { type CurrencyFormat, formatMoney } from '../../shared/money/formatMoney';
import { Island } from '../Island';
import InsightsChart from './InsightsChart';

interface InsightsPageProps {
  range: InsightsRange;
  /** The range's query string, kept by every link and export. */
  search: string;
  visitors: VisitorsPanel;
  sources: SourcesPanel;
  sort: { key: SourceSortKey; dir: 'asc' | 'desc' };
  currency: CurrencyFormat;
  searches: SearchesPanel;
  synonymNonce: string;
  logoutNonce: string;
}

const PRESETS = [
  { value: '7', label: 'Last 7 days' },
  { value: '30', label: 'Last 30 days' },
  { value: '90', label: 'Last 90 days' },
] as const;

const SOURCE_COLUMNS: { key: SourceSortKey; label: string; numeric: boolean }[] = [
  { key: 'sourceType', label: 'Source type', numeric: false },
  { key: 'source', label: 'Source', numeric: false },
  { key: 'visitors', label: 'Visitors', numeric: true },
  { key: 'buyers', label: 'Buyers', numeric: true },
  { key: 'orders', label: 'Orders', numeric: true },
  { key: 'revenue', label: 'Revenue', numeric: true },
  { key: 'conversionRate', label: 'Conversion', numeric: true },
];

/**
 * The owner's insights: server-rendered tables (the text alternative of every chart), charts hydrated
 * as islands, one date range for every panel kept in the URL.
 */
export function InsightsPage({
  range,
  search,
  visitors,
  sources,
  searches,
  sort,
  currency,
  synonymNonce,
  logoutNonce,
}: InsightsPageProps) {
  const days = visitors.daily.map((row) => row.day);
  const totals = pageTotals(visitors, sources);
  const sourceTypes = [...new Set(sources.daily.map((row) => row.sourceType))].sort();
  const revenueSeries = sourceTypes.map((type) => ({
    label: sourceTypeWords(type),
    values: days.map((day) =>
      sources.daily
        .filter((row) => row.day === day && row.sourceType === type)
        .reduce((sum, row) => sum + row.revenue / 10 ** currency.decimals, 0),
    ),
  }));
  const exportLink = (table: string, label: string) => (
    <a className="insights-export" href={`/insights/export/${table}.csv?${search}`} download>
      CSV<span className="screen-reader-text"> of {label}</span>
    </a>
  );

  return (
    <div className="insights">
      <header className="insights__head">
        <h1>Insights</h1>
        <form method="post" action="/insights/logout" className="insights__logout">
          <input type="hidden" name="_wpnonce" value={logoutNonce} />
          <button type="submit">Log out</button>
          <button type="submit" name="everywhere" value="1">
            Log out everywhere
          </button>
        </form>
      </header>

      <nav aria-label="Date range" className="insights-range">
        <ul>
          {PRESETS.map((preset) => (
            <li key={preset.value}>
              <a
                href={`/insights/?range=${preset.value}`}
                aria-current={range.preset === preset.value ? 'page' : undefined}
              >
                {preset.label}
              </a>
            </li>
          ))}
        </ul>
        <form method="get" action="/insights/" className="insights-range__custom">
          <input type="hidden" name="range" value="custom" />
          <label htmlFor="insights-from">From</label>
          <input id="insights-from" type="date" name="from" defaultValue={range.from} required />
          <label htmlFor="insights-to">To</label>
          <input id="insights-to" type="date" name="to" defaultValue={range.to} required />
          <button type="submit">Show</button>
        </form>
        <p className="insights-range__current">
          {range.from} – {range.to}
        </p>
      </nav>

      <section aria-labelledby="insights-visitors" className="insights-panel" id="visitors">
        <h2 id="insights-visitors">Visitors</h2>
        <dl className="insights-figures">
          <Figure label="Visitors" value={totals.visitors} define="visitor" />
          <Figure label="Page views" value={totals.views} define="page-view" />
          <Figure label="Online now" value={visitors.online} />
        </dl>
        <Island
          name="insightsChart"
          component={InsightsChart}
          props={{
            title: 'Visitors and page views per day',
            days,
            series: [
              { label: 'Visitors', values: visitors.daily.map((row) => row.visitors) },
              { label: 'Page views', values: visitors.daily.map((row) => row.views) },
            ],
          }}
        />
        <Table
          caption="Visitors and page views per day"
          exportLink={exportLink('daily', 'visitors per day')}
          columns={['Day', 'Visitors', 'Page views']}
          numeric={[false, true, true]}
          rows={visitors.daily.map((row) => [row.day, row.visitors, row.views])}
          collapsed
        />
        <div className="insights-grid">
          <CountTable
            caption="Top pages"
            head="Page"
            rows={visitors.topPages}
            exportLink={exportLink('pages', 'top pages')}
          />
          <CountTable
            caption="Top referrers"
            head="Referrer"
            rows={visitors.topReferrers}
            exportLink={exportLink('referrers', 'top referrers')}
          />
          <CountTable
            caption="Downloads"
            head="File"
            rows={visitors.downloads}
            exportLink={exportLink('downloads', 'downloads')}
          />
          <CountTable
            caption="Outbound links"
            head="Link"
            rows={visitors.outboundLinks}
            exportLink={exportLink('outbound', 'outbound links')}
          />
          <CountTable
            caption="Devices"
            head="Device"
            rows={visitors.devices}
            exportLink={exportLink('devices', 'devices')}
          />
        </div>
      </section>

      <section aria-labelledby="insights-sources" className="insights-panel" id="sources">
        <h2 id="insights-sources">Sources and revenue</h2>
        <dl className="insights-figures">
          <Figure label="Orders" value={totals.orders} define="orders" />
          <Figure label="Revenue" value={formatMoney(totals.revenue, currency)} define="revenue" />
          <Figure label="Conversion" value={rate(totals.conversionRate)} define="conversion" />
          <Figure label="Unattributed orders" value={sources.unattributed.orders} define="unattributed" />
        </dl>
        {revenueSeries.length > 0 && (
          <Island
            name="insightsChart"
            component={InsightsChart}
            props={{ title: 'Revenue by source type per day', days, series: revenueSeries }}
          />
        )}
        <div className="insights-table">
          <table>
            <caption>
              Visitors, buyers, orders and revenue by source <DefineLink id="source" label="Source" />{' '}
              {exportLink('sources', 'sources and revenue')}
            </caption>
            <thead>
              <tr>
                {SOURCE_COLUMNS.map((column) => {
                  const active = sort.key === column.key;
                  const next = active && sort.dir === 'desc' ? 'asc' : 'desc';
                  return (
                    <th
                      key={column.key}
                      scope="col"
                      className={column.numeric ? 'num' : undefined}
                      aria-sort={active ? (sort.dir === 'asc' ? 'ascending' : 'descending') : undefined}
                    >
                      <a href={`/insights/?${search}&sort=${column.key}&dir=${next}#sources`}>
                        {column.label}
                        {active ? (sort.dir === 'asc' ? ' ▲' : ' ▼') : ''}
                      </a>
                    </th>
                  );
                })}
              </tr>
            </thead>
            <tbody>
              {sources.rows.length === 0 && sources.unattributed.orders === 0 && (
                <tr>
                  <td colSpan={SOURCE_COLUMNS.length}>No orders or visitors in this range.</td>
                </tr>
              )}
              {sources.rows.map((row) => (
                <tr key={`${row.sourceType}|${row.source}`}>
                  <td>
                    <Words raw={row.sourceType} words={sourceTypeWords(row.sourceType)} />
                  </td>
                  <td>
                    <Words raw={row.source} words={sourceWords(row.source)} />
                  </td>
                  <td className="num">{row.visitors}</td>
                  <td className="num">{row.buyers}</td>
                  <td className="num">{row.orders}</td>
                  <td className="num">{formatMoney(row.revenue, currency)}</td>
                  <td className="num">{rate(row.conversionRate)}</td>
                </tr>
              ))}
              {sources.unattributed.orders > 0 && (
                <tr>
                  <td>Unattributed</td>
                  <td>Visit not recorded</td>
                  <td className="num">–</td>
                  <td className="num">–</td>
                  <td className="num">{sources.unattributed.orders}</td>
                  <td className="num">{formatMoney(sources.unattributed.revenue, currency)}</td>
                  <td className="num">–</td>
                </tr>
              )}
            </tbody>
            <tfoot>
              <tr>
                <th scope="row" colSpan={2}>
                  Total
                </th>
                <td className="num">{totals.sourceVisitors}</td>
                <td className="num">{totals.buyers}</td>
                <td className="num">{totals.orders}</td>
                <td className="num">{formatMoney(totals.revenue, currency)}</td>
                <td className="num">{rate(totals.conversionRate)}</td>
              </tr>
            </tfoot>
          </table>
        </div>
        <Table
          caption="Orders and revenue by campaign, as the checkout recorded it"
          exportLink={exportLink('campaigns', 'orders by campaign')}
          columns={['Source type', 'Source', 'Medium', 'Campaign', 'Orders', 'Revenue']}
          numeric={[false, false, false, false, true, true]}
          rows={sources.campaigns.map((row) => [
            <Words key="type" raw={row.sourceType} words={sourceTypeWords(row.sourceType)} />,
            <Words key="source" raw={row.source} words={sourceWords(row.source)} />,
            row.medium,
            row.campaign,
            row.orders,
            formatMoney(row.revenue, currency),
          ])}
        />
        <Table
          caption="Revenue by source type per day"
          exportLink={exportLink('revenue-daily', 'revenue per day')}
          columns={['Day', 'Source type', 'Revenue']}
          numeric={[false, false, true]}
          rows={sources.daily.map((row) => [
            row.day,
            <Words key="type" raw={row.sourceType} words={sourceTypeWords(row.sourceType)} />,
            formatMoney(row.revenue, currency),
          ])}
          collapsed
        />
      </section>

      <section aria-labelledby="insights-searches" className="insights-panel" id="searches">
        <h2 id="insights-searches">Searches</h2>
        <div className="insights-table">
          <table>
            <caption>
              Zero-result searches (inbox) {exportLink('zero-results', 'zero-result searches')}
            </caption>
            <thead>
              <tr>
                <th scope="col">Query</th>
                <th scope="col" className="num">
                  Searches
                </th>
                <th scope="col">Last seen</th>
                <th scope="col">Add a synonym</th>
              </tr>
            </thead>
            <tbody>
              {searches.zeroResults.length === 0 && (
                <tr>
                  <td colSpan={4}>Every search in this range found something.</td>
                </tr>
              )}
              {searches.zeroResults.map((row, index) => (
                <tr key={row.query}>
                  <td>{row.query}</td>
                  <td className="num">{row.count}</td>
                  <td>{new Date(row.lastSeen).toISOString().slice(0, 16).replace('T', ' ')}</td>
                  <td>
                    <form method="post" action="/insights/synonym" className="insights-synonym">
                      <input type="hidden" name="query" value={row.query} />
                      <input type="hidden" name="range" value={range.preset} />
                      {range.preset === 'custom' && <input type="hidden" name="from" value={range.from} />}
                      {range.preset === 'custom' && <input type="hidden" name="to" value={range.to} />}
                      <input type="hidden" name="_wpnonce" value={synonymNonce} />
                      <label htmlFor={`insights-synonym-${index}`} className="screen-reader-text">
                        A word that finds products, for “{row.query}”
                      </label>
                      <input
                        id={`insights-synonym-${index}`}
                        name="synonym"
                        type="text"
                        required
                        placeholder="e.g. hoodie"
                      />
                      <button type="submit">
                        Add synonym<span className="screen-reader-text"> for “{row.query}”</span>
                      </button>
                    </form>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
        <div className="insights-grid">
          <Table
            caption="Top searches"
            exportLink={exportLink('searches', 'top searches')}
            columns={['Query', 'Searches', 'Results']}
            numeric={[false, true, true]}
            rows={searches.top.map((row) => [row.query, row.count, row.results])}
          />
          <Table
            caption="Searches that led to a purchase"
            define={{ id: 'purchased-search', label: 'Search that led to a purchase' }}
            exportLink={exportLink('purchased-searches', 'searches that led to a purchase')}
            columns={['Query', 'Orders']}
            numeric={[false, true]}
            rows={searches.purchased.map((row) => [row.query, row.orders])}
          />
        </div>
      </section>

      <section aria-labelledby="insights-definitions" className="insights-panel" id="definitions">
        <h2 id="insights-definitions">What the figures mean</h2>
        <dl className="insights-definitions">
          {FIGURE_DEFINITIONS.map((definition) => (
            <div key={definition.id} id={`define-${definition.id}`} tabIndex={-1}>
              <dt>{definition.term}</dt>
              <dd>{definition.text}</dd>
            </div>
          ))}
        </dl>
      </section>
    </div>
  );
}

/** A "?" that leads to a figure's definition (in the page, so it works without JavaScript and in print). */
function DefineLink({ id, label }: { id: FigureId; label: string }) {
  return (
    <a className="insights-define" href={`#define-${id}`}>
      ?<span className="screen-reader-text"> What “{label}” means</span>
    </a>
  );
}

/** A cell's identity for React: its text, or the recorded value it shows in words. */
function cellKey(cell: string | number | ReactElement): string {
  return typeof cell === 'object' ? String((cell.props as { raw?: string }).raw ?? '') : String(cell);
}

/** A recorded value in words, the recorded value in a tooltip for the curious. */
function Words({ raw, words }: { raw: string; words: string }) {
  return words === raw ? <>{raw}</> : <span title={raw}>{words}</span>;
}

const rate = (value: number | null) => (value === null ? '–' : `${(value * 100).toFixed(1)}%`);

function Figure({ label, value, define }: { label: string; value: number | string; define?: FigureId }) {
  return (
    <div className="insights-figure">
      <dt>
        {label}
        {define && (
          <>
            {' '}
            <DefineLink id={define} label={label} />
          </>
        )}
      </dt>
      <dd>{value}</dd>
    </div>
  );
}

function CountTable({
  caption,
  head,
  rows,
  exportLink,
}: {
  caption: string;
  head: string;
  rows: { label: string; count: number }[];
  exportLink: ReactNode;
}) {
  return (
    <Table
      caption={caption}
      exportLink={exportLink}
      columns={[head, 'Count']}
      numeric={[false, true]}
      rows={rows.map((row) => [row.label, row.count])}
    />
  );
}

function Table({
  caption,
  define,
  exportLink,
  columns,
  numeric,
  rows,
  collapsed = false,
}: {
  caption: string;
  define?: { id: FigureId; label: string };
  exportLink: ReactNode;
  columns: string[];
  numeric: boolean[];
  rows: (string | number | ReactElement)[][];
  collapsed?: boolean;
}) {
  const table = (
    <div className="insights-table">
      <table>
        <caption>
          {caption} {define && <DefineLink id={define.id} label={define.label} />} {exportLink}
        </caption>
        <thead>
          <tr>
            {columns.map((column, index) => (
              <th key={column} scope="col" className={numeric[index] ? 'num' : undefined}>
                {column}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.length === 0 && (
            <tr>
              <td colSpan={columns.length}>Nothing in this range.</td>
            </tr>
          )}
          {rows.map((row) => (
            <tr key={row.map(cellKey).join('\u0000')}>
              {row.map((cell, index) => (
                <td key={columns[index]} className={numeric[index] ? 'num' : undefined}>
                  {cell}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
  // The day-by-day tables are long: folded under the chart they describe, open without JavaScript.
  return collapsed ? (
    <details className="insights-details">
      <summary>Table: {caption}</summary>
      {table}
    </details>
  ) : (
    table
  );
}
