// Open-loop load: requests leave on a schedule whatever the answers, so a slow server meets a growing queue
// instead of a politely waiting client (a closed loop, as autocannon's connections are, hides that queueing).
import { Agent, request } from 'node:http';

// One keep-alive pool per origin, unbounded: an open loop must never wait for a free socket.
const agent = new Agent({ keepAlive: true, maxSockets: Number.POSITIVE_INFINITY });

/**
 * One HTTP request, never rejecting: `{status, headers, body, ms}` for an answer, `{status: 'timeout'}` after
 * `timeoutMs` (the request is abandoned), `{status: 'error', error}` for a refused or broken connection.
 * `ms` is from the moment the request is handed to the socket pool to the last byte of the answer.
 */
export function send(url, { method = 'GET', headers = {}, body, timeoutMs = 10_000 } = {}) {
  const started = performance.now();
  return new Promise((resolve) => {
    const outgoing = request(url, { method, headers, agent }, (incoming) => {
      const chunks = [];
      incoming.on('data', (chunk) => chunks.push(chunk));
      incoming.on('end', () => {
        clearTimeout(timer);
        resolve({
          status: incoming.statusCode,
          headers: incoming.headers,
          body: Buffer.concat(chunks).toString('utf8'),
          ms: performance.now() - started,
        });
      });
      incoming.on('error', (error) => finish({ status: 'error', error }));
    });
    const finish = (outcome) => {
      clearTimeout(timer);
      resolve({ ...outcome, ms: performance.now() - started });
    };
    const timer = setTimeout(() => {
      finish({ status: 'timeout' });
      outgoing.destroy();
    }, timeoutMs);
    outgoing.on('error', (error) => finish({ status: 'error', error }));
    outgoing.end(body);
  });
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Starts `arrive(index)` `rate` times a second for `seconds`, on schedule: the next arrival never waits for an
 * earlier one to finish, and an arrival that is due while the generator was busy leaves at once. Resolves when
 * every arrival has settled, with their results and how late each left (the generator's own lag, which says
 * whether the schedule was kept).
 */
export async function openLoop({ rate, seconds, arrive }) {
  const count = Math.max(1, Math.round(rate * seconds));
  const interval = 1000 / rate;
  const start = performance.now() + 20;
  const settled = [];
  const lateMs = [];
  for (let index = 0; index < count; index++) {
    const due = start + index * interval;
    const wait = due - performance.now();
    if (wait > 1) await sleep(wait);
    lateMs.push(Math.max(0, performance.now() - due));
    settled.push(arrive(index));
  }
  const sendingMs = performance.now() - start;
  return { results: await Promise.all(settled), lateMs, sendingMs };
}

/** The p-th percentile (0–100) of some numbers, nearest rank; NaN for none. */
export function percentile(values, p) {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}

/** `{status: count}` of some answers, as a short text: `303×49 409×1`. */
export function statusCounts(statuses) {
  const counts = new Map();
  for (const status of statuses) counts.set(status, (counts.get(status) ?? 0) + 1);
  return [...counts]
    .sort(([a], [b]) => String(a).localeCompare(String(b)))
    .map(([status, count]) => `${status}×${count}`)
    .join(' ');
}
