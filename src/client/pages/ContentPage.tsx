import type { Post } from '../../shared/catalog/types';
import { postUrl } from '../../shared/catalog/urls';

interface ContentPageProps {
  post: Post;
  /** False for a password-protected page whose password the visitor has not given. */
  unlocked: boolean;
  wrongPassword: boolean;
  nonce: string;
}

/** A post or a page; a protected page shows its password form (with a show/hide toggle) until unlocked. */
export function ContentPage({ post, unlocked, wrongPassword, nonce }: ContentPageProps) {
  return (
    <article className={`entry entry--${post.type}`}>
      <header>
        <h1>{post.title}</h1>
        {post.type === 'post' && <time dateTime={post.publishedAt}>{post.publishedAt.slice(0, 10)}</time>}
      </header>
      {unlocked ? (
        // biome-ignore lint/security/noDangerouslySetInnerHtml: sanitized when written (sanitizeRichText)
        <div className="entry-content" dangerouslySetInnerHTML={{ __html: post.content }} />
      ) : (
        <form method="post" action={postUrl(post.slug)} className="post-password-form">
          <p>This content is password protected. To view it please enter your password below:</p>
          {wrongPassword && (
            <p className="notice notice--error" role="alert">
              The password you entered is not correct.
            </p>
          )}
          <label htmlFor="post-password">Password</label>
          <input
            id="post-password"
            type="password"
            name="post_password"
            autoComplete="current-password"
            required
          />
          <input type="hidden" name="_wpnonce" value={nonce} />
          <button type="submit">Enter</button>
        </form>
      )}
    </article>
  );
}

export function PostListPage({ title, posts }: { title: string; posts: Post[] }) {
  return (
    <section>
      <h1>{title}</h1>
      <ul className="post-list">
        {posts.map((post) => (
          <li key={post.id}>
            <h2>
              <a href={postUrl(post.slug)}>{post.title}</a>
            </h2>
            <p>{post.excerpt}</p>
          </li>
        ))}
      </ul>
    </section>
  );
}
