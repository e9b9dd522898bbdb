export interface MediaSize {
  /** Path under the uploads folder, `YYYY/MM/name-WxH.ext`. */
  file: string;
  width: number;
  height: number;
  mimeType: string;
  filesize: number;
}

export interface MediaAttachment {
  id: number;
  slug: string;
  title: string;
  altText: string;
  mimeType: string;
  /** The original's path under the uploads folder, `YYYY/MM/name.ext`. */
  file: string;
  filesize: number;
  width: number;
  height: number;
  sizes: Record<string, MediaSize>;
  /** False until every sub-size exists: the upload still needs its post-processing. */
  subsizesDone: boolean;
  createdAt: string;
}

export type NewMediaAttachment = Omit<MediaAttachment, 'id' | 'sizes' | 'subsizesDone' | 'createdAt'>;

export interface MediaRepository {
  create(attachment: NewMediaAttachment): Promise<MediaAttachment>;
  get(id: number): Promise<MediaAttachment | null>;
  setSizes(id: number, sizes: Record<string, MediaSize>, done: boolean): Promise<void>;
  update(id: number, changes: { title?: string; altText?: string }): Promise<void>;
  delete(id: number): Promise<boolean>;
}
