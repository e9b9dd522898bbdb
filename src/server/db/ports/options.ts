export interface OptionRepository {
  get(key: string): Promise<string | null>;
  /** Sets the value only if the key has none yet, and returns the value that is stored (first writer wins). */
  setIfAbsent(key: string, value: string): Promise<string>;
}
