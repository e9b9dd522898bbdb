import { describe, expect, it, vi } from 'vitest';
import { createVoiceSearch, type RecognitionLike } from './createVoiceSearch';
import { isVoiceSearchAvailable } from './isVoiceSearchAvailable';

class FakeRecognition implements RecognitionLike {
  static last: FakeRecognition | null = null;
  lang = '';
  continuous = true;
  interimResults = true;
  started = 0;
  aborted = 0;
  onstart: RecognitionLike['onstart'] = null;
  onend: RecognitionLike['onend'] = null;
  onspeechend: RecognitionLike['onspeechend'] = null;
  onnomatch: RecognitionLike['onnomatch'] = null;
  onerror: RecognitionLike['onerror'] = null;
  onresult: RecognitionLike['onresult'] = null;
  constructor() {
    FakeRecognition.last = this;
  }
  start() {
    this.started += 1;
    this.onstart?.();
  }
  abort() {
    this.aborted += 1;
  }
}

function setup() {
  const onTranscript = vi.fn();
  const voice = createVoiceSearch(FakeRecognition, { lang: 'fr-FR', onTranscript });
  const recognition = FakeRecognition.last as FakeRecognition;
  return { voice, recognition, onTranscript };
}

describe('createVoiceSearch', () => {
  it('starts inactive, goes active on start with the configured language', () => {
    const { voice, recognition } = setup();
    expect(voice.getState()).toBe('inactive');
    voice.toggle();
    expect(voice.getState()).toBe('active');
    expect(recognition.lang).toBe('fr-FR');
    voice.toggle();
    expect(recognition.aborted).toBe(1);
  });

  it('puts only a final transcript in the input', () => {
    const { voice, recognition, onTranscript } = setup();
    voice.toggle();
    recognition.onresult?.({ resultIndex: 0, results: [{ isFinal: false, 0: { transcript: 'mu' } }] });
    expect(onTranscript).not.toHaveBeenCalled();
    recognition.onresult?.({ resultIndex: 0, results: [{ isFinal: true, 0: { transcript: ' mug ' } }] });
    expect(onTranscript).toHaveBeenCalledWith('mug');
  });

  it.each([
    ['end', (r: FakeRecognition) => r.onend?.()],
    ['speech end', (r: FakeRecognition) => r.onspeechend?.()],
    ['no match', (r: FakeRecognition) => r.onnomatch?.()],
    ['aborted', (r: FakeRecognition) => r.onerror?.({ error: 'aborted' })],
    ['no-speech', (r: FakeRecognition) => r.onerror?.({ error: 'no-speech' })],
  ])('returns to inactive on %s', (_, fire) => {
    const { voice, recognition } = setup();
    voice.toggle();
    fire(recognition);
    expect(voice.getState()).toBe('inactive');
  });

  it.each(['not-allowed', 'service-not-allowed'])('turns off for good on %s', (error) => {
    const { voice, recognition } = setup();
    const listener = vi.fn();
    voice.subscribe(listener);
    voice.toggle();
    recognition.onerror?.({ error });
    expect(voice.getState()).toBe('off');
    recognition.onend?.();
    voice.toggle();
    expect(voice.getState()).toBe('off');
    expect(recognition.started).toBe(1);
    expect(listener).toHaveBeenCalledTimes(2);
  });

  it('changes nothing on a network error', () => {
    const { voice, recognition } = setup();
    voice.toggle();
    recognition.onerror?.({ error: 'network' });
    expect(voice.getState()).toBe('active');
  });
});

describe('createVoiceSearch, what the browser is asked for and told', () => {
  it('asks for one final result, in the page language when none is set', () => {
    const { recognition } = setup();
    expect(recognition).toMatchObject({ continuous: false, interimResults: false });
    createVoiceSearch(FakeRecognition, { lang: null, onTranscript: vi.fn() });
    expect(FakeRecognition.last?.lang).toBe('');
  });

  it('reads only the results new in this event, each final one in turn', () => {
    const { voice, recognition, onTranscript } = setup();
    voice.toggle();
    recognition.onresult?.({
      resultIndex: 1,
      results: [
        { isFinal: true, 0: { transcript: 'already read' } },
        { isFinal: true, 0: { transcript: 'linen' } },
        { isFinal: false, 0: { transcript: 'shi' } },
        { isFinal: true, 0: { transcript: 'shirt ' } },
      ],
    });
    expect(onTranscript.mock.calls).toEqual([['linen'], ['shirt']]);
  });

  it('tells its listeners once per change of state, and no more after they unsubscribe', () => {
    const { voice, recognition } = setup();
    const listener = vi.fn();
    const unsubscribe = voice.subscribe(listener);
    voice.toggle();
    recognition.onstart?.();
    expect(listener).toHaveBeenCalledTimes(1);
    recognition.onspeechend?.();
    recognition.onend?.();
    expect(listener).toHaveBeenCalledTimes(2);
    unsubscribe();
    voice.toggle();
    expect(voice.getState()).toBe('active');
    expect(listener).toHaveBeenCalledTimes(2);
  });

  it('stays usable when the browser refuses to start a second recognition', () => {
    const { voice, recognition } = setup();
    recognition.start = () => {
      throw new DOMException('recognition has already started', 'InvalidStateError');
    };
    expect(() => voice.toggle()).not.toThrow();
    expect(voice.getState()).toBe('inactive');
    recognition.onstart?.();
    expect(voice.getState()).toBe('active');
  });

  it('hears nothing after destroy', () => {
    const { voice, recognition, onTranscript } = setup();
    const listener = vi.fn();
    voice.subscribe(listener);
    voice.destroy();
    for (const handler of ['onstart', 'onend', 'onspeechend', 'onnomatch', 'onerror', 'onresult'] as const)
      expect(recognition[handler], handler).toBeNull();
    voice.toggle();
    expect(voice.getState()).toBe('inactive');
    expect(listener).not.toHaveBeenCalled();
    expect(onTranscript).not.toHaveBeenCalled();
  });
});

describe('isVoiceSearchAvailable', () => {
  const chrome =
    'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Safari/537.36';
  const safari =
    'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_0) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Safari/605.1.15';
  const chromeIos =
    'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) CriOS/126.0 Mobile/15E148 Safari/604.1';

  it('needs the API and is off on Safari and Chrome for iOS', () => {
    expect(isVoiceSearchAvailable(FakeRecognition, chrome)).toBe(true);
    expect(isVoiceSearchAvailable(undefined, chrome)).toBe(false);
    expect(isVoiceSearchAvailable(FakeRecognition, safari)).toBe(false);
    expect(isVoiceSearchAvailable(FakeRecognition, chromeIos)).toBe(false);
  });

  it('is on in the other browsers whose user agent also names Safari', () => {
    const firefoxIos =
      'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) FxiOS/126.0 Mobile/15E148 Safari/605.1.15';
    const edge = `${chrome} Edg/126.0`;
    const opera = `${chrome} OPR/110.0`;
    const chromium =
      'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chromium/126.0 Safari/537.36';
    for (const userAgent of [firefoxIos, edge, opera, chromium])
      expect(isVoiceSearchAvailable(FakeRecognition, userAgent), userAgent).toBe(true);
    expect(
      isVoiceSearchAvailable(
        FakeRecognition,
        'Mozilla/5.0 (X11; Linux x86_64; rv:126.0) Gecko Firefox/126.0',
      ),
    ).toBe(true);
  });
});
