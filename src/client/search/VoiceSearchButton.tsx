import { useEffect, useRef, useState } from 'react';
import type { RecognitionConstructor, VoiceSearch, VoiceState } from './core/createVoiceSearch';
import { isVoiceSearchAvailable } from './core/isVoiceSearchAvailable';
import { Html } from './Html';

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
 * The "Voice search" button. It appears only where the Web Speech API is usable;
 * the recognition code loads on the first press, so the first script stays small.
 */
export function VoiceSearchButton({
  lang,
  icon,
  onTranscript,
}: {
  lang: string | null;
  /** `search.icons.voice`. */
  icon: string;
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
      <Html html={icon} className="shop-search__voice-icon" />
    </button>
  );
}
