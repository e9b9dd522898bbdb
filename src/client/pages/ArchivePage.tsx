import type { ReactNode } from 'react';
import type { ProductOrdering, ProductSummary } from '../../shared/catalog/types';
import { ProductGrid } from '../catalog/ProductCard';
import { Island } from '../Island';
import OrderingSelect from '../theme/OrderingSelect';
import { Pagination } from '../theme/Pagination';
import { ResultCount } from '../theme/ResultCount';

interface ArchivePageProps {
  title: string;
  description?: string;
  products: ProductSummary[];
  total: number;
  page: number;
  perPage: number;
  orderby: ProductOrdering;
  /** Query parameters the ordering form and pagination keep (a search query). */
  keep: Record<string, string>;
  pageUrl: (page: number) => string;
  emptyMessage: string;
  /** Shown under the title: a search results page's did-you-mean notice. */
  notice?: ReactNode;
  /** The listing's filters (search results and category pages), beside the results. */
  filters?: ReactNode;
}

/** The shop page and every product archive (category, tag, brand, vendor, search results). */
export function ArchivePage(props: ArchivePageProps) {
  const pages = Math.max(1, Math.ceil(props.total / props.perPage));
  return (
    <>
      <header className="archive-header">
        <h1>{props.title}</h1>
        {props.description && <p className="archive-description">{props.description}</p>}
      </header>
      {props.notice}
      {props.filters ? (
        <div className="archive-layout">
          {props.filters}
          <div className="archive-results" id="archive-results" data-total={props.total} tabIndex={-1}>
            <Results {...props} pages={pages} />
          </div>
        </div>
      ) : (
        <Results {...props} pages={pages} />
      )}
    </>
  );
}

function Results(props: ArchivePageProps & { pages: number }) {
  return props.total === 0 ? (
    <p className="woocommerce-info">{props.emptyMessage}</p>
  ) : (
    <>
      <div className="archive-toolbar">
        <ResultCount total={props.total} page={props.page} perPage={props.perPage} />
        <Island
          name="orderingSelect"
          component={OrderingSelect}
          props={{ orderby: props.orderby, keep: props.keep }}
        />
      </div>
      <ProductGrid products={props.products} titleLevel={2} />
      <Pagination page={props.page} pages={props.pages} pageUrl={props.pageUrl} />
    </>
  );
}
