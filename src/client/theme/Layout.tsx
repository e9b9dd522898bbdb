import type { ReactNode } from 'react';
import type { CartView } from '../../shared/cart/cartTypes';
import type { Term } from '../../shared/catalog/types';
import { termUrl } from '../../shared/catalog/urls';
import { HeaderCartLink } from '../cart/HeaderCartLink';
import { Island } from '../Island';
import { useShopSettings } from '../ShopSettingsContext';
import SearchBox from '../search/SearchBox';
import { type Notice, Notices } from './Notices';

export interface LayoutProps {
  cart: CartView;
  categories: Term[];
  searchQuery?: string;
  notices?: Notice[];
  children: ReactNode;
}

/** The theme's frame around every page: skip link, header with menu, search and cart, and the footer. */
export function Layout({ cart, categories, searchQuery = '', notices = [], children }: LayoutProps) {
  const { shop } = useShopSettings();
  const topCategories = categories.filter((category) => category.parentId === null);
  return (
    <>
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <header className="site-header">
        <div className="site-header__inner">
          <a href="/" className="site-title" rel="home">
            {shop.name}
          </a>
          <nav className="main-navigation" aria-label="Main">
            <ul>
              <li>
                <a href="/shop/">Shop</a>
              </li>
              {topCategories.map((category) => (
                <li key={category.id}>
                  <a href={termUrl(category)}>{category.name}</a>
                </li>
              ))}
              <li>
                <a href="/about/">About</a>
              </li>
            </ul>
          </nav>
          <Island name="searchBox" component={SearchBox} props={{ initialQuery: searchQuery }} />
          <HeaderCartLink cart={cart} />
        </div>
      </header>
      <main id="main" className="site-main" tabIndex={-1}>
        <Notices notices={notices} />
        {children}
      </main>
      <footer className="site-footer">
        <p>
          © {shop.name} · {shop.tagline}
        </p>
        <nav aria-label="Footer">
          <ul>
            <li>
              <a href="/about/">About us</a>
            </li>
            <li>
              <a href="/shipping-returns/">Shipping &amp; returns</a>
            </li>
            <li>
              <a href="/journal/">Journal</a>
            </li>
          </ul>
        </nav>
      </footer>
    </>
  );
}
