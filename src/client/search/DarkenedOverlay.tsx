import { type RefObject, useEffect, useState } from 'react';

interface Rect {
  top: number;
  left: number;
  right: number;
  bottom: number;
}

/** The panels follow the form every 10 ms. */
const ALIGNMENT_POLL_MS = 10;
/** The overlay fades in over 200 ms and out over 400 ms (searchBox.css holds the same figures). */
const FADE_OUT_MS = 400;

const sameRect = (a: Rect | null, b: Rect) =>
  !!a && a.top === b.top && a.left === b.left && a.right === b.right && a.bottom === b.bottom;

/**
 * The darkened page overlay: four fixed panels around the search form, so the form itself
 * stays bright and clickable. A click on any panel closes the search. It fades in while the dropdown opens and
 * out after it closes, then leaves the page.
 */
export function DarkenedOverlay({
  open,
  targetRef,
  zIndex,
  onClose,
}: {
  open: boolean;
  targetRef: RefObject<HTMLElement | null>;
  zIndex: number;
  onClose(): void;
}) {
  const [present, setPresent] = useState(open);

  useEffect(() => {
    if (open) {
      setPresent(true);
      return;
    }
    const timer = window.setTimeout(() => setPresent(false), FADE_OUT_MS);
    return () => window.clearTimeout(timer);
  }, [open]);

  if (!present && !open) return null;
  return <Panels closing={!open} targetRef={targetRef} zIndex={zIndex} onClose={onClose} />;
}

function Panels({
  closing,
  targetRef,
  zIndex,
  onClose,
}: {
  closing: boolean;
  targetRef: RefObject<HTMLElement | null>;
  zIndex: number;
  onClose(): void;
}) {
  const [rect, setRect] = useState<Rect | null>(null);

  useEffect(() => {
    let last: Rect | null = null;
    const measure = () => {
      const box = targetRef.current?.getBoundingClientRect();
      if (!box || sameRect(last, box)) return;
      last = { top: box.top, left: box.left, right: box.right, bottom: box.bottom };
      setRect(last);
    };
    measure();
    // Any layout shift (a banner above the header, a font arriving, a sticky header shrinking) moves the form
    // without a resize or scroll event: the poll keeps the panels on it.
    const poll = window.setInterval(measure, ALIGNMENT_POLL_MS);
    window.addEventListener('resize', measure);
    window.addEventListener('scroll', measure, true);
    return () => {
      window.clearInterval(poll);
      window.removeEventListener('resize', measure);
      window.removeEventListener('scroll', measure, true);
    };
  }, [targetRef]);

  if (!rect) return null;
  const panels = {
    top: { top: 0, left: 0, right: 0, height: Math.max(rect.top, 0) },
    bottom: { top: rect.bottom, left: 0, right: 0, bottom: 0 },
    left: { top: rect.top, left: 0, width: Math.max(rect.left, 0), height: rect.bottom - rect.top },
    right: { top: rect.top, left: rect.right, right: 0, height: rect.bottom - rect.top },
  };
  return (
    <>
      {Object.entries(panels).map(([side, style]) => (
        // biome-ignore lint/a11y/noStaticElementInteractions: a pointer-only backdrop; Escape closes the search from the keyboard
        // biome-ignore lint/a11y/useKeyWithClickEvents: see above
        <div
          key={side}
          className={`shop-search__darken shop-search__darken--${side}${closing ? ' is-closing' : ''}`}
          style={{ ...style, zIndex }}
          onClick={onClose}
        />
      ))}
    </>
  );
}
