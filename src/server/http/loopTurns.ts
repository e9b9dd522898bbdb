/**
 * Requests take turns on the event loop, so that new visitors get in while it is busy.
 *
 * libuv accepts one new connection per turn of the event loop (it stopped accepting in a loop because the second
 * accept almost always failed). One turn starts every request whose bytes have arrived: with fifty busy keep-alive
 * connections a turn renders ~50 ms of pages, so a burst of new visitors is let in one per ~50 ms and the last of
 * fifty waits over a second in the kernel's backlog before the shop even sees its request (measured: a plain Node
 * server answering 1 ms requests shows the same staircase). Turns bound the request work started per turn: once
 * the current slice of the turn has run `sliceMs`, later requests wait in arrival order and start in the turn's
 * closing phase (setImmediate), at most `sliceMs` of them per turn, each round after a poll phase that accepts the
 * next connection and reads every socket. Lightly loaded, nothing waits: the first request of a slice always starts.
 */
export interface LoopTurns {
  /** `undefined`: start now. A promise: start when it resolves, after every request that waited before it. */
  take(): Promise<void> | undefined;
  /** Requests that waited for a turn since start (GET /healthz): 0 while the loop was never saturated. */
  deferred(): number;
}

export interface LoopTurnsOptions {
  /**
   * Request work started per slice of a turn, in milliseconds; a function is read at every check (a build beside
   * the answering search index asks for longer slices while it runs: see BuildPacer.requestSliceMs).
   */
  sliceMs: number | (() => number);
  now?: () => number;
  /** Runs a callback at the end of this turn of the loop, or of the next one when called from that end. */
  atTurnEnd?: (callback: () => void) => void;
}

export function createLoopTurns({
  sliceMs: slice,
  now = () => performance.now(),
  atTurnEnd = setImmediate,
}: LoopTurnsOptions): LoopTurns {
  const sliceMs = typeof slice === 'function' ? slice : () => slice;
  const waiting: Array<() => void> = [];
  let deferred = 0;
  // The slice of requests started as their bytes arrive (the poll phase); it ends at this turn's end.
  let arrivalSliceStart: number | null = null;
  // The round of waiting requests started at a turn's end, opened by a marker queued before its tickets.
  let roundStart = 0;
  let startedThisRound = 0;
  let openerQueued = false;

  function endArrivalSlice(): void {
    arrivalSliceStart = null;
  }

  function openRound(): void {
    openerQueued = false;
    roundStart = now();
    startedThisRound = 0;
  }

  // One ticket per waiting request. Tickets are run one callback each, so the request a ticket starts has run its
  // synchronous part (the whole render, on SQLite) before the next ticket reads the clock.
  function queueTicket(): void {
    if (!openerQueued) {
      openerQueued = true;
      atTurnEnd(openRound);
    }
    atTurnEnd(ticket);
  }

  // A round always starts one waiting request, so they progress whatever the clock says.
  function ticket(): void {
    if (startedThisRound > 0 && now() - roundStart >= sliceMs()) {
      queueTicket();
      return;
    }
    startedThisRound++;
    waiting.shift()?.();
  }

  return {
    take() {
      if (waiting.length === 0) {
        if (arrivalSliceStart === null) {
          arrivalSliceStart = now();
          atTurnEnd(endArrivalSlice);
          return undefined;
        }
        if (now() - arrivalSliceStart < sliceMs()) return undefined;
      }
      deferred++;
      return new Promise<void>((resolve) => {
        waiting.push(resolve);
        queueTicket();
      });
    },
    deferred: () => deferred,
  };
}
