import { MAX_SEARCH_LENGTH } from '../../shared/search/searchLimits';

export interface PageLink {
  href: string;
  label: string;
}

/** A readable page for a missing page or a request the shop cannot serve: what happened and where to go next. */
export function MessagePage({
  title,
  message,
  links = [],
}: {
  title: string;
  message: string;
  /** More places to go (a missing page lists the shop's categories). */
  links?: readonly PageLink[];
}) {
  return (
    <section className="message-page">
      <h1>{title}</h1>
      <p>{message}</p>
      <p>
        <a href="/shop/">Continue shopping</a> or <a href="/">go to the home page</a>.
      </p>
      <search>
        <form method="get" action="/" className="search-form search-form--inline">
          <label htmlFor="message-search">Search products</label>
          <input id="message-search" type="search" name="s" maxLength={MAX_SEARCH_LENGTH} />
          <input type="hidden" name="post_type" value="product" />
          <button type="submit">Search</button>
        </form>
      </search>
      {links.length > 0 ? (
        <nav aria-labelledby="message-links">
          <h2 id="message-links">Browse the shop</h2>
          <ul className="message-page__links">
            {links.map((link) => (
              <li key={link.href}>
                <a href={link.href}>{link.label}</a>
              </li>
            ))}
          </ul>
        </nav>
      ) : null}
    </section>
  );
}
