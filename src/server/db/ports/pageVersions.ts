/**
 * The version of everything an anonymous page shows, read from the catalog change feed (`search_changes`, which
 * every catalog write appends to through triggers) and the search rules' revision. The render cache of every
 * process compares it to the version its pages were rendered at (src/server/render/pageCache).
 */
export interface PageVersionRepository {
  /** Changes whenever a committed write could change a catalog page; cheap enough to ask several times a second. */
  catalogVersion(): Promise<string>;
}
