import type { StatsRepository } from '../db/ports';

/**
 * The day's salt for visitor hashes. It is first-writer-wins in the database, so caching it here gives every
 * process the same one; only the current day is kept.
 */
export function createDaySalts(stats: Pick<StatsRepository, 'daySalt'>): (day: string) => Promise<string> {
  const salts = new Map<string, Promise<string>>();
  return function daySalt(day: string) {
    let salt = salts.get(day);
    if (!salt) {
      salt = stats.daySalt(day);
      salts.clear();
      salts.set(day, salt);
      // A failed read (database briefly unreachable) must not stick for the rest of the day.
      salt.catch(() => salts.get(day) === salt && salts.delete(day));
    }
    return salt;
  };
}
