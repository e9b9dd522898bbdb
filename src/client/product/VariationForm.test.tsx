// @vitest-environment happy-dom
import { act } from 'react';
import { createRoot, hydrateRoot, type Root } from 'react-dom/client';
import { renderToString } from 'react-dom/server';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ProductAttribute, Variation } from '../../shared/catalog/types';
import { parseSettings, toPageSettings } from '../../shared/settings/parseSettings';
import type { PageSettings } from '../../shared/settings/settingsSchema';
import { ShopSettingsContext } from '../ShopSettingsContext';
import VariationForm from './VariationForm';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

const attribute = (slug: string, name: string, values: string[]): ProductAttribute => ({
  id: 1,
  slug,
  name,
  swatchType: slug === 'logo' ? 'radio' : 'label',
  visible: true,
  forVariations: true,
  options: values.map((value) => ({
    slug: value.toLowerCase(),
    name: value,
    color: null,
    image: null,
    swatchType: null,
  })),
});

// Color × Logo, as the demo hoodie: Red/No, Green/No, Blue/No, Blue/Yes; plus Engraved, sold out wherever it exists.
const attributes = [
  attribute('color', 'Color', ['Red', 'Green', 'Blue']),
  attribute('logo', 'Logo', ['Yes', 'No', 'Engraved']),
];
const variation = (id: number, color: string, logo: string, extra: Partial<Variation> = {}): Variation => ({
  id,
  sku: null,
  attributes: { attribute_color: color, attribute_logo: logo },
  price: 50,
  regularPrice: 50,
  salePrice: null,
  is_in_stock: true,
  max_qty: null,
  variation_stock_left: null,
  image: null,
  ...extra,
});
const variations: Variation[] = [
  variation(1, 'red', 'no', { variation_stock_left: 3 }),
  variation(2, 'green', 'no', { variation_stock_left: 4 }),
  variation(3, 'blue', 'no'),
  variation(4, 'blue', 'yes'),
  variation(5, 'red', 'engraved', { is_in_stock: false }),
  variation(6, 'green', 'engraved', { is_in_stock: false }),
];

let container: HTMLDivElement;
let root: Root;
beforeEach(() => {
  container = document.createElement('div');
  document.body.append(container);
  root = createRoot(container);
  window.history.replaceState(null, '', '/product/hoodie/');
});
afterEach(() => {
  act(() => root.unmount());
  container.remove();
  vi.unstubAllGlobals();
});

function settings(overrides: object = {}): PageSettings {
  return toPageSettings(parseSettings(overrides));
}

async function render(options: { lazy?: boolean; settings?: PageSettings } = {}) {
  await act(async () =>
    root.render(
      <ShopSettingsContext value={options.settings ?? settings()}>
        <VariationForm
          productId={42}
          productName="Hoodie"
          productUrl="/product/hoodie/"
          attributes={attributes}
          variations={options.lazy ? [] : variations}
          lazy={options.lazy ?? false}
          initialChoices={{}}
        />
      </ShopSettingsContext>,
    ),
  );
}

const swatch = (group: string, name: string) => {
  const label = [...container.querySelectorAll('label')].find((each) => each.textContent === group);
  const radios = container.querySelectorAll<HTMLElement>(
    `[role="radiogroup"][aria-labelledby="${label?.id}"] [role="radio"]`,
  );
  const found = [...radios].find((radio) => radio.textContent === name);
  if (!found) throw new Error(`no swatch ${group}: ${name}`);
  return found;
};
const click = async (element: HTMLElement) => {
  await act(async () => element.click());
};
const checked = (group: string, name: string) => swatch(group, name).getAttribute('aria-checked');
const stockLine = () => container.querySelector('.single_variation .stock')?.textContent ?? null;

/** A fetch for get_variations that answers when the test says so. */
function holdVariationsFetch() {
  let answer: () => void = () => {};
  const fetch = vi.fn(
    (_url: string) =>
      new Promise<Response>((resolve) => {
        answer = () => resolve(new Response(JSON.stringify({ variations }), { status: 200 }));
      }),
  );
  vi.stubGlobal('fetch', fetch);
  return {
    fetch,
    answer: async () => {
      await act(async () => {
        answer();
        await new Promise((resolve) => setTimeout(resolve, 0));
      });
    },
  };
}

describe('a large product whose variations load lazily', () => {
  it('fetches them from the shop’s own wc-ajax address', async () => {
    const held = holdVariationsFetch();
    await render({ lazy: true, settings: settings({ cart: { wcAjaxUrl: '/shop/?wc-ajax=%%endpoint%%' } }) });
    await click(swatch('Color', 'Red'));
    expect(held.fetch).toHaveBeenCalledTimes(1);
    const url = new URL(String(held.fetch.mock.calls[0]?.[0]));
    expect(url.pathname).toBe('/shop/');
    expect(url.searchParams.get('wc-ajax')).toBe('get_variations');
    expect(url.searchParams.get('product_id')).toBe('42');
  });

  it('applies the availability rules to clicks made before the variations arrived', async () => {
    const held = holdVariationsFetch();
    await render({ lazy: true });
    await click(swatch('Color', 'Red'));
    // Red with a logo does not exist; the click lands before the variations do.
    await click(swatch('Logo', 'Yes'));
    await held.answer();
    expect(checked('Color', 'Red')).toBe('true');
    expect(checked('Logo', 'Yes')).toBe('false');
    expect(swatch('Logo', 'Yes').getAttribute('aria-disabled')).toBe('true');
    expect(container.querySelector<HTMLSelectElement>('select[name="attribute_logo"]')?.value).toBe('');
  });
});

describe('deselect-unavailable with sold-out values not clickable', () => {
  const rules = settings({ swatches: { deselectUnavailable: true, clickableOutOfStock: false } });

  it('keeps a value sold out in every variation inert, so it cannot wipe the other choices', async () => {
    await render({ settings: rules });
    await click(swatch('Color', 'Red'));
    const engraved = swatch('Logo', 'Engraved');
    expect(engraved.getAttribute('aria-disabled')).toBe('true');
    await click(engraved);
    expect(checked('Color', 'Red')).toBe('true');
    expect(checked('Logo', 'Engraved')).toBe('false');
  });

  it('still lets a value the other choices block clear them', async () => {
    await render({ settings: rules });
    await click(swatch('Color', 'Red'));
    const yes = swatch('Logo', 'Yes');
    expect(yes.getAttribute('aria-disabled')).toBe('false');
    await click(yes);
    expect(checked('Logo', 'Yes')).toBe('true');
    expect(checked('Color', 'Red')).toBe('false');
  });
});

describe('stock labels', () => {
  it('says "Only N left" up to the threshold and "N in stock" above it', async () => {
    await render({ settings: settings({ swatches: { stockLeftThreshold: 3 } }) });
    await click(swatch('Color', 'Red'));
    await click(swatch('Logo', 'No'));
    expect(stockLine()).toBe('Only 3 left in stock'); // 3 left, threshold 3: at the boundary
    await click(swatch('Color', 'Green'));
    expect(stockLine()).toBe('4 in stock'); // one above it
    await click(swatch('Color', 'Blue'));
    expect(stockLine()).toBe('In stock'); // stock not managed
  });

  it('words every visible string of the form with the page’s translation strings', async () => {
    const french = settings({
      swatches: { stockLeftThreshold: 3 },
      i18n: {
        onlyStockLeft: 'Plus que %s en stock',
        stockLeft: '%s en stock',
        clearChoices: 'Effacer',
        notAvailableWith: 'Indisponible avec %s',
        makeASelection: 'Choisissez des options.',
      },
    });
    await render({ settings: french });
    await act(async () => container.querySelector('form')?.requestSubmit());
    expect(container.querySelector('.woocommerce-variation-availability')?.textContent).toBe(
      'Choisissez des options.',
    );
    await click(swatch('Color', 'Red'));
    expect(
      document.getElementById(swatch('Logo', 'Yes').getAttribute('aria-describedby') ?? '')?.textContent,
    ).toBe('Indisponible avec Color: Red');
    await click(swatch('Logo', 'No'));
    expect(stockLine()).toBe('Plus que 3 en stock');
    await click(swatch('Color', 'Green'));
    expect(stockLine()).toBe('4 en stock');
    expect(container.querySelector('.reset_variations')?.textContent).toBe('Effacer');
  });
});

describe('radio-style swatches', () => {
  it('render a radio mark in each swatch, and the selected one is checked and styled selected', async () => {
    await render();
    const logos = ['Yes', 'No', 'Engraved'].map((name) => swatch('Logo', name));
    for (const logo of logos) {
      expect(logo.dataset.swatchType).toBe('radio');
      expect(logo.querySelector('.swatch__radio')).not.toBeNull();
      expect(logo.getAttribute('aria-checked')).toBe('false');
    }
    await click(swatch('Logo', 'No'));
    expect(swatch('Logo', 'No').getAttribute('aria-checked')).toBe('true');
    expect(swatch('Logo', 'No').classList.contains('swatch--selected')).toBe(true);
    expect(swatch('Logo', 'Yes').classList.contains('swatch--selected')).toBe(false);
  });
});

describe('before hydration (the server’s form, and a shopper without JavaScript)', () => {
  const form = () => (
    <ShopSettingsContext value={settings()}>
      <VariationForm
        productId={42}
        productName="Hoodie"
        productUrl="/product/hoodie/"
        attributes={attributes}
        variations={variations}
        lazy={false}
        initialChoices={{}}
      />
    </ShopSettingsContext>
  );
  const native = (field: string, value: string) =>
    container.querySelector<HTMLInputElement>(`input[type="radio"][name="${field}"][value="${value}"]`);

  it('draws the swatches around native radios of the posted field names, with no select to post twice', () => {
    container.innerHTML = renderToString(form());
    expect(container.querySelectorAll('input[type="radio"][name="attribute_color"]')).toHaveLength(3);
    expect(container.querySelectorAll('input[type="radio"][name="attribute_logo"]')).toHaveLength(3);
    expect(container.querySelector('select')).toBeNull();
    const group = container.querySelector('[role="radiogroup"]');
    expect(container.querySelector(`#${group?.getAttribute('aria-labelledby')}`)?.textContent).toBe('Color');
    // The same box as the swatch that replaces it: the radio lies inside it, unseen.
    expect(native('attribute_color', 'blue')?.closest('label')?.className).toBe('swatch');
  });

  it('hydrates with the choice and the focus the shopper gave a native radio before the scripts ran', async () => {
    container.innerHTML = renderToString(form());
    const red = native('attribute_color', 'red') as HTMLInputElement;
    red.checked = true;
    red.focus();
    let hydrated: Root | undefined;
    await act(async () => {
      hydrated = hydrateRoot(container, form());
    });
    expect(native('attribute_color', 'red')).toBeNull();
    expect(checked('Color', 'Red')).toBe('true');
    expect(container.querySelector<HTMLSelectElement>('select[name="attribute_color"]')?.value).toBe('red');
    expect(document.activeElement).toBe(swatch('Color', 'Red'));
    // No red hoodie has a logo: the rules apply to the choice taken over as to a click.
    expect(swatch('Logo', 'Yes').getAttribute('aria-disabled')).toBe('true');
    act(() => hydrated?.unmount());
  });
});
