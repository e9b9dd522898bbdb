import {
  WEBHOOK_STATUS_LABELS,
  WEBHOOK_STATUSES,
  WEBHOOK_TOPIC_LABELS,
  WEBHOOK_TOPICS,
  type Webhook,
  type WebhookAttempt,
  type WebhookStatus,
  type WebhookTopic,
} from '../../shared/webhooks/webhookTypes';
import { AdminField } from './AdminField';
import { formatAdminDate } from './adminFormat';

/* `/admin/settings/webhooks/`: the owner's webhooks, one webhook's form and its delivery log. Plain forms. */

export const WEBHOOKS_PATH = '/admin/settings/webhooks/';

export function WebhooksListPage({ webhooks, notice }: { webhooks: Webhook[]; notice: string | null }) {
  return (
    <div className="admin-webhooks">
      {notice && (
        <p className="admin-notice" role="status">
          {notice}
        </p>
      )}
      <p>
        A webhook posts an event (an order placed, a product changed) as JSON to an address you choose, signed
        with its secret, the way WooCommerce sends them.
      </p>
      <p>
        <a href={`${WEBHOOKS_PATH}new`}>Add webhook</a>
      </p>
      {webhooks.length === 0 ? (
        <p>No webhooks yet.</p>
      ) : (
        <table className="admin-table admin-webhooks__table">
          <caption className="screen-reader-text">Webhooks</caption>
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Status</th>
              <th scope="col">Topic</th>
              <th scope="col">Delivery URL</th>
            </tr>
          </thead>
          <tbody>
            {webhooks.map((webhook) => (
              <tr key={webhook.id}>
                <th scope="row" data-label="Name">
                  <a href={`${WEBHOOKS_PATH}${webhook.id}/`}>{webhook.name}</a>
                </th>
                <td data-label="Status">{WEBHOOK_STATUS_LABELS[webhook.status]}</td>
                <td data-label="Topic">{webhook.topic}</td>
                <td data-label="Delivery URL" className="admin-webhooks__url">
                  {webhook.deliveryUrl}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </div>
  );
}

export interface WebhookFormValues {
  name: string;
  status: WebhookStatus;
  topic: WebhookTopic;
  deliveryUrl: string;
  secret: string;
}

export type WebhookFormErrors = Partial<Record<keyof WebhookFormValues, string>>;

export function WebhookEditPage({
  webhookId,
  values,
  errors,
  nonce,
  deleteNonce,
  attempts,
  failureCount,
  notice,
}: {
  /** Null: a new webhook. */
  webhookId: number | null;
  values: WebhookFormValues;
  errors: WebhookFormErrors;
  nonce: string;
  deleteNonce: string;
  attempts: WebhookAttempt[];
  failureCount: number;
  notice: string | null;
}) {
  const action = webhookId === null ? WEBHOOKS_PATH : `${WEBHOOKS_PATH}${webhookId}/`;
  const errorCount = Object.keys(errors).length;
  return (
    <div className="admin-webhooks">
      {notice && (
        <p className="admin-notice" role="status">
          {notice}
        </p>
      )}
      {errorCount > 0 && (
        <div role="alert" className="admin-products__errors">
          <p>
            Nothing was saved: {errorCount === 1 ? 'one field needs' : `${errorCount} fields need`} a change.
          </p>
        </div>
      )}
      <p>
        <a href={WEBHOOKS_PATH}>All webhooks</a>
      </p>
      <form method="post" action={action} className="admin-form" noValidate>
        <input type="hidden" name="_wpnonce" value={nonce} />
        <AdminField
          id="webhook-name"
          label="Name"
          error={errors.name}
          hint="Blank: “Webhook created on” today’s date."
        >
          {(control) => <input {...control} name="name" type="text" defaultValue={values.name} />}
        </AdminField>
        <AdminField
          id="webhook-status"
          label="Status"
          error={errors.status}
          hint="Only an active webhook delivers. The shop disables one after 5 failed deliveries in a row."
        >
          {(control) => (
            <select {...control} name="status" defaultValue={values.status}>
              {WEBHOOK_STATUSES.map((status) => (
                <option key={status} value={status}>
                  {WEBHOOK_STATUS_LABELS[status]}
                </option>
              ))}
            </select>
          )}
        </AdminField>
        <AdminField id="webhook-topic" label="Topic" error={errors.topic}>
          {(control) => (
            <select {...control} name="topic" defaultValue={values.topic}>
              {WEBHOOK_TOPICS.map((topic) => (
                <option key={topic} value={topic}>
                  {WEBHOOK_TOPIC_LABELS[topic]} ({topic})
                </option>
              ))}
            </select>
          )}
        </AdminField>
        <AdminField
          id="webhook-deliveryUrl"
          label="Delivery URL"
          error={errors.deliveryUrl}
          hint="Where the JSON is posted, http:// or https://."
        >
          {(control) => (
            <input
              {...control}
              name="deliveryUrl"
              type="text"
              inputMode="url"
              autoComplete="off"
              spellCheck={false}
              defaultValue={values.deliveryUrl}
            />
          )}
        </AdminField>
        <AdminField
          id="webhook-secret"
          label="Secret"
          error={errors.secret}
          hint="Signs every delivery (X-WC-Webhook-Signature). Blank: the shop makes one."
        >
          {(control) => (
            <input
              {...control}
              name="secret"
              type="text"
              autoComplete="off"
              spellCheck={false}
              defaultValue={values.secret}
            />
          )}
        </AdminField>
        <p className="admin-field__hint">API version: WP REST API Integration v3.</p>
        <div>
          <button type="submit">{webhookId === null ? 'Save webhook' : 'Update webhook'}</button>
        </div>
      </form>
      {webhookId !== null && (
        <>
          <form
            method="post"
            action={`${WEBHOOKS_PATH}${webhookId}/delete`}
            className="admin-webhooks__delete"
          >
            <input type="hidden" name="_wpnonce" value={deleteNonce} />
            <button type="submit">Delete webhook</button>
          </form>
          <DeliveryLog attempts={attempts} failureCount={failureCount} />
        </>
      )}
    </div>
  );
}

function DeliveryLog({ attempts, failureCount }: { attempts: WebhookAttempt[]; failureCount: number }) {
  return (
    <section aria-labelledby="webhook-log">
      <h2 id="webhook-log">Deliveries</h2>
      {failureCount > 0 && (
        <p>
          {failureCount} failed attempt{failureCount === 1 ? '' : 's'} in a row.
        </p>
      )}
      {attempts.length === 0 ? (
        <p>Nothing delivered yet.</p>
      ) : (
        // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be reachable by keyboard.
        <section className="admin-table-wrap" tabIndex={0} aria-label="Deliveries table">
          <table className="admin-table">
            <thead>
              <tr>
                <th scope="col">Time</th>
                <th scope="col">Delivery</th>
                <th scope="col">Attempt</th>
                <th scope="col">Response</th>
                <th scope="col">Duration</th>
                <th scope="col">Error</th>
              </tr>
            </thead>
            <tbody>
              {attempts.map((attempt) => (
                <tr key={attempt.id}>
                  <td>
                    <time dateTime={new Date(attempt.attemptedAt).toISOString()}>
                      {formatAdminDate(new Date(attempt.attemptedAt).toISOString())}
                    </time>
                  </td>
                  <td>
                    #{attempt.deliveryId} {attempt.topic} {attempt.resourceId}
                  </td>
                  <td>{attempt.attempt}</td>
                  <td>{attempt.responseStatus === null ? 'No answer' : `HTTP ${attempt.responseStatus}`}</td>
                  <td>{attempt.durationMs} ms</td>
                  <td>{attempt.error ?? '—'}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </section>
      )}
    </section>
  );
}
