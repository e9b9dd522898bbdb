/**
 * Forms on pages the render cache serves carry an empty nonce field (`<input name="_wpnonce"
 * data-nonce-action="…" value="">`): a cached page is the same for every visitor, and a nonce is bound to one.
 * Just before such a form is sent, this asks the server for the visitor's own nonce (`/ajax?action=form-nonce`),
 * fills it in and sends the form. Without JavaScript the form posts as it is and the server shows it again with a
 * nonce. One listener on the document, so forms added later are covered too.
 */
export function fillFormNonces(
  doc: Document,
  fetchImpl: typeof fetch,
  endpoint = '/ajax?action=form-nonce',
): () => void {
  const onSubmit = (event: Event) => {
    const form = event.target;
    if (!(form instanceof HTMLFormElement)) return;
    const field = form.querySelector<HTMLInputElement>('input[name="_wpnonce"][data-nonce-action]');
    if (field?.value !== '') return;
    event.preventDefault();
    // A second press while the nonce is on its way: the form is sent once, when it comes.
    if (form.dataset.nonceFilling === 'true') return;
    form.dataset.nonceFilling = 'true';
    const action = field.dataset.nonceAction ?? '';
    void fetchImpl(`${endpoint}&for=${encodeURIComponent(action)}`, { credentials: 'same-origin' })
      .then(async (response) => (response.ok ? (await response.text()).trim() : ''))
      .catch(() => '')
      .then((nonce) => {
        field.value = nonce;
        delete form.dataset.nonceFilling;
        // Sent without a nonce when none came: the server then shows the form again with one.
        if (nonce === '') field.removeAttribute('data-nonce-action');
        form.submit();
      });
  };
  doc.addEventListener('submit', onSubmit);
  return () => doc.removeEventListener('submit', onSubmit);
}
