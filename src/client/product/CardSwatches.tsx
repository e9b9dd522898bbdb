import { useEffect, useRef, useState } from 'react';
import { type ArchiveSwatches, attributeFieldName } from '../../shared/catalog/types';
import { useFormatMoney } from '../catalog/Price';
import { useShopSettings } from '../ShopSettingsContext';
import { SwatchGroup, type SwatchValueView } from './SwatchGroup';

export interface CardSwatchesProps {
  productId: number;
  productName: string;
  productUrl: string;
  swatches: ArchiveSwatches;
}

/**
 * Swatches on a variable product's archive card (`swatches.showOnArchive`): choosing one shows that value's image
 * and price on the card and makes the card's link preselect it on the product page. The card itself is rendered
 * on the server outside this island; only the content of its image, price and link changes here.
 */
export default function CardSwatches({ productId, productName, productUrl, swatches }: CardSwatchesProps) {
  const { swatches: rules, i18n } = useShopSettings();
  const format = useFormatMoney();
  const [selected, setSelected] = useState('');
  // Swatches that do nothing without JavaScript would mislead, so they appear once hydrated.
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  const root = useRef<HTMLDivElement>(null);
  const original = useRef<{ src: string; price: string } | null>(null);
  const { attribute } = swatches;
  const labelId = `card-swatches-${productId}-label`;

  useEffect(() => {
    const card = root.current?.closest('.product-card');
    const image = card?.querySelector<HTMLImageElement>('.product-card__link img');
    const price = card?.querySelector<HTMLElement>(':scope > .price');
    const links = card?.querySelectorAll<HTMLAnchorElement>(`a[href^="${productUrl}"]`) ?? [];
    if (!original.current)
      original.current = { src: image?.getAttribute('src') ?? '', price: price?.innerHTML ?? '' };
    const base = original.current;
    const value = swatches.values.find((each) => each.slug === selected);
    if (image) image.src = value?.image?.src ?? base.src;
    if (price) {
      if (value?.price)
        price.textContent =
          value.price.min === value.price.max
            ? format(value.price.min)
            : `${format(value.price.min)} – ${format(value.price.max)}`;
      else price.innerHTML = base.price;
    }
    const href = value
      ? `${productUrl}?${new URLSearchParams({ [attributeFieldName(attribute.slug)]: value.slug })}`
      : productUrl;
    for (const link of links) link.href = href;
  }, [selected, swatches, productUrl, attribute.slug, format]);

  const views: Record<string, SwatchValueView> = Object.fromEntries(
    swatches.values.map((value) => {
      const blocked = !value.inStock && !rules.clickableOutOfStock;
      return [
        value.slug,
        {
          noStock: !value.inStock && !blocked,
          unavailable: blocked,
          inert: blocked,
          description: value.inStock ? null : i18n.outOfStock,
        },
      ];
    }),
  );

  return (
    <div ref={root} className="card-swatches">
      <span id={labelId} className="screen-reader-text">
        {attribute.name}: {productName}
      </span>
      {hydrated && (
        <SwatchGroup
          attribute={attribute}
          labelId={labelId}
          idPrefix={`card-swatches-${productId}`}
          selected={selected}
          views={views}
          onActivate={(value) =>
            setSelected((previous) => (previous === value && rules.clearOnReselect ? '' : value))
          }
        />
      )}
    </div>
  );
}
