// Slugs must match what @wordpress/url's cleanForSlug produces, and that function folds accents with the
// remove-accents package: a fixed list, not "every decomposable letter". NFD alone would also fold Greek
// tonos, Cyrillic ї, Ḍ, Ỹ and others that WordPress leaves intact, so the set below is exactly the
// precomposed letters remove-accents folds to their NFD base letter. Generated from remove-accents 0.5.0.
const FOLDED_BY_NFD =
  'ÀÁÂÃÄÅÇÈÉÊËÌÍÎÏÑÒÓÔÕÖÙÚÛÜÝàáâãäåçèéêëìíîïñòóôõöùúûüýÿĀāĂăĄąĆćĈĉĊċČčĎďĒēĔ' +
  'ĕĖėĘęĚěĜĝĞğĠġĢģĤĥĨĩĪīĬĭĮįİĴĵĶķĹĺĻļĽľŃńŅņŇňŌōŎŏŐőŔŕŖŗŘřŚśŜŝŞşŠšŢţŤťŨũŪūŬŭ' +
  'ŮůŰűŲųŴŵŶŷŸŹźŻżŽžƠơƯưǍǎǏǐǑǒǓǔǕǖǗǘǙǚǛǜǦǧǨǩǰǴǵǸǹǺǻȀȁȂȃȄȅȆȇȈȉȊȋȌȍȎȏȐȑȒȓȔȕȖȗ' +
  'ȘșȚțȞȟȨȩЁЃЌЙйёѓќḈḉḐḑḔḕḖḗḜḝḨḩḪḫḮḯḰḱḾḿṌṍṐṑṒṓṔṕṤṥṦṧṸṹẀẁẂẃẠạẢảẤấẦầẨẩẪẫẬậẮắẰằ' +
  'ẲẳẴẵẶặẸẹẺẻẼẽẾếỀềỂểỄễỆệỈỉỊịỌọỎỏỐốỒồỔổỖỗỘộỚớỜờỞởỠỡỢợỤụỦủỨứỪừỬửỮữỰựỲỳ';

// Letters remove-accents folds that NFD cannot take apart (ligatures, stroked letters), plus a few
// base + combining-cedilla pairs whose base letter has no fold of its own. Case is irrelevant here:
// the slug is lowercased afterwards.
const NOT_DECOMPOSABLE: Readonly<Record<string, string>> = {
  'Ɛ\u0327': 'E',
  'ɛ\u0327': 'e',
  'Ɨ\u0327': 'I',
  'ɨ\u0327': 'i',
  Æ: 'AE',
  æ: 'ae',
  Ǽ: 'AE',
  ǽ: 'ae',
  Ð: 'D',
  ð: 'd',
  Đ: 'D',
  đ: 'd',
  Ø: 'O',
  ø: 'o',
  Ǿ: 'O',
  ǿ: 'o',
  Þ: 'TH',
  þ: 'th',
  Ħ: 'H',
  ħ: 'h',
  ı: 'i',
  Ĳ: 'IJ',
  ĳ: 'ij',
  Ŀ: 'L',
  ŀ: 'l',
  Ł: 'L',
  ł: 'l',
  ŉ: 'n',
  Œ: 'OE',
  œ: 'oe',
  Ŧ: 'T',
  ŧ: 't',
  ſ: 's',
  ƒ: 'f',
};

const ACCENTED = new RegExp(`${Object.keys(NOT_DECOMPOSABLE).join('|')}|[${FOLDED_BY_NFD}]`, 'gu');
const COMBINING_MARKS = /\p{M}/gu;

function removeAccents(value: string): string {
  return value.replace(
    ACCENTED,
    (letter) => NOT_DECOMPOSABLE[letter] ?? letter.normalize('NFD').replace(COMBINING_MARKS, ''),
  );
}

/**
 * An approximate WordPress post slug for a title, identical to @wordpress/url's cleanForSlug.
 * Non-Latin letters and digits survive (WordPress slugs may be Unicode); the step order matters and
 * is the oracle's: entities are dropped before stray symbols, and lowercasing comes last.
 */
export function cleanForSlug(value: string): string {
  if (!value) return '';
  return (
    removeAccents(value)
      // Titles pasted from the block editor carry these entities as literal text.
      .replace(/(&nbsp;|&ndash;|&mdash;)/g, '-')
      .replace(/[\s./]+/g, '-')
      .replace(/&\S+?;/g, '')
      .replace(/[^\p{L}\p{N}_-]+/gu, '')
      .toLowerCase()
      .replace(/-+/g, '-')
      .replace(/^-+|-+$/g, '')
  );
}
