import { useEffect, useRef, useState } from 'react';
import type { RecognitionConstructor, VoiceSearch, VoiceState } from './core/createVoiceSearch';
import { isVoiceSearchAvailable } from './core/isVoiceSearchAvailable';

declare global {
  interface Window {
    SpeechRecognition?: RecognitionConstructor;
    webkitSpeechRecognition?: RecognitionConstructor;
  }
}

function recognitionConstructor(): RecognitionConstructor | undefined {
  return window.SpeechRecognition ?? window.webkitSpeechRecognition;
}

/**
 * The "Voice search" button (SPEC.md §4 "Voice search"). It appears only where the Web Speech API is usable;
 * the recognition code loads on the first press (issue 9 "Speed").
 */
export function VoiceSearchButton({
  lang,
  onTranscript,
}: {
  lang: string | null;
  onTranscript(transcript: string): void;
}) {
  const [available, setAvailable] = useState(false);
  const [voiceState, setVoiceState] = useState<VoiceState>('inactive');
  const voice = useRef<VoiceSearch | null>(null);
  const transcriptHandler = useRef(onTranscript);
  transcriptHandler.current = onTranscript;

  useEffect(() => {
    // Checked after hydration: the server cannot know the browser.
    setAvailable(isVoiceSearchAvailable(recognitionConstructor(), navigator.userAgent));
    return () => voice.current?.destroy();
  }, []);

  if (!available) return null;

  async function onClick() {
    if (!voice.current) {
      const Recognition = recognitionConstructor();
      if (!Recognition) return;
      const { createVoiceSearch } = await import('./core/createVoiceSearch');
      const created = createVoiceSearch(Recognition, {
        lang: lang ?? document.documentElement.lang ?? null,
        onTranscript: (transcript) => transcriptHandler.current(transcript),
      });
      created.subscribe(() => setVoiceState(created.getState()));
      voice.current = created;
    }
    voice.current.toggle();
  }

  return (
    <button
      type="button"
      className={`shop-search__voice is-${voiceState}`}
      aria-label="Voice search"
      aria-pressed={voiceState === 'active'}
      disabled={voiceState === 'off'}
      onClick={() => void onClick()}
    >
      <svg aria-hidden="true" viewBox="0 0 24 24" width="18" height="18">
        <path
          fill="currentColor"
          d="M12 14a3 3 0 0 0 3-3V5a3 3 0 0 0-6 0v6a3 3 0 0 0 3 3zm5-3a5 5 0 0 1-10 0H5a7 7 0 0 0 6 6.92V21h2v-3.08A7 7 0 0 0 19 11z"
        />
      </svg>
    </button>
  );
}
