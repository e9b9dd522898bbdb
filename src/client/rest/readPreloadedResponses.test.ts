// @vitest-environment happy-dom
import { afterEach, describe, expect, it } from 'vitest';
import { readPreloadedResponses } from './readPreloadedResponses';

/** The page as the server renders it: the answers in a JSON script with the contract's id. */
function pageWith(scriptText: string | null) {
  document.body.innerHTML =
    scriptText === null
      ? '<main></main>'
      : '<script id="shop-rest-preload" type="application/json"></script>';
  const script = document.getElementById('shop-rest-preload');
  if (script && scriptText !== null) script.textContent = scriptText;
  return document;
}

afterEach(() => {
  document.body.innerHTML = '';
});

describe('readPreloadedResponses', () => {
  it('reads the answers the page carries', () => {
    const answers = { '/wp/v2/posts?per_page=5': { body: [{ id: 1 }], headers: { 'x-wp-total': '1' } } };
    expect(readPreloadedResponses(pageWith(JSON.stringify(answers)))).toEqual(answers);
  });

  it('reads nothing from a page without the script, with an empty one, or with broken JSON', () => {
    expect(readPreloadedResponses(pageWith(null))).toEqual({});
    expect(readPreloadedResponses(pageWith(''))).toEqual({});
    expect(readPreloadedResponses(pageWith('{"/wp/v2/posts":'))).toEqual({});
  });

  it('reads nothing from JSON that is not an object of answers', () => {
    for (const text of ['null', '[{"body":1}]', '"text"', '42', 'true']) {
      expect(readPreloadedResponses(pageWith(text))).toEqual({});
    }
  });
});
