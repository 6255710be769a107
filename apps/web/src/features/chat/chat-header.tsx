import type { CallMedia } from '@teltlk/protocol';
import { LeftOutline, MoreOutline, PhoneFill, VideoOutline } from 'antd-mobile-icons';
import { useEffect } from 'react';
import { usePageTexts } from '../../i18n/pages';
import { Link } from 'react-router';
import { useDesktop } from '../../app/screen';
import { useGoBack } from '../../ui/page-header';
import { setPageTitle } from '../../ui/page-title';

const CALL_BUTTONS = [
  { media: 'audio', label: 'chat.voiceCall', Icon: PhoneFill },
  { media: 'video', label: 'chat.videoCall', Icon: VideoOutline },
] as const satisfies readonly { media: CallMedia; label: string; Icon: unknown }[];

/**
 * The chat's header: back, whom the chat is with (and whether they are typing), a voice
 * and a video call, settings. No back on a desktop: the list is beside the chat, the rail
 * beside both (and Escape closes the chat).
 */
export function ChatHeader({
  title,
  typing,
  settingsTo,
  onCall,
}: {
  title: string;
  typing: boolean;
  settingsTo: string;
  /** Calls in this chat; none: no call buttons. */
  onCall?: (media: CallMedia) => void;
}) {
  const { t } = usePageTexts();
  const goBack = useGoBack();
  const desktop = useDesktop();
  const appName = t('common.appName');
  useEffect(() => {
    setPageTitle(`${title} · ${appName}`);
  }, [title, appName]);
  return (
    <header className="tt-header">
      <div className="tt-header-side">
        {desktop ? null : (
          <button
            type="button"
            className="tt-icon-button"
            aria-label={t('common.back')}
            onClick={goBack}
          >
            <LeftOutline aria-hidden />
          </button>
        )}
      </div>
      <div className="tt-chat-heading">
        <h1 className="tt-header-title" dir="auto">
          {title}
        </h1>
        <p className="tt-chat-typing" aria-live="polite">
          {typing ? t('chat.typing') : ''}
        </p>
      </div>
      <div className="tt-header-side tt-header-side-end">
        {onCall
          ? CALL_BUTTONS.map(({ media, label, Icon }) => (
              <button
                key={media}
                type="button"
                className="tt-icon-button"
                aria-label={t(label)}
                data-call-start={media}
                onClick={() => onCall(media)}
              >
                <Icon aria-hidden />
              </button>
            ))
          : null}
        <Link className="tt-icon-button" to={settingsTo} aria-label={t('chat.settings')}>
          <MoreOutline aria-hidden />
        </Link>
      </div>
    </header>
  );
}
