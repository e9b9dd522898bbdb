/** A growable set of small non-negative integers (document numbers), one bit each. */
export class Bitset {
  #words: Uint32Array;

  constructor(capacity = 1024) {
    this.#words = new Uint32Array(Math.max(1, Math.ceil(capacity / 32)));
  }

  set(n: number): void {
    const word = n >>> 5;
    if (word >= this.#words.length) {
      const grown = new Uint32Array(Math.max(word + 1, this.#words.length * 2));
      grown.set(this.#words);
      this.#words = grown;
    }
    this.#words[word] = (this.#words[word] ?? 0) | (1 << (n & 31));
  }

  clear(n: number): void {
    const word = n >>> 5;
    if (word < this.#words.length) this.#words[word] = (this.#words[word] ?? 0) & ~(1 << (n & 31));
  }

  has(n: number): boolean {
    const word = n >>> 5;
    return word < this.#words.length && ((this.#words[word] ?? 0) & (1 << (n & 31))) !== 0;
  }

  /** Adds every member of `other`. */
  orWith(other: Bitset): void {
    const theirs = other.#words;
    if (theirs.length > this.#words.length) {
      const grown = new Uint32Array(theirs.length);
      grown.set(this.#words);
      this.#words = grown;
    }
    const mine = this.#words;
    for (let i = 0; i < theirs.length; i++) mine[i] = (mine[i] ?? 0) | (theirs[i] ?? 0);
  }

  /** The members in ascending order. */
  members(): number[] {
    const out: number[] = [];
    const words = this.#words;
    for (let i = 0; i < words.length; i++) {
      let word = words[i] ?? 0;
      while (word !== 0) {
        const low = word & -word;
        out.push((i << 5) + (31 - Math.clz32(low)));
        word ^= low;
      }
    }
    return out;
  }
}
