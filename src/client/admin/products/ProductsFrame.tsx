import { createContext, type ReactNode, useContext } from 'react';
import { AdminLayout } from '../AdminLayout';

/** The log-out forms' nonce, given once by the products plugin around every page it renders. */
export const AdminLogoutNonce = createContext('');

/** The product pages in the back office's layout (navigation on Products, the page's heading). */
export function ProductsFrame({ title, children }: { title: string; children: ReactNode }) {
  return (
    <AdminLayout title={title} current="products" csrf={useContext(AdminLogoutNonce)}>
      <div className="admin-products">{children}</div>
    </AdminLayout>
  );
}
