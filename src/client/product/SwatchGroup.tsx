import { type KeyboardEvent, useRef } from 'react';
import type { ProductAttribute } from '../../shared/catalog/types';
import { resolveSwatchType } from './resolveSwatchType';

/** What the form decided about one value of this attribute. */
export interface SwatchValueView {
  /** No-stock styling: sold out but clickable (`swatches.clickableOutOfStock`). */
  noStock: boolean;
  /** Greyed out: impossible with the other choices, or sold out and not clickable. */
  unavailable: boolean;
  /** Activating it does nothing (aria-disabled); false for an unavailable value deselect-unavailable can still pick. */
  inert: boolean;
  /** Why it is unavailable or sold out, for the accessible description and the tooltip. */
  description: string | null;
}

interface SwatchGroupProps {
  attribute: ProductAttribute;
  labelId: string;
  idPrefix: string;
  selected: string;
  views: Record<string, SwatchValueView>;
  onActivate(value: string): void;
  /**
   * Before the form hydrates: the same swatches drawn around native radios of this field name, so a shopper without
   * JavaScript chooses with them and the form posts the choice; hydration then swaps each for its ARIA radio in
   * place, of the same size.
   */
  nativeField?: string;
}

/**
 * One attribute as a WAI-ARIA radio group (https://www.w3.org/WAI/ARIA/apg/patterns/radio/): one tab stop on the
 * checked swatch (else the first operable one), arrow keys move and select within the group skipping inert values,
 * Space and Enter activate.
 */
export function SwatchGroup({
  attribute,
  labelId,
  idPrefix,
  selected,
  views,
  onActivate,
  nativeField,
}: SwatchGroupProps) {
  const refs = useRef(new Map<string, HTMLElement>());
  const values = attribute.options.map((option) => option.slug);
  const operable = values.filter((value) => !views[value]?.inert);
  const tabStop = values.includes(selected) ? selected : (operable[0] ?? values[0]);

  function move(from: string, step: 1 | -1 | 'first' | 'last') {
    if (operable.length === 0) return;
    let target: string | undefined;
    if (step === 'first') target = operable[0];
    else if (step === 'last') target = operable.at(-1);
    else {
      const start = values.indexOf(from);
      for (let offset = 1; offset <= values.length && !target; offset++) {
        const candidate = values[(start + step * offset + values.length * offset) % values.length] as string;
        if (!views[candidate]?.inert) target = candidate;
      }
    }
    if (!target) return;
    refs.current.get(target)?.focus();
    if (target !== selected) onActivate(target);
  }

  function getSwatchProps(value: string, name: string) {
    const view = views[value];
    const checked = value === selected;
    const descriptionId = view?.description ? `${idPrefix}-${value}-why` : undefined;
    return {
      role: 'radio',
      'aria-checked': checked,
      'aria-disabled': view?.inert ?? false,
      'aria-describedby': descriptionId,
      tabIndex: value === tabStop ? 0 : -1,
      title: view?.description ? `${name}: ${view.description}` : name,
      className: [
        'swatch',
        checked && 'swatch--selected',
        view?.unavailable && 'swatch--disabled',
        view?.noStock && 'swatch--no-stock',
      ]
        .filter(Boolean)
        .join(' '),
      ref: (element: HTMLElement | null) => {
        if (element) refs.current.set(value, element);
        else refs.current.delete(value);
      },
      onClick: () => {
        if (!view?.inert) onActivate(value);
      },
      onKeyDown: (event: KeyboardEvent) => {
        const keys: Record<string, 1 | -1 | 'first' | 'last'> = {
          ArrowRight: 1,
          ArrowDown: 1,
          ArrowLeft: -1,
          ArrowUp: -1,
          Home: 'first',
          End: 'last',
        };
        const step = keys[event.key];
        if (step !== undefined) {
          event.preventDefault();
          move(value, step);
        } else if (event.key === ' ' || event.key === 'Enter') {
          // Enter must not submit the form around the group, and Space must not scroll the page.
          event.preventDefault();
          if (!view?.inert) onActivate(value);
        }
      },
    };
  }

  const face = (option: ProductAttribute['options'][number], type: string) => (
    <>
      {type === 'color' && (
        <span className="swatch__color" style={{ backgroundColor: option.color ?? undefined }} />
      )}
      {type === 'image' && option.image && (
        <img className="swatch__image" src={option.image} alt="" width={40} height={40} />
      )}
      {type === 'radio' && <span className="swatch__radio" aria-hidden="true" />}
      <span className={type === 'color' || type === 'image' ? 'screen-reader-text' : 'swatch__label'}>
        {option.name}
      </span>
    </>
  );

  if (nativeField !== undefined) {
    return (
      <div role="radiogroup" aria-labelledby={labelId} className="swatches">
        {attribute.options.map((option) => {
          const type = resolveSwatchType(attribute, option);
          return (
            <label key={option.slug} className="swatch" data-swatch-type={type} title={option.name}>
              <input
                type="radio"
                className="swatch__input"
                name={nativeField}
                value={option.slug}
                defaultChecked={option.slug === selected}
                // Chosen between hydration and the swap to the ARIA radios: the form takes it as a click.
                onChange={() => onActivate(option.slug)}
              />
              {face(option, type)}
            </label>
          );
        })}
      </div>
    );
  }

  return (
    <>
      <div role="radiogroup" aria-labelledby={labelId} className="swatches">
        {attribute.options.map((option) => {
          const type = resolveSwatchType(attribute, option);
          return (
            <span key={option.slug} {...getSwatchProps(option.slug, option.name)} data-swatch-type={type}>
              {face(option, type)}
            </span>
          );
        })}
      </div>
      {/* Outside the radios so it describes them without joining their names; aria-describedby reads hidden text. */}
      <div hidden>
        {attribute.options.map((option) => {
          const description = views[option.slug]?.description;
          return description ? (
            <span key={option.slug} id={`${idPrefix}-${option.slug}-why`}>
              {description}
            </span>
          ) : null;
        })}
      </div>
    </>
  );
}
