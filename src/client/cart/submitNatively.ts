/**
 * Posts a form the ordinary way after an ajax attempt failed, keeping the button that submitted it (its name and
 * value are part of the post, e.g. `add-to-cart` or a line's `remove_item`), so the shopper gets the server's
 * page with the reason, as without JavaScript.
 */
export function submitNatively(form: HTMLFormElement, submitter: HTMLButtonElement | null) {
  if (submitter?.name) {
    const field = form.ownerDocument.createElement('input');
    field.type = 'hidden';
    field.name = submitter.name;
    field.value = submitter.value;
    form.append(field);
  }
  form.submit();
}
