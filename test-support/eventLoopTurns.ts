/**
 * Counts turns of the event loop (a chain of setImmediate, as waiting requests are started) until stopped: a write
 * that lets requests run between its steps sees the count move from one step to the next.
 */
export function countTurns(): { turns(): number; stop(): void } {
  let turns = 0;
  let counting = true;
  const count = () => {
    turns += 1;
    if (counting) setImmediate(count);
  };
  setImmediate(count);
  return {
    turns: () => turns,
    stop: () => {
      counting = false;
    },
  };
}
