import type { DayRange } from '../../../shared/dates/dayRange';
import type { OnlineEntry, StatsRecord, StatsReport } from '../../../shared/stats/statsTypes';

export interface StatsRepository {
  /** The day's random salt for visitor hashes, created by the first process that asks (first writer wins). */
  daySalt(day: string): Promise<string>;
  /** Writes hits (and their visitors), events and exclusions in one transaction: the group commit's batch. */
  writeBatch(records: StatsRecord[]): Promise<void>;
  /** Online presence flushed from memory: one upsert per visitor. */
  writeOnline(entries: OnlineEntry[]): Promise<void>;
  /**
   * A visitor's first ping in a process: refreshes them when they are online already; otherwise adds them only while
   * their address has fewer than `perAddress` visitors seen since `since`. Atomic per address on every engine, so
   * concurrent pings from one address cannot pass the cap. Answers whether the visitor is online.
   */
  admitOnline(entry: OnlineEntry, options: { since: number; perAddress: number }): Promise<boolean>;
  /**
   * Counts one statistics request of `addressHash` in `minute` (Unix minutes) and answers the minute's count so
   * far, this one included: an atomic upsert, so every process shares one count (the rate limit).
   */
  countRequest(addressHash: string, minute: number): Promise<number>;
  report(range: DayRange, options: { onlineSince: number }): Promise<StatsReport>;
  /**
   * Retention: deletes hits, visitors and events of days before `day` (the daily excluded-hit counts stay); salts,
   * presence and rate-limit minutes apart (a minute before the one of `onlineBefore` is finished).
   */
  deleteBefore(day: string, options: { saltsBefore: string; onlineBefore: number }): Promise<void>;
}
