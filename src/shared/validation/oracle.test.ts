// Differential tests: our checks must agree with @wordpress/url (the behaviour WordPress users already
// know) on every input. A fixed seed keeps failures reproducible in CI.
import * as wordpress from '@wordpress/url';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { cleanForSlug } from './cleanForSlug';
import { isEmail } from './isEmail';
import { isPhoneNumber } from './isPhoneNumber';

const RUNS = { seed: 20261122, numRuns: 3000 };

const letter = fc.constantFrom(...'abcxyzABCXYZ');
const digit = fc.constantFrom(...'0123456789');
const letters = fc.string({ unit: letter, maxLength: 8 });
const digitRun = fc.string({ unit: digit, minLength: 1, maxLength: 8 });
const accented = fc.constantFrom(...'éÈüÑçÆøßđłœþİıŉſǼǾЙёїάḌỹ', 'e\u0301', 'ɛ\u0327', 'Č\u0323', 'C\u0306');
const anyText = fc.string({ unit: 'binary', maxLength: 6 });

/** Mostly `usual`, sometimes `unusual`: keeps a good share of inputs valid while still probing the edges. */
const mostly = (usual: fc.Arbitrary<string>, unusual: fc.Arbitrary<string>) =>
  fc.oneof({ weight: 6, arbitrary: usual }, { weight: 1, arbitrary: unusual });

/** Concatenates pieces drawn from `fragment`, so generated strings are dense in interesting tokens. */
const built = (fragment: fc.Arbitrary<string>, minLength = 0, maxLength = 12) =>
  fc.array(fragment, { minLength, maxLength }).map((parts) => parts.join(''));

/** Letters-only runs whose lengths sit on the 2..63 top-level-domain boundaries. */
const topLevelDomain = fc
  .constantFrom(0, 1, 2, 3, 10, 62, 63, 64, 65)
  .chain((length) => fc.string({ unit: letter, minLength: length, maxLength: length }));

const emailLike = fc
  .tuple(
    mostly(fc.constant(''), fc.constantFrom('mailto:', 'MAILTO:', 'mailto:mailto:', 'tel:', ' ')),
    mostly(
      built(fc.oneof(letters, digitRun, fc.constantFrom('.', '_', '%', '+', '-')), 1, 4),
      built(fc.oneof(letters, accented, fc.constantFrom('@', ' ', '', '"', '\n')), 0, 3),
    ),
    mostly(fc.constant('@'), fc.constantFrom('', '@@', '.@', '@.')),
    mostly(fc.oneof(letters, digitRun), fc.constantFrom('', '-', '.', '_', 'ü')),
    built(
      mostly(fc.oneof(letters, digitRun, fc.constantFrom('.', '-')), fc.constantFrom('..', '_', 'ü')),
      0,
      4,
    ),
    mostly(fc.constant('.'), fc.constantFrom('', '..', '-')),
    topLevelDomain,
    mostly(fc.constant(''), fc.constantFrom('1', '.', '\n', ' ', 'é')),
  )
  .map((parts) => parts.join(''));

const separator = fc.oneof(
  { weight: 6, arbitrary: fc.constant('') },
  { weight: 3, arbitrary: fc.constantFrom('-', '.', '(', ')', ' ') },
  { weight: 1, arbitrary: fc.constantFrom('\t', '+', 'x', '\u00a0', '٣', 'tel:', '_') },
);

/** Digit counts clustered on the 6..15 boundaries, with separators sprinkled between the digits. */
const phoneLike = fc
  .tuple(
    mostly(
      fc.constantFrom('', '+', 'tel:', 'tel:+'),
      fc.constantFrom('TEL:', 'tel: ', ' +', '++', '+tel:', '(+'),
    ),
    fc
      .constantFrom(0, 4, 5, 6, 7, 10, 14, 15, 16, 17)
      .chain((count) => fc.array(fc.tuple(separator, digit), { minLength: count, maxLength: count })),
    separator,
  )
  .map(([prefix, body, suffix]) => prefix + body.flat().join('') + suffix);

const slugLike = built(
  fc.oneof(
    letters,
    digitRun,
    accented,
    anyText,
    fc.constantFrom(
      ' ',
      '.',
      '/',
      '-',
      '_',
      '--',
      '\t',
      '\u00a0',
      '&nbsp;',
      '&ndash;',
      '&mdash;',
      '&amp;',
      '&',
      ';',
    ),
  ),
);

describe('agreement with @wordpress/url', () => {
  it('isEmail', () => {
    fc.assert(
      fc.property(fc.oneof(emailLike, built(anyText, 0, 4)), (value) => {
        expect(isEmail(value)).toBe(wordpress.isEmail(value));
      }),
      RUNS,
    );
  });

  it('isPhoneNumber', () => {
    fc.assert(
      fc.property(fc.oneof(phoneLike, built(anyText, 0, 4)), (value) => {
        expect(isPhoneNumber(value)).toBe(wordpress.isPhoneNumber(value));
      }),
      RUNS,
    );
  });

  it('cleanForSlug', () => {
    fc.assert(
      fc.property(slugLike, (value) => {
        expect(cleanForSlug(value)).toBe(wordpress.cleanForSlug(value));
      }),
      RUNS,
    );
  });

  // Random strings rarely hit a given letter, so the accent table is checked exhaustively instead:
  // every BMP code point alone, and followed by the combining cedilla that some table entries need.
  it('cleanForSlug on every BMP code point', () => {
    const mismatches: string[] = [];
    for (let code = 0; code <= 0xffff; code++) {
      if (code >= 0xd800 && code <= 0xdfff) continue;
      for (const value of [String.fromCharCode(code), `${String.fromCharCode(code)}\u0327x`]) {
        if (cleanForSlug(value) !== wordpress.cleanForSlug(value)) mismatches.push(value);
      }
    }
    expect(mismatches).toEqual([]);
  });
});
