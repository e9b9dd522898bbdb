/** The search box island's props: what the server renders into `data-props` and self-repair reads back. */
export interface SearchBoxProps {
  /** The query the page was rendered for (the results page fills the box with it). */
  initialQuery?: string;
}
