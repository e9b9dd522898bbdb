import type { Post, ProductSummary } from '../../shared/catalog/types';
import { postUrl } from '../../shared/catalog/urls';
import { ProductGrid } from '../catalog/ProductCard';
import { useShopSettings } from '../ShopSettingsContext';

export function HomePage({ featured, posts }: { featured: ProductSummary[]; posts: Post[] }) {
  const { shop } = useShopSettings();
  return (
    <>
      <section className="hero">
        <h1>{shop.name}</h1>
        <p>{shop.tagline}</p>
        <a className="button" href="/shop/">
          Browse the shop
        </a>
      </section>
      <section aria-labelledby="featured-heading">
        <h2 id="featured-heading">Featured products</h2>
        <ProductGrid products={featured} />
      </section>
      {posts.length > 0 && (
        <section aria-labelledby="journal-heading" className="home-posts">
          <h2 id="journal-heading">From the journal</h2>
          <ul className="post-list">
            {posts.map((post) => (
              <li key={post.id}>
                <a href={postUrl(post.slug)}>{post.title}</a>
                <p>{post.excerpt}</p>
              </li>
            ))}
          </ul>
        </section>
      )}
    </>
  );
}
