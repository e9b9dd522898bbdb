import type { ReactNode } from 'react';
import type { CartView } from '../../shared/cart/cartTypes';
import { CartDrawer } from '../cart/CartDrawer';
import { HeaderCartLink } from '../cart/HeaderCartLink';
import { Island, type IslandMarkup, PrerenderedIsland } from '../Island';
import { useShopSettings } from '../ShopSettingsContext';
import SearchBox from '../search/SearchBox';
import ComingSoonBanner from './ComingSoonBanner';
import { HeaderSearch } from './HeaderSearch';
import { hiddenElementsCss } from './hiddenElementsCss';
import { type Notice, Notices } from './Notices';
import ScrollToTop from './ScrollToTop';
import StoreNotice from './StoreNotice';

/** What the server knows about the visitor and the page that the theme's frame needs. */
export interface ThemePageState {
  /** The visitor dismissed the store notice (its cookie says `hidden`). */
  storeNoticeDismissed: boolean;
  /** The visitor dismissed the coming-soon banner (stored by the REST route). */
  comingSoonDismissed: boolean;
  /** The product or page id this page shows, for the element-hiding data. */
  objectId: number | null;
}

export interface LayoutProps {
  cart: CartView;
  /** The header menu island, rendered once per catalog version (server/render/islandMarkup.ts `headerMenuMarkup`). */
  headerMenu: IslandMarkup;
  searchQuery?: string;
  notices?: Notice[];
  theme?: ThemePageState;
  children: ReactNode;
}

const NO_THEME_STATE: ThemePageState = {
  storeNoticeDismissed: false,
  comingSoonDismissed: false,
  objectId: null,
};

/** The theme's frame around every page: skip link, header with menu, search and cart, and the footer. */
export function Layout({
  cart,
  headerMenu,
  searchQuery = '',
  notices = [],
  theme: state = NO_THEME_STATE,
  children,
}: LayoutProps) {
  const { shop, theme, rest } = useShopSettings();
  const hiddenCss = hiddenElementsCss(theme.hiddenElements, state.objectId);
  return (
    <>
      {/* Element-hiding data, server-rendered so nothing flashes; class names are escaped by hiddenElementsCss. */}
      {hiddenCss && <style>{hiddenCss}</style>}
      <script
        id="header-mode"
        // biome-ignore lint/security/noDangerouslySetInnerHtml: a constant script with a validated integer; it sets the header mode before the first paint (the rule is headerMode.ts), so small screens never see the desktop menu flash
        dangerouslySetInnerHTML={{
          __html: `document.documentElement.dataset.headerMode=innerWidth<${Number(theme.breakpoint)}?'breakpoint':'desktop'`,
        }}
      />
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      {theme.storeNotice.enabled && theme.storeNotice.text !== '' && !state.storeNoticeDismissed && (
        <Island
          name="storeNotice"
          component={StoreNotice}
          props={{ id: theme.storeNotice.id, text: theme.storeNotice.text }}
        />
      )}
      <header className={`site-header${theme.stickyHeader ? ' site-header--sticky' : ''}`}>
        <div className="site-header__inner">
          <a href="/" className="site-title" rel="home">
            {shop.name}
          </a>
          <PrerenderedIsland markup={headerMenu} />
          <HeaderSearch>
            <Island name="searchBox" component={SearchBox} props={{ initialQuery: searchQuery }} />
          </HeaderSearch>
          <HeaderCartLink cart={cart} />
        </div>
      </header>
      <CartDrawer cart={cart} />
      <main id="main" className="site-main" tabIndex={-1}>
        <Notices notices={notices} />
        {children}
      </main>
      <footer className="site-footer" id="colophon">
        <p>
          © {shop.name} · {shop.tagline}
        </p>
        <nav aria-label="Footer">
          <ul>
            <li>
              <a href="/about/">About us</a>
            </li>
            <li>
              <a href="/shipping-and-returns/">Shipping &amp; returns</a>
            </li>
            <li>
              <a href="/journal/">Journal</a>
            </li>
          </ul>
        </nav>
      </footer>
      {theme.comingSoon.enabled && !state.comingSoonDismissed && (
        <Island
          name="comingSoonBanner"
          component={ComingSoonBanner}
          props={{ restUrl: `${rest.root.replace(/\/?$/, '/')}wp/v2/users/me` }}
        />
      )}
      <Island name="scrollToTop" component={ScrollToTop} props={{}} />
    </>
  );
}
