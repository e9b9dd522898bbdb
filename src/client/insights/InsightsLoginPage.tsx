/** The owner's login for /insights/: one field, the password or the owner token. */
export function InsightsLoginPage({
  nonce,
  error,
  configured,
}: {
  nonce: string;
  error: string | null;
  configured: boolean;
}) {
  return (
    <section className="insights-login">
      <h1>Owner login</h1>
      {!configured && (
        <p>
          No owner password or token is set: add <code>server.ownerPasswordHash</code> or{' '}
          <code>server.ownerToken</code> to the settings file.
        </p>
      )}
      {error && (
        <p className="insights-login__error" role="alert" id="insights-login-error">
          {error}
        </p>
      )}
      <form method="post" action="/insights/login">
        <label htmlFor="insights-password">Password or token</label>
        <input
          id="insights-password"
          name="password"
          type="password"
          autoComplete="current-password"
          required
          aria-describedby={error ? 'insights-login-error' : undefined}
        />
        <input type="hidden" name="_wpnonce" value={nonce} />
        <button type="submit">Log in</button>
      </form>
    </section>
  );
}
