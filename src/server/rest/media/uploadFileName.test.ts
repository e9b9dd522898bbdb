import { describe, expect, it } from 'vitest';
import { fileNameFromContentDisposition, uploadBaseName, uploadTitle } from './uploadFileName';

describe('uploadBaseName', () => {
  it('drops directories of either slash, the extension, and cleans the rest for a slug', () => {
    expect(uploadBaseName('../../etc/passwd')).toBe('passwd');
    expect(uploadBaseName('..\\..\\Windows\\win.ini')).toBe('win');
    expect(uploadBaseName('Été à la mer.JPG')).toBe('ete-a-la-mer');
    expect(uploadBaseName('archive.tar.gz')).toBe('archive-tar');
    expect(uploadBaseName('.htaccess')).toBe('image');
  });

  it('falls back to "image" for names with nothing left', () => {
    for (const name of [undefined, '', '../', '....', '%%%.png']) expect(uploadBaseName(name)).toBe('image');
  });
});

describe('uploadTitle', () => {
  it('is the name as written, without directories or extension', () => {
    expect(uploadTitle('/tmp/Harbour at dusk.jpeg')).toBe('Harbour at dusk');
    expect(uploadTitle(undefined)).toBe('image');
  });
});

describe('fileNameFromContentDisposition', () => {
  it('reads quoted, bare and RFC 5987 file names', () => {
    expect(fileNameFromContentDisposition('attachment; filename="a b.jpg"')).toBe('a b.jpg');
    expect(fileNameFromContentDisposition('attachment; filename=plain.png')).toBe('plain.png');
    expect(fileNameFromContentDisposition("attachment; filename*=UTF-8''%C3%A9t%C3%A9.jpg")).toBe('été.jpg');
    expect(fileNameFromContentDisposition('attachment; filename="say \\"hi\\".jpg"')).toBe('say "hi".jpg');
    expect(fileNameFromContentDisposition(undefined)).toBeUndefined();
    expect(fileNameFromContentDisposition('inline')).toBeUndefined();
  });
});
