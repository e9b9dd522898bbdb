import { describe, expect, it } from 'vitest';
import { createLoopTurns } from './loopTurns';

/**
 * A model of the event loop as the turns see it: a clock that requests advance by their cost, and the turn's end
 * (setImmediate): callbacks queued while it runs wait for the next turn, and each callback's promise reactions run
 * before the next callback, as in Node.
 */
function modelLoop() {
  let clock = 0;
  let queue: Array<() => void> = [];
  return {
    now: () => clock,
    atTurnEnd: (callback: () => void) => {
      queue.push(callback);
    },
    spend(ms: number) {
      clock += ms;
    },
    async endTurn() {
      const running = queue;
      queue = [];
      for (const callback of running) {
        callback();
        await settle();
      }
    },
    queued: () => queue.length,
  };
}

async function settle() {
  for (let step = 0; step < 5; step++) await Promise.resolve();
}

/** A request arriving now: started at once or when its turn comes; it then runs `cost` ms synchronously. */
function arrive(
  turns: ReturnType<typeof createLoopTurns>,
  loop: ReturnType<typeof modelLoop>,
  started: string[],
  name: string,
  cost = 1,
) {
  const run = () => {
    started.push(name);
    loop.spend(cost);
  };
  const wait = turns.take();
  if (wait === undefined) run();
  else void wait.then(run);
}

describe('loop turns', () => {
  it('starts every request at once while the loop is lightly loaded', async () => {
    const loop = modelLoop();
    const turns = createLoopTurns({ sliceMs: 2, now: loop.now, atTurnEnd: loop.atTurnEnd });
    const started: string[] = [];
    for (const name of ['a', 'b', 'c']) {
      arrive(turns, loop, started, name, 1.5);
      await loop.endTurn();
    }
    expect(started).toEqual(['a', 'b', 'c']);
    expect(turns.deferred()).toBe(0);
  });

  it('once a turn has run its slice, later arrivals wait and start in arrival order, a slice of them per turn', async () => {
    const loop = modelLoop();
    const turns = createLoopTurns({ sliceMs: 2, now: loop.now, atTurnEnd: loop.atTurnEnd });
    const started: string[] = [];
    for (const name of ['a', 'b', 'c', 'd', 'e', 'f']) arrive(turns, loop, started, name);
    expect(started).toEqual(['a', 'b']);
    expect(turns.deferred()).toBe(4);

    await loop.endTurn();
    expect(started).toEqual(['a', 'b', 'c', 'd']);
    await loop.endTurn();
    expect(started).toEqual(['a', 'b', 'c', 'd', 'e', 'f']);
    await loop.endTurn();
    expect(loop.queued()).toBe(0);
  });

  it('reads a slice that changes (longer while a build runs beside the search index) at every check', async () => {
    const loop = modelLoop();
    let slice = 2;
    const turns = createLoopTurns({ sliceMs: () => slice, now: loop.now, atTurnEnd: loop.atTurnEnd });
    const started: string[] = [];
    for (const name of ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h']) arrive(turns, loop, started, name);
    expect(started).toEqual(['a', 'b']);
    slice = 4;
    await loop.endTurn();
    expect(started).toEqual(['a', 'b', 'c', 'd', 'e', 'f']);
    slice = 1;
    await loop.endTurn();
    expect(started).toEqual(['a', 'b', 'c', 'd', 'e', 'f', 'g']);
  });

  it('never lets a new arrival overtake a request that waits, even in a fresh slice', async () => {
    const loop = modelLoop();
    const turns = createLoopTurns({ sliceMs: 2, now: loop.now, atTurnEnd: loop.atTurnEnd });
    const started: string[] = [];
    for (const name of ['a', 'b', 'c', 'd', 'e']) arrive(turns, loop, started, name);
    await loop.endTurn();
    expect(started).toEqual(['a', 'b', 'c', 'd']);
    // The next turn's first arrival finds 'e' waiting: it queues behind it.
    arrive(turns, loop, started, 'late');
    expect(started).toEqual(['a', 'b', 'c', 'd']);
    await loop.endTurn();
    expect(started).toEqual(['a', 'b', 'c', 'd', 'e', 'late']);
  });

  it('starts one waiting request per turn whatever the slice, so none waits for ever', async () => {
    const loop = modelLoop();
    const turns = createLoopTurns({ sliceMs: 0, now: loop.now, atTurnEnd: loop.atTurnEnd });
    const started: string[] = [];
    for (const name of ['a', 'b', 'c', 'd']) arrive(turns, loop, started, name, 5);
    expect(started).toEqual(['a']);
    await loop.endTurn();
    expect(started).toEqual(['a', 'b']);
    await loop.endTurn();
    expect(started).toEqual(['a', 'b', 'c']);
    await loop.endTurn();
    expect(started).toEqual(['a', 'b', 'c', 'd']);
  });
});
