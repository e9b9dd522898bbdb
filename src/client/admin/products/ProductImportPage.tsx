import type { ImportJob } from '../../../shared/catalog/adminProducts';
import { ProductsFrame } from './ProductsFrame';

/** The upload form for a WooCommerce products CSV. */
export function ProductImportPage({
  nonce,
  maxMegabytes,
  error,
}: {
  nonce: string;
  maxMegabytes: number;
  error: string | null;
}) {
  return (
    <ProductsFrame title="Import products">
      <p>
        Upload a products CSV in WooCommerce’s format (what its exporter and this shop’s export write).
        Products are matched by SKU, then by ID: known ones are updated where they differ (left untouched when
        they do not), the others created. Rows that cannot be imported are skipped and listed with the reason.
      </p>
      {error && (
        <p role="alert" className="admin-field__error" id="import-error">
          {error}
        </p>
      )}
      <form
        method="post"
        action="/admin/products/import"
        encType="multipart/form-data"
        className="admin-form"
      >
        {/* Before the file, so the server reads it without holding the file first. */}
        <input type="hidden" name="_wpnonce" value={nonce} />
        <div className="admin-field">
          <label htmlFor="import-file">CSV file (at most {maxMegabytes} MB)</label>
          <input
            id="import-file"
            type="file"
            name="file"
            accept=".csv,text/csv"
            required
            aria-describedby={error ? 'import-error' : undefined}
          />
        </div>
        <button type="submit">Import</button>
      </form>
    </ProductsFrame>
  );
}

/** An import's progress while it runs (the page reloads itself), then its summary. */
export function ImportJobPage({ job }: { job: ImportJob }) {
  const finished = job.status === 'done' || job.status === 'failed';
  const percent = job.total === 0 ? (finished ? 100 : 0) : Math.round((job.done / job.total) * 100);
  const summary = job.summary;
  return (
    <ProductsFrame title={`Import of ${job.fileName}`}>
      <div className="admin-import-progress">
        <label htmlFor="import-progress">
          {job.status === 'done'
            ? 'Import finished'
            : job.status === 'failed'
              ? 'Import stopped'
              : `Importing: ${job.done} of ${job.total || '…'} rows`}
        </label>
        <progress
          id="import-progress"
          max={100}
          value={percent}
          aria-valuenow={percent}
          aria-valuemin={0}
          aria-valuemax={100}
        >
          {percent}%
        </progress>
      </div>
      {!finished && (
        <p role="status">
          This page reloads itself every second until the import is done.{' '}
          <a href={`/admin/products/import/${job.id}`}>Reload now</a>
        </p>
      )}
      {job.status === 'failed' && (
        <p role="alert" className="admin-field__error">
          Nothing more was imported: {job.error}
        </p>
      )}
      {finished && summary && (
        <section aria-labelledby="import-summary" role="status">
          <h2 id="import-summary">Summary</h2>
          <ul>
            <li>{summary.created} created</li>
            <li>{summary.updated} updated</li>
            {summary.unchanged !== undefined && <li>{summary.unchanged} unchanged</li>}
            <li>{summary.skipped.length} skipped</li>
          </ul>
          {summary.skipped.length > 0 && (
            <table className="admin-table">
              <caption>Skipped rows</caption>
              <thead>
                <tr>
                  <th scope="col">Line</th>
                  <th scope="col">Product</th>
                  <th scope="col">Reason</th>
                </tr>
              </thead>
              <tbody>
                {summary.skipped.map((row) => (
                  <tr key={row.line}>
                    <td data-label="Line">{row.line}</td>
                    <td data-label="Product">{row.name || '—'}</td>
                    <td data-label="Reason">{row.reason}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
          <p>
            <a href="/admin/products/">Back to the products</a>
          </p>
        </section>
      )}
    </ProductsFrame>
  );
}
