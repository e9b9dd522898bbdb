import type { RecognitionConstructor } from './createVoiceSearch';

/**
 * Whether the box offers voice search: the API must exist, and it is unavailable on Chrome for iOS and on Safari
 *, whose recognition is unreliable.
 */
export function isVoiceSearchAvailable(
  recognition: RecognitionConstructor | undefined,
  userAgent: string,
): recognition is RecognitionConstructor {
  if (!recognition) return false;
  if (/CriOS\//.test(userAgent)) return false;
  const isSafari = /Safari\//.test(userAgent) && !/(Chrome|Chromium|CriOS|FxiOS|Edg|OPR)\//.test(userAgent);
  return !isSafari;
}
