// @vitest-environment happy-dom
import { describe, expect, it, vi } from 'vitest';
import { enhancePasswordFields } from './enhancePasswordFields';

const labels = { showPassword: 'Show password', hidePassword: 'Hide password' };

describe('enhancePasswordFields', () => {
  it('gives every password field a toggle between masked and shown', () => {
    document.body.innerHTML = '<form><input id="pw" type="password" name="pw"></form>';
    const stop = enhancePasswordFields(document, labels);
    const input = document.getElementById('pw') as HTMLInputElement;
    const button = input.nextElementSibling as HTMLButtonElement;
    expect(button.getAttribute('aria-label')).toBe('Show password');
    expect(button.getAttribute('aria-controls')).toBe('pw');
    button.click();
    expect(input.type).toBe('text');
    expect(button.getAttribute('aria-label')).toBe('Hide password');
    button.click();
    expect(input.type).toBe('password');
    expect(button.getAttribute('aria-label')).toBe('Show password');
    stop();
  });

  it('enhances fields added later, once each', async () => {
    document.body.innerHTML = '<div id="later"></div>';
    const stop = enhancePasswordFields(document, labels);
    (document.getElementById('later') as HTMLElement).innerHTML = '<input type="password">';
    await new Promise((resolve) => setTimeout(resolve, 0));
    enhancePasswordFields(document, labels)();
    expect(document.querySelectorAll('button.show-password-input')).toHaveLength(1);
    stop();
  });

  it('gives a field the page adds later its toggle by itself, alone or inside other markup, until stopped', async () => {
    document.body.innerHTML = '<form id="login"></form>';
    const stop = enhancePasswordFields(document, labels);
    const form = document.getElementById('login') as HTMLElement;
    const input = document.createElement('input');
    input.type = 'password';
    form.append(input);
    form.insertAdjacentHTML(
      'beforeend',
      '<p><input type="password" id="confirm"><input type="text" id="name"></p>',
    );
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(input.nextElementSibling?.className).toBe('show-password-input');
    expect(document.querySelector('#confirm + button')?.getAttribute('aria-label')).toBe('Show password');
    expect(document.querySelector('#name + button')).toBeNull();
    stop();
    form.insertAdjacentHTML('beforeend', '<input type="password" id="after-stop">');
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(document.querySelector('#after-stop + button')).toBeNull();
  });

  it('shows the password without submitting the form it is in', () => {
    document.body.innerHTML = '<form><input id="pw" type="password"></form>';
    const submitted = vi.fn((event: Event) => event.preventDefault());
    document.querySelector('form')?.addEventListener('submit', submitted);
    const stop = enhancePasswordFields(document, labels);
    (document.querySelector('#pw + button') as HTMLButtonElement).click();
    expect(submitted).not.toHaveBeenCalled();
    expect((document.getElementById('pw') as HTMLInputElement).type).toBe('text');
    stop();
  });
});
