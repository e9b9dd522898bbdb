// @vitest-environment happy-dom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fillFormNonces } from './fillFormNonces';

let submitted: string[];
let unbind: () => void = () => {};

afterEach(() => unbind());

beforeEach(() => {
  document.body.innerHTML = `
    <form id="cached" method="post" action="/product/x/#reviews">
      <input type="hidden" name="_wpnonce" value="" data-nonce-action="product_review" />
      <button type="submit">Send</button>
    </form>
    <form id="rendered" method="post" action="/back-in-stock/">
      <input type="hidden" name="_wpnonce" value="own-nonce" data-nonce-action="stock_alert" />
    </form>`;
  submitted = [];
  for (const form of document.querySelectorAll('form')) {
    form.submit = function submit(this: HTMLFormElement) {
      submitted.push(`${this.id}:${(this.elements.namedItem('_wpnonce') as HTMLInputElement).value}`);
    };
  }
});

function submitEvent(id: string): Event {
  const event = new Event('submit', { bubbles: true, cancelable: true });
  document.getElementById(id)?.dispatchEvent(event);
  return event;
}

const until = (check: () => boolean) => vi.waitFor(() => expect(check()).toBe(true));

describe('fillFormNonces', () => {
  it('asks for the visitor’s nonce of the form’s action, fills it in and sends the form once', async () => {
    const fetchMock = vi.fn(async () => new Response('fresh-nonce\n'));
    unbind = fillFormNonces(document, fetchMock as unknown as typeof fetch);
    const event = submitEvent('cached');
    expect(event.defaultPrevented).toBe(true);
    await until(() => submitted.length === 1);
    expect(fetchMock).toHaveBeenCalledWith('/ajax?action=form-nonce&for=product_review', {
      credentials: 'same-origin',
    });
    expect(submitted).toEqual(['cached:fresh-nonce']);
  });

  it('leaves a form that already carries a nonce alone', () => {
    const fetchMock = vi.fn();
    unbind = fillFormNonces(document, fetchMock as unknown as typeof fetch);
    expect(submitEvent('rendered').defaultPrevented).toBe(false);
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('sends the form without a nonce when the endpoint fails, so the server shows it again with one', async () => {
    const fetchMock = vi.fn(async () => new Response('no', { status: 500 }));
    unbind = fillFormNonces(document, fetchMock as unknown as typeof fetch);
    submitEvent('cached');
    await until(() => submitted.length === 1);
    expect(submitted).toEqual(['cached:']);
  });

  it('asks once while a request is in flight', async () => {
    let answer: (response: Response) => void = () => {};
    const fetchMock = vi.fn(() => new Promise<Response>((resolve) => (answer = resolve)));
    unbind = fillFormNonces(document, fetchMock as unknown as typeof fetch);
    submitEvent('cached');
    expect(submitEvent('cached').defaultPrevented).toBe(true);
    answer(new Response('n1'));
    await until(() => submitted.length === 1);
    expect(fetchMock).toHaveBeenCalledTimes(1);
  });
});
