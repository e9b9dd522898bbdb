import type { ReactNode } from 'react';

/*
 * The back office's frame inside the shop's layout: a skip link, the owner's navigation (Orders, Products,
 * Reviews, Insights, API keys, Webhooks) and the log-out buttons, then the page. Plain links and forms: it works
 * without JavaScript, by keyboard and at phone width (the navigation wraps).
 */

export type AdminSection = 'orders' | 'products' | 'reviews' | 'insights' | 'api' | 'webhooks';

const SECTIONS: { key: AdminSection; label: string; href: string }[] = [
  { key: 'orders', label: 'Orders', href: '/admin/orders/' },
  { key: 'products', label: 'Products', href: '/admin/products/' },
  { key: 'reviews', label: 'Reviews', href: '/admin/reviews/' },
  { key: 'insights', label: 'Insights', href: '/insights/' },
  { key: 'api', label: 'API keys', href: '/admin/settings/api/' },
  { key: 'webhooks', label: 'Webhooks', href: '/admin/settings/webhooks/' },
];

export const ADMIN_LOGOUT_PATH = '/admin/logout';

export function AdminLayout({
  title,
  current,
  csrf,
  children,
}: {
  /** The page's heading, also the skip link's target name. */
  title: string;
  current: AdminSection;
  /** The log-out forms' nonce (action `admin_logout`). */
  csrf: string;
  children: ReactNode;
}) {
  return (
    <div className="admin">
      <a className="skip-link admin__skip" href="#admin-main">
        Skip to {title}
      </a>
      <header className="admin__header">
        <nav className="admin__nav" aria-label="Back office">
          <ul>
            {SECTIONS.map((section) => (
              <li key={section.key}>
                <a href={section.href} aria-current={section.key === current ? 'page' : undefined}>
                  {section.label}
                </a>
              </li>
            ))}
          </ul>
        </nav>
        <div className="admin__logout">
          <form method="post" action={ADMIN_LOGOUT_PATH}>
            <input type="hidden" name="_wpnonce" value={csrf} />
            <button type="submit">Log out</button>
          </form>
          <form method="post" action={ADMIN_LOGOUT_PATH}>
            <input type="hidden" name="_wpnonce" value={csrf} />
            <input type="hidden" name="everywhere" value="1" />
            <button type="submit" className="admin__link-button">
              Log out everywhere
            </button>
          </form>
        </div>
      </header>
      <div id="admin-main" className="admin__main" tabIndex={-1}>
        <h1>{title}</h1>
        {children}
      </div>
    </div>
  );
}
