import type { Post } from '../../../shared/catalog/types';

export interface PostListQuery {
  type: Post['type'];
  page: number;
  perPage: number;
  /** Matched against title, excerpt and content; a password-protected post against its title only. */
  search?: string;
}

/** Posts and pages as the REST API lists them (wp/v2/posts, wp/v2/pages): newest first, paginated. */
export interface PostRepository {
  listPage(query: PostListQuery): Promise<{ items: Post[]; total: number }>;
  getById(type: Post['type'], id: number): Promise<Post | null>;
}
