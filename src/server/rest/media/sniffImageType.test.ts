import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { sniffImageType } from './sniffImageType';

const make = (format: 'jpeg' | 'png' | 'gif' | 'webp') =>
  sharp({ create: { width: 4, height: 4, channels: 3, background: '#123456' } })
    .toFormat(format)
    .toBuffer();

describe('sniffImageType', () => {
  it.each([
    ['jpeg', 'image/jpeg', 'jpg'],
    ['png', 'image/png', 'png'],
    ['gif', 'image/gif', 'gif'],
    ['webp', 'image/webp', 'webp'],
  ] as const)('recognizes %s from its bytes', async (format, mimeType, extension) => {
    expect(sniffImageType(await make(format))).toEqual({ mimeType, extension });
  });

  it('refuses text, SVG, scripts and truncated signatures', () => {
    for (const text of [
      'hello',
      '<svg xmlns="http://www.w3.org/2000/svg"/>',
      '<?php echo 1;',
      'GIF8',
      'RIFF0000WAVE',
    ]) {
      expect(sniffImageType(Buffer.from(text))).toBeNull();
    }
    expect(sniffImageType(Buffer.from([0xff, 0xd8]))).toBeNull();
  });
});
