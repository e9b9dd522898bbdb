import { afterEach, describe, expect, it } from 'vitest';
import type { OnlineEntry } from '../../shared/stats/statsTypes';
import { createOnlinePresence, type OnlinePresence } from './createOnlinePresence';

/*
 * Online presence: a new visitor is written at once (where the database may refuse them), repeat
 * pings only at the batched flush.
 */

let presence: OnlinePresence | undefined;
afterEach(async () => {
  await presence?.close();
});

const v1 = { visitorHash: 'v1', addressHash: 'a1' };

describe('createOnlinePresence', () => {
  it('writes a new visitor before the ping resolves and batches repeat pings until the flush', async () => {
    const writes: OnlineEntry[][] = [];
    presence = createOnlinePresence(
      {
        admit: async (entry) => {
          writes.push([entry]);
          return true;
        },
        write: async (entries) => {
          writes.push(entries);
        },
      },
      { flushMs: 60_000, forgetAfterMs: 120_000 },
    );
    expect(await presence.ping(v1, '/a', 1000)).toBe(true);
    expect(writes).toEqual([[{ ...v1, page: '/a', firstSeen: 1000, lastSeen: 1000 }]]);
    await presence.ping(v1, '/b', 2000);
    await presence.ping(v1, '/c', 3000);
    expect(writes).toHaveLength(1);
    await presence.flush();
    expect(writes[1]).toEqual([{ ...v1, page: '/c', firstSeen: 1000, lastSeen: 3000 }]);
    await presence.flush();
    expect(writes).toHaveLength(2);
  });

  it('writes a failed flush again at the next one (a busy database loses no presence)', async () => {
    const written: OnlineEntry[][] = [];
    let busy = true;
    presence = createOnlinePresence(
      {
        admit: async () => true,
        write: async (entries) => {
          if (busy) throw Object.assign(new Error('database is locked'), { code: 'SQLITE_BUSY' });
          written.push(entries);
        },
      },
      { flushMs: 60_000, forgetAfterMs: 120_000 },
    );
    await presence.ping(v1, '/a', 1000);
    await presence.ping(v1, '/b', 2000);
    await presence.flush();
    expect(written).toEqual([]);
    busy = false;
    await presence.flush();
    expect(written).toEqual([[{ ...v1, page: '/b', firstSeen: 1000, lastSeen: 2000 }]]);
  });

  it('retries a failed first write at the next flush and reports the failure', async () => {
    const writes: OnlineEntry[][] = [];
    presence = createOnlinePresence(
      {
        admit: async () => {
          throw new Error('database down');
        },
        write: async (entries) => {
          writes.push(entries);
        },
      },
      { flushMs: 60_000, forgetAfterMs: 120_000 },
    );
    await expect(presence.ping(v1, '/a', 1000)).rejects.toThrow('database down');
    await presence.flush();
    expect(writes).toEqual([[{ ...v1, page: '/a', firstSeen: 1000, lastSeen: 1000 }]]);
  });

  it('forgets a refused visitor, so their next ping asks the database again', async () => {
    const asked: string[] = [];
    let room = false;
    const writes: OnlineEntry[][] = [];
    presence = createOnlinePresence(
      {
        admit: async (entry) => {
          asked.push(entry.page);
          return room;
        },
        write: async (entries) => {
          writes.push(entries);
        },
      },
      { flushMs: 60_000, forgetAfterMs: 120_000 },
    );
    expect(await presence.ping(v1, '/a', 1000)).toBe(false);
    expect(await presence.ping(v1, '/b', 2000)).toBe(false);
    room = true;
    expect(await presence.ping(v1, '/c', 3000)).toBe(true);
    expect(asked).toEqual(['/a', '/b', '/c']);
    await presence.flush();
    expect(writes).toEqual([]);
  });
});
