/** WordPress's user meta for anonymous visitors: kept with their session and deleted with it. */
export interface VisitorMetaRepository {
  get(sessionId: string, key: string): Promise<string | null>;
  set(sessionId: string, key: string, value: string): Promise<void>;
}
