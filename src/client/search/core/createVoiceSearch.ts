/*
 * Voice search over the Web Speech API: inactive → active on start; a final result
 * puts the transcript in the input; end of speech, no match, aborted and no-speech return to inactive;
 * not-allowed and service-not-allowed turn it off; a network error changes nothing.
 */

export type VoiceState = 'inactive' | 'active' | 'off';

/** The members of SpeechRecognition the box uses; tests pass a fake. */
export interface RecognitionLike {
  lang: string;
  continuous: boolean;
  interimResults: boolean;
  start(): void;
  abort(): void;
  onstart: (() => void) | null;
  onend: (() => void) | null;
  onspeechend: (() => void) | null;
  onnomatch: (() => void) | null;
  onerror: ((event: { error: string }) => void) | null;
  onresult:
    | ((event: {
        resultIndex: number;
        results: ArrayLike<{ isFinal: boolean; 0: { transcript: string } }>;
      }) => void)
    | null;
}

export type RecognitionConstructor = new () => RecognitionLike;

export interface VoiceSearch {
  getState(): VoiceState;
  subscribe(listener: () => void): () => void;
  /** Starts listening, or stops when already active. */
  toggle(): void;
  destroy(): void;
}

export function createVoiceSearch(
  Recognition: RecognitionConstructor,
  options: { lang: string | null; onTranscript(transcript: string): void },
): VoiceSearch {
  let state: VoiceState = 'inactive';
  const listeners = new Set<() => void>();
  const recognition = new Recognition();
  recognition.lang = options.lang ?? '';
  recognition.continuous = false;
  recognition.interimResults = false;

  function set(next: VoiceState) {
    // "off" is final: the shopper refused the microphone.
    if (state === next || state === 'off') return;
    state = next;
    for (const listener of listeners) listener();
  }

  recognition.onstart = () => set('active');
  recognition.onend = () => set('inactive');
  recognition.onspeechend = () => set('inactive');
  recognition.onnomatch = () => set('inactive');
  recognition.onerror = (event) => {
    if (event.error === 'not-allowed' || event.error === 'service-not-allowed') set('off');
    else if (event.error === 'no-speech' || event.error === 'aborted') set('inactive');
    // 'network' (and anything else) changes nothing.
  };
  recognition.onresult = (event) => {
    for (let index = event.resultIndex; index < event.results.length; index += 1) {
      const result = event.results[index];
      if (result?.isFinal) options.onTranscript(result[0].transcript.trim());
    }
  };

  return {
    getState: () => state,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    toggle() {
      if (state === 'off') return;
      if (state === 'active') {
        recognition.abort();
        return;
      }
      try {
        recognition.start();
      } catch {
        // start() throws when a recognition is already running; the events above keep the state right.
      }
    },
    destroy() {
      recognition.onstart = recognition.onend = recognition.onspeechend = recognition.onnomatch = null;
      recognition.onerror = null;
      recognition.onresult = null;
      listeners.clear();
    },
  };
}
