import { usePageTexts } from '../../i18n/pages';
import type { DeliveryState } from '../../ui/conversation/messages';

/** The strokes of each mark, drawn in a 16×12 box: a clock, one tick, two ticks. */
const STROKES: Record<DeliveryState, string> = {
  sending: 'M8 1.5a4.5 4.5 0 1 0 0 9a4.5 4.5 0 1 0 0-9M8 3.5V6l1.8 1.2',
  sent: 'M2.5 6.5l3 3l7-7',
  read: 'M0.8 6.5l3 3l7-7M6.3 8.3l1.2 1.2l7-7',
};

/**
 * Where an own message stands, as messengers show it: a clock while sending, one tick
 * once the server has it, two once the other person has read it; named for screen readers
 * in the interface language.
 */
export function DeliveryMark({ state }: { state: DeliveryState }) {
  const { t } = usePageTexts();
  const label = { sending: t('chat.sending'), sent: t('chat.sent'), read: t('chat.read') }[state];
  return (
    <svg
      className={`tt-msg-tick tt-msg-tick-${state}`}
      role="img"
      aria-label={label}
      viewBox="0 0 16 12"
      width="16"
      height="12"
      fill="none"
      stroke="currentColor"
      strokeWidth="1.6"
      strokeLinecap="round"
      strokeLinejoin="round"
    >
      <path d={STROKES[state]} />
    </svg>
  );
}
