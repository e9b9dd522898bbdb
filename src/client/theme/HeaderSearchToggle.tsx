import { useEffect, useRef, useState } from 'react';
import { useShopSettings } from '../ShopSettingsContext';

export interface HeaderSearchToggleProps {
  /** The dropdown panel the button opens; rendered by `HeaderSearch` outside this island so it can hold any field. */
  panelId: string;
}

/**
 * The header's "Search" icon button. It toggles the
 * panel's `is-active` class; the panel is server-rendered markup beside this island, so the search box island
 * that fills it hydrates on its own. Escape or a click outside closes it.
 */
export default function HeaderSearchToggle({ panelId }: HeaderSearchToggleProps) {
  const { i18n } = useShopSettings();
  const [active, setActive] = useState(false);
  const buttonRef = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    const panel = document.getElementById(panelId);
    if (!panel) return;
    panel.classList.toggle('is-active', active);
    if (!active) return;
    panel.querySelector<HTMLElement>('input:not([type="hidden"]), select, textarea, button')?.focus();
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key !== 'Escape' || event.defaultPrevented) return;
      setActive(false);
      buttonRef.current?.focus();
    };
    const onPointerDown = (event: PointerEvent) => {
      const target = event.target as Node;
      if (!panel.contains(target) && !buttonRef.current?.contains(target)) setActive(false);
    };
    panel.addEventListener('keydown', onKeyDown);
    document.addEventListener('pointerdown', onPointerDown);
    return () => {
      panel.removeEventListener('keydown', onKeyDown);
      document.removeEventListener('pointerdown', onPointerDown);
    };
  }, [active, panelId]);

  return (
    <button
      ref={buttonRef}
      type="button"
      className={`search-toggle${active ? ' is-active' : ''}`}
      aria-expanded={active}
      aria-controls={panelId}
      onClick={() => setActive((value) => !value)}
    >
      <svg className="search-toggle__icon" viewBox="0 0 24 24" width="20" height="20" aria-hidden="true">
        <circle cx="10.5" cy="10.5" r="6.5" fill="none" stroke="currentColor" strokeWidth="2" />
        <path d="M15.5 15.5 21 21" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
      </svg>
      <span className="screen-reader-text">{i18n.search}</span>
    </button>
  );
}
