import { highlightMatches } from './core/highlightMatches';
import { stripTags } from './core/normalizeQuery';

/** A suggestion's text with every query word wrapped in `<mark>` (docs/contract.md accessibility contract). */
export function Highlighted({ text, query }: { text: string; query: string }) {
  return (
    <>
      {highlightMatches(stripTags(text), query).map((part, index) =>
        // The parts of one string never reorder, so their position is a stable key.
        part.match ? (
          // biome-ignore lint/suspicious/noArrayIndexKey: see above
          <mark key={index}>{part.text}</mark>
        ) : (
          part.text
        ),
      )}
    </>
  );
}
