/** A readable page for a missing page or a request the shop cannot serve. */
export function MessagePage({ title, message }: { title: string; message: string }) {
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
          <input id="message-search" type="search" name="s" />
          <input type="hidden" name="post_type" value="product" />
          <button type="submit">Search</button>
        </form>
      </search>
    </section>
  );
}
