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
