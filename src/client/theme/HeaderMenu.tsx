import { type KeyboardEvent, useEffect, useRef, useState, useSyncExternalStore } from 'react';
import { useShopSettings } from '../ShopSettingsContext';
import type { MenuItem } from './menuItems';
import { getViewportStore } from './viewportStore';

export interface HeaderMenuProps {
  items: MenuItem[];
}

const FOCUSABLE = 'a[href], button:not([disabled]), input:not([disabled]), select, textarea, [tabindex="0"]';

/** WAI-ARIA dialog pattern: Tab and Shift+Tab cycle inside the open popup. */
function keepFocusInside(container: HTMLElement, event: KeyboardEvent) {
  if (event.key !== 'Tab') return;
  const focusable = Array.from(container.querySelectorAll<HTMLElement>(FOCUSABLE)).filter(
    (element) => element.offsetParent !== null,
  );
  const first = focusable[0];
  const last = focusable.at(-1);
  if (!first || !last) return;
  const active = container.ownerDocument.activeElement;
  if (event.shiftKey && (active === first || !container.contains(active))) {
    event.preventDefault();
    last.focus();
  } else if (!event.shiftKey && (active === last || !container.contains(active))) {
    event.preventDefault();
    first.focus();
  }
}

/*
 * Ids are derived from the menu's structure, not `useId`: the server renders an island inside the whole page
 * while the browser hydrates it as its own root, so `useId` would give the two different ids.
 */
const NAV_ID = 'site-navigation';

function Submenu({ item, id }: { item: MenuItem; id: string }) {
  const [expanded, setExpanded] = useState(false);
  return (
    <li
      className={`menu-item menu-item-has-children${expanded ? ' is-expanded' : ''}`}
      onKeyDown={(event) => {
        if (event.key === 'Escape' && expanded) {
          // Close this submenu only; the menu and popup stay open (they skip a handled Escape).
          event.preventDefault();
          setExpanded(false);
          event.currentTarget.querySelector<HTMLElement>('.submenu-toggle')?.focus();
        }
      }}
    >
      <a href={item.url}>{item.label}</a>
      <button
        type="button"
        className="submenu-toggle"
        aria-expanded={expanded}
        aria-controls={id}
        onClick={() => setExpanded((value) => !value)}
      >
        <span className="screen-reader-text">{item.label} submenu</span>
        <span className="submenu-toggle__icon" aria-hidden="true" />
      </button>
      <ul id={id} className="sub-menu">
        {item.children.map((child, index) => (
          <MenuEntry key={child.url} item={child} id={`${id}-${index}`} />
        ))}
      </ul>
    </li>
  );
}

function MenuEntry({ item, id }: { item: MenuItem; id: string }) {
  if (item.children.length > 0) return <Submenu item={item} id={id} />;
  return (
    <li className="menu-item">
      <a href={item.url}>{item.label}</a>
    </li>
  );
}

/**
 * The header menu: desktop dropdown submenus (hover, keyboard focus and a toggle button); in
 * breakpoint mode the "Menu" button opens it as a dropdown or as an off-canvas popup (`theme.mobileMenu`) that
 * closes by its close button, Escape or an overlay click and keeps focus inside while open. Without JavaScript
 * the menu is simply shown (the theme CSS hides the button until `data-header-mode` is set).
 */
export default function HeaderMenu({ items }: HeaderMenuProps) {
  const { theme, i18n } = useShopSettings();
  const viewport = getViewportStore(theme.breakpoint);
  const mode = useSyncExternalStore(
    viewport.subscribe,
    () => viewport.getState().mode,
    () => 'desktop' as const,
  );
  const [open, setOpen] = useState(false);
  const navId = NAV_ID;
  const toggleRef = useRef<HTMLButtonElement>(null);
  const panelRef = useRef<HTMLDivElement>(null);
  const popup = theme.mobileMenu === 'offcanvas' && mode === 'breakpoint';

  // Leaving breakpoint mode closes the mobile menu: desktop mode has none.
  useEffect(() => {
    if (mode === 'desktop') setOpen(false);
  }, [mode]);

  // The popup takes focus when it opens; the page behind it does not scroll.
  useEffect(() => {
    if (!popup || !open) return;
    panelRef.current?.querySelector<HTMLElement>('.menu-popup__close')?.focus();
    const root = document.documentElement;
    root.classList.add('menu-popup-open');
    return () => root.classList.remove('menu-popup-open');
  }, [popup, open]);

  const close = () => {
    setOpen(false);
    toggleRef.current?.focus();
  };

  // Escape closes the open menu (a submenu's Escape stops before reaching here).
  useEffect(() => {
    if (!open) return;
    const onKeyDown = (event: globalThis.KeyboardEvent) => {
      if (event.key !== 'Escape' || event.defaultPrevented) return;
      setOpen(false);
      toggleRef.current?.focus();
    };
    document.addEventListener('keydown', onKeyDown);
    return () => document.removeEventListener('keydown', onKeyDown);
  }, [open]);

  const navigation = (
    <nav id={navId} className={`main-navigation${open ? ' is-open' : ''}`} aria-label="Main">
      <ul className="menu">
        {items.map((item, index) => (
          <MenuEntry key={item.url} item={item} id={`submenu-${index}`} />
        ))}
      </ul>
    </nav>
  );

  return (
    <div className="header-menu">
      <button
        ref={toggleRef}
        type="button"
        className="menu-toggle"
        aria-expanded={open}
        aria-controls={navId}
        onClick={() => setOpen((value) => !value)}
      >
        <span className="menu-toggle__icon" aria-hidden="true" />
        {i18n.menu}
      </button>
      {popup ? (
        <div className={`menu-popup${open ? ' is-active' : ''}`} hidden={!open}>
          {/* The overlay is a pointer convenience; keyboard users have Escape and the close button. */}
          {/* biome-ignore lint/a11y/noStaticElementInteractions: the overlay only mirrors the close button */}
          {/* biome-ignore lint/a11y/useKeyWithClickEvents: Escape and the close button cover the keyboard */}
          <div className="menu-popup__overlay" onClick={close} />
          <div
            ref={panelRef}
            className="menu-popup__panel"
            role="dialog"
            aria-modal="true"
            aria-label={i18n.menu}
            onKeyDown={(event) => panelRef.current && keepFocusInside(panelRef.current, event)}
          >
            <button type="button" className="menu-popup__close" onClick={close}>
              {i18n.close}
              <span className="screen-reader-text"> {i18n.menu.toLowerCase()}</span>
            </button>
            {navigation}
          </div>
        </div>
      ) : (
        navigation
      )}
    </div>
  );
}
