// @vitest-environment happy-dom
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { AdminField, AdminFieldMessages, adminFieldControl, fieldDescribedBy } from './AdminField';

/* The wiring a screen reader reads a back-office field by, checked on the rendered HTML as the browser gets it. */

function render(element: React.ReactElement): HTMLElement {
  const host = document.createElement('div');
  host.innerHTML = renderToStaticMarkup(element);
  return host;
}

/** The texts the control is described by, in the order a screen reader reads them. */
function descriptionOf(host: HTMLElement, control: Element): string[] {
  const ids = control.getAttribute('aria-describedby')?.split(' ') ?? [];
  return ids.map((id) => {
    const target = host.querySelector(`#${id}`);
    expect(target, `aria-describedby points at a missing #${id}`).not.toBeNull();
    return target?.textContent ?? '';
  });
}

const field = (props: { error?: string | null; hint?: string }) =>
  render(
    <AdminField id="shop-name" label="Shop name" {...props}>
      {(control) => <input {...control} name="name" type="text" />}
    </AdminField>,
  );

describe('AdminField', () => {
  it('names the control by its label and describes it by nothing when there is no hint and no error', () => {
    const host = field({});
    const input = host.querySelector('input') as HTMLInputElement;
    const label = host.querySelector('label') as HTMLLabelElement;
    expect(label.htmlFor).toBe('shop-name');
    expect(input.id).toBe('shop-name');
    expect(label.textContent).toBe('Shop name');
    expect(input.hasAttribute('aria-describedby')).toBe(false);
    expect(input.hasAttribute('aria-invalid')).toBe(false);
    expect(host.querySelector('.admin-field')?.className).toBe('admin-field');
  });

  it('describes the control by its hint, and does not mark it invalid', () => {
    const host = field({ hint: 'Shown in the title bar.' });
    const input = host.querySelector('input') as HTMLInputElement;
    expect(descriptionOf(host, input)).toEqual(['Shown in the title bar.']);
    expect(input.hasAttribute('aria-invalid')).toBe(false);
  });

  it('with an error: marks the control invalid and describes it by the error first, then the hint', () => {
    const host = field({ error: 'Give the shop a name.', hint: 'Shown in the title bar.' });
    const input = host.querySelector('input') as HTMLInputElement;
    expect(input.getAttribute('aria-invalid')).toBe('true');
    expect(descriptionOf(host, input)).toEqual(['Give the shop a name.', 'Shown in the title bar.']);
    expect(host.querySelector('.admin-field')?.classList.contains('admin-field--invalid')).toBe(true);
    expect(host.querySelector('.admin-field__error')?.textContent).toBe('Give the shop a name.');
  });

  it('with an error and no hint: describes the control by the error alone', () => {
    const host = field({ error: 'Give the shop a name.' });
    const input = host.querySelector('input') as HTMLInputElement;
    expect(input.getAttribute('aria-invalid')).toBe('true');
    expect(descriptionOf(host, input)).toEqual(['Give the shop a name.']);
    expect(host.querySelector('.admin-field__hint')).toBeNull();
  });

  it('treats a null error (a form that was not refused) as no error', () => {
    const host = field({ error: null });
    const input = host.querySelector('input') as HTMLInputElement;
    expect(input.hasAttribute('aria-invalid')).toBe(false);
    expect(host.querySelector('.admin-field__error')).toBeNull();
  });

  it('wires a control outside a labelled block (a table cell) the same way', () => {
    const host = render(
      <>
        <input {...adminFieldControl('v9_sku', 'Already used.')} aria-label="SKU of Red" />
        <AdminFieldMessages id="v9_sku" error="Already used." />
      </>,
    );
    const input = host.querySelector('input') as HTMLInputElement;
    expect(input.getAttribute('aria-invalid')).toBe('true');
    expect(descriptionOf(host, input)).toEqual(['Already used.']);
  });

  it('describes a group of checkboxes by its error, without marking the group invalid', () => {
    const host = render(
      <fieldset aria-describedby={fieldDescribedBy('product-categories', 'Choose at most 10.')}>
        <legend>Categories</legend>
        <AdminFieldMessages id="product-categories" error="Choose at most 10." />
      </fieldset>,
    );
    const group = host.querySelector('fieldset') as HTMLFieldSetElement;
    expect(descriptionOf(host, group)).toEqual(['Choose at most 10.']);
    expect(fieldDescribedBy('product-categories', undefined)).toBeUndefined();
  });
});
