import type { ComponentType } from 'react';
import type { IslandName } from './islands';

/**
 * Server side of an island: renders the component in a marked container with its props, so `entry.tsx` can
 * hydrate exactly this markup with the same props.
 */
export function Island<Props extends object>({
  name,
  component: Component,
  props,
}: {
  name: IslandName;
  component: ComponentType<Props>;
  props: Props;
}) {
  return (
    <div data-island={name} data-props={JSON.stringify(props)} className="island">
      <Component {...props} />
    </div>
  );
}

/** An island rendered ahead of the page (server/render/islandMarkup.ts): its props as JSON and its inner HTML. */
export interface IslandMarkup {
  name: IslandName;
  props: string;
  html: string;
}

/**
 * The same container `<Island>` renders, around markup rendered before: for an island that is the same on every
 * page (the header menu of a catalog version), rendered once instead of on each page.
 */
export function PrerenderedIsland({ markup }: { markup: IslandMarkup }) {
  return (
    <div
      data-island={markup.name}
      data-props={markup.props}
      className="island"
      // biome-ignore lint/security/noDangerouslySetInnerHtml: React's own rendering of the island's component (islandMarkup.ts)
      dangerouslySetInnerHTML={{ __html: markup.html }}
    />
  );
}
