import { type RefObject, useEffect, useState } from 'react';

interface Rect {
  top: number;
  left: number;
  right: number;
  bottom: number;
}

/**
 * The darkened page overlay (SPEC.md §2 item 4): four fixed panels around the search form, so the form itself
 * stays bright and clickable. A click on any panel closes the search.
 */
export function DarkenedOverlay({
  targetRef,
  zIndex,
  onClose,
}: {
  targetRef: RefObject<HTMLElement | null>;
  zIndex: number;
  onClose(): void;
}) {
  const [rect, setRect] = useState<Rect | null>(null);

  useEffect(() => {
    const measure = () => {
      const box = targetRef.current?.getBoundingClientRect();
      if (box) setRect({ top: box.top, left: box.left, right: box.right, bottom: box.bottom });
    };
    measure();
    window.addEventListener('resize', measure);
    window.addEventListener('scroll', measure, true);
    return () => {
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
          className={`shop-search__darken shop-search__darken--${side}`}
          style={{ ...style, zIndex }}
          onClick={onClose}
        />
      ))}
    </>
  );
}
