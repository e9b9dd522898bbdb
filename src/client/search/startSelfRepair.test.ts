// @vitest-environment happy-dom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

const SETTINGS = (hardMode: boolean) =>
  `<script id="shop-settings" type="application/json">${JSON.stringify({ search: { selfRepairHardMode: hardMode } })}</script>`;

let stop = () => {};

/** The markup a mounted box renders, trimmed to what the helper reads. */
const BOX_MARKUP =
  '<div class="shop-search"><form class="shop-search__form"><label for="q-input">Search</label><input id="q-input" name="s" value="mug" aria-controls="q-list"></form><ul id="q-list"></ul></div>';

async function load(hardMode = false, sinceLoad: () => number | null = () => 0) {
  document.body.innerHTML = `${SETTINGS(hardMode)}<div data-island="searchBox" id="first" data-props="{}"></div>`;
  const module = await import('./startSelfRepair');
  const mount = vi.fn(async (_container: HTMLElement, _props: object, _settings: unknown) => {});
  stop = module.startSelfRepair(mount, { sinceLoad });
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
  delete document.documentElement.dataset.hydrated;
  vi.useRealTimers();
  vi.restoreAllMocks();
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

describe('startSelfRepair: boxes that lost their handlers', () => {
  /** A box mounted and live, as a SearchBox registers itself, inside its island container. */
  async function liveBox(module: Awaited<ReturnType<typeof load>>) {
    const island = document.getElementById('first') as HTMLElement;
    island.innerHTML = BOX_MARKUP;
    module.registerLiveSearchBox(island.querySelector('.shop-search') as Element);
    return island;
  }

  it('mounts a copy of a live box (a header form cloned into a menu) and gives the copy new ids', async () => {
    const module = await load();
    const island = await liveBox(module);
    const menu = document.createElement('nav');
    menu.append(island.cloneNode(true));
    document.body.append(menu);
    await vi.advanceTimersByTimeAsync(0);
    expect(module.mount).toHaveBeenCalledTimes(1);
    const [container] = module.mount.mock.calls[0] as [HTMLElement, object, unknown];
    expect(menu.contains(container)).toBe(true);
    // The container's own id was copied too.
    expect(container.id).toMatch(/^first-[a-z0-9]{4}$/);
    const ids = Array.from(document.querySelectorAll('[id]'), (element) => element.id);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('mounts markup copied without its island container into a new container in its place', async () => {
    const module = await load();
    const island = await liveBox(module);
    const popup = document.createElement('div');
    popup.className = 'popup';
    popup.append((island.querySelector('.shop-search') as Element).cloneNode(true));
    document.body.append(popup);
    await vi.advanceTimersByTimeAsync(0);
    expect(module.mount).toHaveBeenCalledTimes(1);
    const [container, props] = module.mount.mock.calls[0] as [HTMLElement, object, unknown];
    expect(container.parentElement).toBe(popup);
    expect(container.dataset.island).toBe('searchBox');
    expect(props).toEqual({ initialQuery: 'mug' });
    expect(popup.querySelector('.shop-search')).toBeNull();
  });

  it('mounts a copy of a box it mounted itself (a copied marker is no reason to skip it)', async () => {
    const module = await load();
    const late = addBox();
    await vi.advanceTimersByTimeAsync(0);
    expect(module.mount).toHaveBeenCalledTimes(1);
    late.innerHTML = BOX_MARKUP;
    module.registerLiveSearchBox(late.querySelector('.shop-search') as Element);
    const copy = late.cloneNode(true) as HTMLElement;
    document.body.append(copy);
    await vi.advanceTimersByTimeAsync(0);
    expect(module.mount).toHaveBeenCalledTimes(2);
    expect(module.mount.mock.calls[1]?.[0]).toBe(copy);
  });

  it('leaves entry.tsx its boxes while they hydrate, and finds a dead one in hard mode without any DOM change', async () => {
    const module = await load(true);
    await vi.advanceTimersByTimeAsync(3000);
    expect(module.mount).not.toHaveBeenCalled();
    const island = await liveBox(module);
    // A theme script copies the box's markup over it: same nodes' look, no handlers, nothing added to watch.
    const root = island.querySelector('.shop-search') as Element;
    module.registerLiveSearchBox(root)();
    await vi.advanceTimersByTimeAsync(1000);
    expect(module.mount).toHaveBeenCalledWith(island, {}, expect.anything());
  });

  it('mounts a container copied while the islands were loading once the page is hydrated and it never came alive', async () => {
    const module = await load();
    await liveBox(module);
    // `#first` stands for entry.tsx's box; this one was copied before the helper started and looks the same.
    document.body.innerHTML += '<div data-island="searchBox" id="copy" data-props="{}"></div>';
    stop();
    module.registerLiveSearchBox(document.querySelector('#first .shop-search') as Element);
    stop = module.startSelfRepair(module.mount, { sinceLoad: () => 0 });
    await vi.advanceTimersByTimeAsync(1000);
    expect(module.mount).not.toHaveBeenCalled();
    document.documentElement.dataset.hydrated = 'true';
    await vi.advanceTimersByTimeAsync(1000);
    expect(module.mount).toHaveBeenCalledWith(document.getElementById('copy'), {}, expect.anything());
    expect(module.mount).toHaveBeenCalledTimes(1);
  });

  it('checks 50 ms and 500 ms after the page load, not after the box hydrated', async () => {
    // The box hydrated 400 ms after load: the 500 ms check is 100 ms away, the 50 ms one overdue.
    const module = await load(false, () => 400);
    const spy = vi.spyOn(document, 'querySelectorAll');
    spy.mockClear();
    const scans = () =>
      spy.mock.calls.filter(([selector]) => selector === '[data-island="searchBox"]').length;
    await vi.advanceTimersByTimeAsync(0);
    expect(scans()).toBe(1);
    await vi.advanceTimersByTimeAsync(99);
    expect(scans()).toBe(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(scans()).toBe(2);
    await vi.advanceTimersByTimeAsync(1000);
    expect(scans()).toBe(2);
    expect(module.mount).not.toHaveBeenCalled();
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
