import type { AttributeOption, ProductAttribute, SwatchType } from '../../shared/catalog/types';

/**
 * How one value is drawn: its term's own type, else its attribute's. An attribute nobody configured comes in as
 * `select` (the importer's default); it is still shown as swatches, as colours when every value has a colour, as
 * images when every value has an image, else as labels, so a shop gets sensible swatches without configuring any.
 */
export function resolveSwatchType(
  attribute: ProductAttribute,
  option: AttributeOption,
): Exclude<SwatchType, 'select'> {
  const type = option.swatchType ?? attribute.swatchType;
  if (type === 'color') return option.color ? 'color' : 'label';
  if (type === 'image') return option.image ? 'image' : 'label';
  if (type !== 'select') return type;
  if (attribute.options.length > 0 && attribute.options.every((each) => each.color)) return 'color';
  if (attribute.options.length > 0 && attribute.options.every((each) => each.image)) return 'image';
  return 'label';
}
