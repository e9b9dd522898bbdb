import { describe, expect, it } from 'vitest';
import { BuildPacer } from './BuildPacer';

/*
 * The pacer's rule on a clock the test moves: a build "works" by advancing the clock 1 ms per step and pausing after
 * each step; the requests waiting at a yield "take" whatever the test says (the fake yield advances the clock).
 */
function paced(away: (yieldNumber: number) => number) {
  const clock = { now: 0, yields: 0 };
  const pacer = new BuildPacer({
    now: () => clock.now,
    yieldNow: async () => {
      clock.yields++;
      clock.now += away(clock.yields);
    },
    minRunMs: 4,
    maxRunMs: 40,
    share: 2,
  });
  /** A build of `steps` 1 ms steps: the work (ms) it did between consecutive yields. */
  async function runs(steps: number): Promise<number[]> {
    const done: number[] = [];
    let run = 0;
    for (let step = 0; step < steps; step++) {
      clock.now += 1;
      run++;
      const before = clock.yields;
      await pacer.pause();
      if (clock.yields !== before) {
        done.push(run);
        run = 0;
      }
    }
    return done;
  }
  return { pacer, runs };
}

describe('a build beside the answering index, paced by the traffic', () => {
  it('with nothing waiting (each yield comes back at once) it yields after the minimum run', async () => {
    const { pacer, runs } = paced(() => 0);
    // The first pause of a build yields (requests that arrived before it run first).
    expect((await runs(200)).slice(1)).toEqual(Array.from({ length: 49 }, () => 4));
    expect(pacer.budgetMs).toBe(4);
  });

  it('under steady traffic it runs `share` times as long as the requests between its runs took', async () => {
    const { pacer, runs } = paced(() => 10);
    const done = await runs(400);
    // Once the recent stretches away are all 10 ms, every run is 20 ms of work.
    expect(done.slice(4)).toEqual(done.slice(4).map(() => 20));
    expect(pacer.budgetMs).toBe(20);
  });

  it('never runs past the maximum, however long the requests take', async () => {
    const { pacer, runs } = paced(() => 100);
    const done = await runs(400);
    expect(Math.max(...done)).toBe(40);
    expect(pacer.budgetMs).toBe(40);
  });

  it('one long stall at a yield (a collector pause, the machine busy elsewhere) does not lengthen the runs', async () => {
    const { pacer, runs } = paced((yieldNumber) => (yieldNumber === 6 ? 500 : 1));
    const done = await runs(200);
    expect(done.length).toBeGreaterThan(20);
    expect(Math.max(...done)).toBe(4);
    expect(pacer.budgetMs).toBe(4);
  });

  it('two builds sharing the pacer do not count each other’s runs as traffic', async () => {
    let now = 0;
    const queue: (() => void)[] = [];
    // An event loop with nothing else to do: a yield resumes once the builds queued before it ran.
    const pacer = new BuildPacer({
      now: () => now,
      yieldNow: () => new Promise<void>((resolve) => queue.push(resolve)),
      minRunMs: 4,
      maxRunMs: 40,
      share: 2,
    });
    const budgets: number[] = [];
    async function build(steps: number) {
      for (let step = 0; step < steps; step++) {
        now += 1;
        await pacer.pause();
        budgets.push(pacer.budgetMs);
      }
    }
    const both = Promise.all([build(300), build(300)]);
    let finished = false;
    both.then(() => {
      finished = true;
    });
    while (!finished) {
      await new Promise((resolve) => setImmediate(resolve));
      queue.shift()?.();
    }
    expect(budgets.length).toBe(600);
    expect(Math.max(...budgets)).toBe(4);
  });
});
