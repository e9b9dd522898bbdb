import { describe, expect, it } from 'vitest';
import { BuildPacer } from './BuildPacer';

/*
 * The pacer's rule on a clock the test moves: a build "works" by advancing the clock 1 ms per step and pausing after
 * each step; the requests waiting at a yield "take" whatever the test says (the fake yield advances the clock).
 */
function paced(away: (yieldNumber: number) => number, ranAway: (ms: number) => number = (ms) => ms) {
  // The process's CPU time moves with the clock while the build or the requests run; `ranAway` says how much of a
  // yield's stretch the process itself ran (all of it, unless a test says the machine was busy elsewhere).
  const clock = { now: 0, cpu: 0, yields: 0 };
  const pacer = new BuildPacer({
    now: () => clock.now,
    cpuNow: () => clock.cpu,
    yieldNow: async () => {
      clock.yields++;
      const ms = away(clock.yields);
      clock.now += ms;
      clock.cpu += ranAway(ms);
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
      clock.cpu += 1;
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
  return { pacer, runs, clock };
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

  it('a stretch the machine gave to other processes is not traffic: the runs stay short', async () => {
    // Each yield takes 30 ms on the clock, of which the process ran 1 ms (its requests): not 60 ms runs, 4.
    const { pacer, runs } = paced(
      () => 30,
      () => 1,
    );
    expect(Math.max(...(await runs(200)))).toBe(4);
    expect(pacer.budgetMs).toBe(4);
  });

  it('a yield between a build’s phases counts as one: its stretch away sets the budget, the run restarts after it', async () => {
    const { pacer, runs, clock } = paced(() => 10);
    for (let i = 0; i < 5; i++) await pacer.yield();
    expect(clock.yields).toBe(5);
    expect(pacer.budgetMs).toBe(20);
    // The run counts from the last resume: 20 steps of 1 ms before the next yield.
    expect((await runs(60)).slice(0, 2)).toEqual([20, 20]);
  });

  it('two builds sharing the pacer do not count each other’s runs as traffic', async () => {
    let now = 0;
    const queue: (() => void)[] = [];
    // An event loop with nothing else to do: a yield resumes once the builds queued before it ran.
    const pacer = new BuildPacer({
      now: () => now,
      cpuNow: () => now,
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

  it('while a build runs, asks the turns of the event loop for the requests’ share of a run; none once it stopped', async () => {
    const { pacer, runs, clock } = paced(() => 10);
    expect(pacer.requestSliceMs()).toBe(0);
    await runs(100);
    // Runs of 20 ms at share 2: a turn's requests get 10 ms.
    expect(pacer.budgetMs).toBe(20);
    expect(pacer.requestSliceMs()).toBe(10);
    clock.now += 200;
    expect(pacer.requestSliceMs()).toBe(10);
    // No yield for a while: the build is over, the turns keep their own slice.
    clock.now += 100;
    expect(pacer.requestSliceMs()).toBe(0);
  });
});
