/** The owner's one login page (/admin/login), for the back office and the insights alike. */
export function AdminLoginPage({
  nonce,
  next,
  error,
  configured,
}: {
  nonce: string;
  /** The local path to go back to after logging in. */
  next: string;
  error: string | null;
  configured: boolean;
}) {
  return (
    <section className="admin-login">
      <h1>Owner login</h1>
      {!configured && (
        <p>
          No owner is set yet: run <code>npm run owner -- set-password</code> on the server, then log in here.
        </p>
      )}
      {error && (
        <p className="admin-login__error" role="alert" id="admin-login-error">
          {error}
        </p>
      )}
      <form method="post" action="/admin/login">
        <label htmlFor="admin-password">Password or token</label>
        <input
          id="admin-password"
          name="password"
          type="password"
          autoComplete="current-password"
          required
          aria-describedby={error ? 'admin-login-error' : undefined}
        />
        <input type="hidden" name="next" value={next} />
        <input type="hidden" name="_wpnonce" value={nonce} />
        <button type="submit">Log in</button>
      </form>
    </section>
  );
}
