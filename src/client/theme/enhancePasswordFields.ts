/**
 * every password field gets a "Show password" / "Hide password" toggle (masked or shown), on
 * password-protected pages and everywhere else, including fields added later. The button follows the field so
 * React-owned markup around it is left alone.
 */
export function enhancePasswordFields(
  document: Document,
  labels: { showPassword: string; hidePassword: string },
): () => void {
  const view = document.defaultView;
  if (!view) return () => {};

  const enhance = (input: HTMLInputElement) => {
    if (input.dataset.passwordToggle !== undefined) return;
    input.dataset.passwordToggle = '';
    input.classList.add('has-password-toggle');
    const button = document.createElement('button');
    button.type = 'button';
    button.className = 'show-password-input';
    if (input.id) button.setAttribute('aria-controls', input.id);
    const render = () => {
      const shown = input.type === 'text';
      button.setAttribute('aria-label', shown ? labels.hidePassword : labels.showPassword);
      button.classList.toggle('display-password', shown);
    };
    button.addEventListener('click', () => {
      input.type = input.type === 'password' ? 'text' : 'password';
      render();
      input.focus();
    });
    render();
    input.after(button);
  };

  const scan = (root: ParentNode) => {
    for (const input of root.querySelectorAll<HTMLInputElement>('input[type="password"]')) enhance(input);
  };
  scan(document);
  const observer = new view.MutationObserver((records) => {
    for (const record of records) {
      for (const node of record.addedNodes) {
        if (node instanceof view.HTMLInputElement && node.type === 'password') enhance(node);
        else if (node instanceof view.Element) scan(node);
      }
    }
  });
  observer.observe(document.body, { childList: true, subtree: true });
  return () => observer.disconnect();
}
