import {
  API_KEY_PERMISSION_LABELS,
  API_KEY_PERMISSIONS,
  type ApiKey,
  type ApiKeyPermissions,
} from '../../shared/apiKeys/apiKeyTypes';
import { formatAdminDate } from './adminFormat';

/*
 * `/admin/settings/api/`: the WooCommerce REST API's keys. A new key's consumer key and secret are shown on the
 * answer to the form that made it, once (they are stored hashed); the list shows each key's ending, permissions,
 * last access and a revoke button. Plain forms: works without JavaScript and by keyboard.
 */

const labelOf = (permissions: ApiKeyPermissions) => API_KEY_PERMISSION_LABELS[permissions];

export interface IssuedKeyView {
  description: string;
  consumerKey: string;
  consumerSecret: string;
}

export function ApiKeysPage({
  keys,
  createNonce,
  revokeNonce,
  issued,
  notice,
  error,
  values,
}: {
  keys: ApiKey[];
  createNonce: string;
  revokeNonce: string;
  /** The key just made, shown this once. */
  issued: IssuedKeyView | null;
  notice: string | null;
  /** Why the form was refused, next to it. */
  error: string | null;
  values: { description: string; permissions: ApiKeyPermissions };
}) {
  const time = (at: number | null) =>
    at === null ? (
      'Never'
    ) : (
      <time dateTime={new Date(at).toISOString()}>{formatAdminDate(new Date(at).toISOString())}</time>
    );
  return (
    <div className="admin-api-keys">
      {notice && (
        <p className="admin-notice" role="status">
          {notice}
        </p>
      )}
      {issued && (
        <section className="admin-notice admin-issued-key" aria-labelledby="issued-key-heading">
          <h2 id="issued-key-heading">Key “{issued.description}” made</h2>
          <p>
            Copy the consumer secret now: it is shown only this once. A lost secret cannot be shown again;
            revoke the key and make another.
          </p>
          <div className="admin-issued-key__field">
            <label htmlFor="issued-consumer-key">Consumer key</label>
            <input
              id="issued-consumer-key"
              type="text"
              readOnly
              value={issued.consumerKey}
              spellCheck={false}
            />
          </div>
          <div className="admin-issued-key__field">
            <label htmlFor="issued-consumer-secret">Consumer secret</label>
            <input
              id="issued-consumer-secret"
              type="text"
              readOnly
              value={issued.consumerSecret}
              spellCheck={false}
            />
          </div>
        </section>
      )}

      <section aria-labelledby="add-key-heading">
        <h2 id="add-key-heading">Add a key</h2>
        <p className="admin-muted">
          Tools made for WooCommerce (shipping labels, accounting, automations) connect with a key to
          /wp-json/wc/v3/. Give each tool its own key, with the least permission it needs.
        </p>
        <form className="admin-filters" method="post" action="/admin/settings/api/">
          <input type="hidden" name="_wpnonce" value={createNonce} />
          <div>
            <label htmlFor="api-key-description">Description</label>
            <input
              id="api-key-description"
              name="description"
              type="text"
              required
              maxLength={200}
              defaultValue={values.description}
              aria-invalid={error ? true : undefined}
              aria-describedby={error ? 'api-key-error' : undefined}
            />
          </div>
          <div>
            <label htmlFor="api-key-permissions">Permissions</label>
            <select id="api-key-permissions" name="permissions" defaultValue={values.permissions}>
              {API_KEY_PERMISSIONS.map((permissions) => (
                <option key={permissions} value={permissions}>
                  {labelOf(permissions)}
                </option>
              ))}
            </select>
          </div>
          <button type="submit">Generate API key</button>
        </form>
        {error && (
          <p id="api-key-error" className="admin-login__error" role="alert">
            {error}
          </p>
        )}
      </section>

      <section aria-labelledby="keys-heading">
        <h2 id="keys-heading">Keys</h2>
        {keys.length === 0 ? (
          <p>No keys yet.</p>
        ) : (
          // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be reachable by keyboard.
          <section className="admin-table-wrap" tabIndex={0} aria-label="Keys table">
            <table className="admin-table">
              <caption className="screen-reader-text">API keys, newest first</caption>
              <thead>
                <tr>
                  <th scope="col">Description</th>
                  <th scope="col">Consumer key ending in</th>
                  <th scope="col">Permissions</th>
                  <th scope="col">Last access</th>
                  <th scope="col">Status</th>
                </tr>
              </thead>
              <tbody>
                {keys.map((key) => (
                  <tr key={key.id}>
                    <th scope="row">{key.description}</th>
                    <td>
                      <code>{`…${key.truncatedKey}`}</code>
                    </td>
                    <td>{labelOf(key.permissions)}</td>
                    <td>{time(key.lastAccess)}</td>
                    <td>
                      {key.revokedAt === null ? (
                        <form method="post" action={`/admin/settings/api/${key.id}/revoke`}>
                          <input type="hidden" name="_wpnonce" value={revokeNonce} />
                          <button type="submit" aria-label={`Revoke key “${key.description}”`}>
                            Revoke
                          </button>
                        </form>
                      ) : (
                        <span className="admin-status">Revoked {time(key.revokedAt)}</span>
                      )}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </section>
        )}
      </section>
    </div>
  );
}
