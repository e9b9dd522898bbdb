// @vitest-environment happy-dom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

const SETTINGS = (hardMode: boolean) =>
  `<script id="shop-settings" type="application/json">${JSON.stringify({ search: { selfRepairHardMode: hardMode } })}</script>`;

let stop = () => {};

async function load(hardMode = false) {
  document.body.innerHTML = `${SETTINGS(hardMode)}<div data-island="searchBox" id="first" data-props="{}"></div>`;
  const module = await import('./startSelfRepair');
  const mount = vi.fn(async () => {});
  stop = module.startSelfRepair(mount);
  expect(module.startSelfRepair(mount)).toBeTypeOf('function');
  return { ...module, mount };
}

function addBox(html = '<div data-island="searchBox" data-props=\'{"initialQuery":"mug"}\'></div>') {
  const wrapper = document.createElement('div');
  wrapper.innerHTML = html;
  document.body.append(wrapper);
  return wrapper.firstElementChild as HTMLElement;
}

beforeEach(() => vi.useFakeTimers());
afterEach(() => {
  stop();
  vi.useRealTimers();
});

describe('startSelfRepair', () => {
  it('mounts boxes added after load once each, never the ones entry.tsx hydrates', async () => {
    const { mount } = await load();
    const late = addBox();
    await vi.advanceTimersByTimeAsync(600);
    expect(mount).toHaveBeenCalledTimes(1);
    expect(mount).toHaveBeenCalledWith(
      late,
      { initialQuery: 'mug' },
      expect.objectContaining({ search: expect.anything() }),
    );
    addBox('<p>unrelated</p>');
    await vi.advanceTimersByTimeAsync(600);
    expect(mount).toHaveBeenCalledTimes(1);
  });

  it('rescans every second in hard mode, and about 11 times after a back-arrow restore', async () => {
    const { mount } = await load(true);
    const spy = vi.spyOn(document, 'querySelectorAll');
    await vi.advanceTimersByTimeAsync(3000);
    const hardModeScans = spy.mock.calls.filter(
      ([selector]) => selector === '[data-island="searchBox"]',
    ).length;
    expect(hardModeScans).toBeGreaterThanOrEqual(3);
    spy.mockClear();
    const event = new Event('pageshow') as Event & { persisted: boolean };
    Object.defineProperty(event, 'persisted', { value: true });
    window.dispatchEvent(event);
    await vi.advanceTimersByTimeAsync(5600);
    const scans = spy.mock.calls.filter(([selector]) => selector === '[data-island="searchBox"]').length;
    // 11 back-arrow checks plus the 5 hard-mode ticks in the same 5.6 s.
    expect(scans).toBe(16);
    expect(mount).not.toHaveBeenCalled();
  });

  it('fires update_checkout after add-to-cart on the checkout page with a search box', async () => {
    await load();
    const onUpdate = vi.fn();
    document.addEventListener('update_checkout', onUpdate);
    document.dispatchEvent(new CustomEvent('added_to_cart'));
    expect(onUpdate).not.toHaveBeenCalled();
    addBox('<form class="checkout"></form>');
    addBox('<div class="shop-search"></div>');
    document.dispatchEvent(new CustomEvent('added_to_cart'));
    expect(onUpdate).toHaveBeenCalledTimes(1);
  });
});

describe('renameDuplicateIds', () => {
  it('gives ids already on the page a random 4-character suffix and follows the references', async () => {
    const { renameDuplicateIds } = await load();
    document.body.insertAdjacentHTML('beforeend', '<input id="q">');
    const box = addBox(
      '<div><label for="q">Search</label><input id="q" aria-controls="list"><ul id="list"></ul></div>',
    );
    renameDuplicateIds(box);
    const input = box.querySelector('input') as HTMLInputElement;
    expect(input.id).toMatch(/^q-[a-z0-9]{4}$/);
    expect(box.querySelector('label')?.getAttribute('for')).toBe(input.id);
    expect(box.querySelector('ul')?.id).toBe('list');
    expect(input.getAttribute('aria-controls')).toBe('list');
  });
});
