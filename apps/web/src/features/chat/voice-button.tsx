import { useEffect, useRef, useState, type PointerEvent } from 'react';
import { usePageTexts } from '../../i18n/pages';
import { showToast } from '../../ui/toast';
import { VOICE_MIN_MS, VoiceRecorder, RecorderProblem, type Recording } from './voice-recorder';

/** Sliding the finger up this far while recording cancels the message. */
const CANCEL_SLIDE_PX = 60;

type State = { step: 'idle' } | { step: 'recording'; seconds: number; cancelling: boolean };

/**
 * "Hold to talk": pressing starts a recording, releasing sends it, sliding up first and
 * then releasing throws it away; it stops and sends by itself at the one-minute limit.
 * Space or Enter held on the button does the same from a keyboard.
 */
export function VoiceButton({ onVoice }: { onVoice: (recording: Recording) => void }) {
  const { t } = usePageTexts();
  const [state, setState] = useState<State>({ step: 'idle' });
  const recorder = useRef<VoiceRecorder | null>(null);
  const startY = useRef(0);
  const cancelling = useRef(false);

  useEffect(() => () => recorder.current?.cancel(), []);

  useEffect(() => {
    if (state.step !== 'recording') return;
    const timer = setInterval(() => {
      const seconds = Math.floor((recorder.current?.elapsed() ?? 0) / 1000);
      setState((now) => (now.step === 'recording' ? { ...now, seconds } : now));
    }, 250);
    return () => clearInterval(timer);
  }, [state.step]);

  const begin = async (y: number) => {
    if (recorder.current) return;
    const started = new VoiceRecorder();
    recorder.current = started;
    startY.current = y;
    cancelling.current = false;
    started.onLimit = () => void finish();
    try {
      await started.start();
    } catch (problem) {
      recorder.current = null;
      const denied = problem instanceof RecorderProblem && problem.reason === 'denied';
      showToast(t(denied ? 'chat.micDenied' : 'chat.voiceUnsupported'));
      return;
    }
    // Released while the microphone was being opened.
    if (recorder.current !== started) return started.cancel();
    setState({ step: 'recording', seconds: 0, cancelling: false });
  };

  const finish = async () => {
    const done = recorder.current;
    recorder.current = null;
    setState({ step: 'idle' });
    if (!done) return;
    if (cancelling.current) return done.cancel();
    const recording = await done.stop();
    if (!recording || recording.durationMs < VOICE_MIN_MS) {
      showToast(t('chat.voiceTooShort'));
      return;
    }
    onVoice(recording);
  };

  const move = (event: PointerEvent) => {
    if (state.step !== 'recording') return;
    const away = startY.current - event.clientY >= CANCEL_SLIDE_PX;
    if (away !== cancelling.current) {
      cancelling.current = away;
      setState({ ...state, cancelling: away });
    }
  };

  const recording = state.step === 'recording';
  return (
    <>
      <button
        type="button"
        className={recording ? 'tt-voice-hold tt-voice-holding' : 'tt-voice-hold'}
        onPointerDown={(event) => {
          event.currentTarget.setPointerCapture(event.pointerId);
          void begin(event.clientY);
        }}
        onPointerMove={move}
        onPointerUp={() => void finish()}
        onPointerCancel={() => {
          cancelling.current = true;
          void finish();
        }}
        onKeyDown={(event) => {
          if ((event.key === ' ' || event.key === 'Enter') && !event.repeat) {
            event.preventDefault();
            void begin(0);
          }
        }}
        onKeyUp={(event) => {
          if (event.key === ' ' || event.key === 'Enter') void finish();
        }}
        onContextMenu={(event) => event.preventDefault()}
      >
        {recording ? t('chat.releaseToSend') : t('chat.holdToTalk')}
      </button>
      {recording ? (
        <div
          className={state.cancelling ? 'tt-voice-overlay tt-voice-cancelling' : 'tt-voice-overlay'}
          role="status"
        >
          <span className="tt-voice-dot" aria-hidden />
          <span>{t('chat.recordingFor', { seconds: state.seconds })}</span>
          <span>{state.cancelling ? t('chat.releaseToCancel') : t('chat.releaseToSend')}</span>
        </div>
      ) : null}
    </>
  );
}
