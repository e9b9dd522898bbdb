import { afterEach, describe, expect, it } from 'vitest';
import type { OnlineEntry } from '../../shared/stats/statsTypes';
import { createOnlinePresence, type OnlinePresence } from './createOnlinePresence';

/* Online presence (issues 7 and 12): a new visitor is written at once, repeat pings only at the batched flush. */

let presence: OnlinePresence | undefined;
afterEach(async () => {
  await presence?.close();
});

describe('createOnlinePresence', () => {
  it('writes a new visitor before the ping resolves and batches repeat pings until the flush', async () => {
    const writes: OnlineEntry[][] = [];
    presence = createOnlinePresence(
      async (entries) => {
        writes.push(entries);
      },
      { flushMs: 60_000, forgetAfterMs: 120_000 },
    );
    await presence.ping('v1', '/a', 1000);
    expect(writes).toEqual([[{ visitorHash: 'v1', page: '/a', firstSeen: 1000, lastSeen: 1000 }]]);
    await presence.ping('v1', '/b', 2000);
    await presence.ping('v1', '/c', 3000);
    expect(writes).toHaveLength(1);
    await presence.flush();
    expect(writes[1]).toEqual([{ visitorHash: 'v1', page: '/c', firstSeen: 1000, lastSeen: 3000 }]);
    await presence.flush();
    expect(writes).toHaveLength(2);
  });

  it('retries a failed first write at the next flush and reports the failure', async () => {
    const writes: OnlineEntry[][] = [];
    let fail = true;
    presence = createOnlinePresence(
      async (entries) => {
        if (fail) throw new Error('database down');
        writes.push(entries);
      },
      { flushMs: 60_000, forgetAfterMs: 120_000 },
    );
    await expect(presence.ping('v1', '/a', 1000)).rejects.toThrow('database down');
    fail = false;
    await presence.flush();
    expect(writes).toEqual([[{ visitorHash: 'v1', page: '/a', firstSeen: 1000, lastSeen: 1000 }]]);
  });
});
