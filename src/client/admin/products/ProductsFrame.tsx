import type { ReactNode } from 'react';

/**
 * The frame of the back office's product pages: a skip link to the page's own content, the way back to the back
 * office, and the page's heading. (The back office's shared layout replaces it.)
 */
export function ProductsFrame({ title, children }: { title: string; children: ReactNode }) {
  return (
    <div className="admin-products">
      <a className="skip-link" href="#admin-content">
        Skip to the {title.toLowerCase()}
      </a>
      <nav aria-label="Back office" className="admin-products__nav">
        <a href="/admin/">Back office</a>
        <span aria-hidden="true"> / </span>
        <a href="/admin/products/">Products</a>
      </nav>
      <h1>{title}</h1>
      <div id="admin-content" tabIndex={-1} className="admin-products__content">
        {children}
      </div>
    </div>
  );
}
