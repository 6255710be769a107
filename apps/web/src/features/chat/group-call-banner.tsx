import { usePageTexts } from '../../i18n/pages';
import { useCalls, useEngine } from '../../app/engine';
import { startCall } from '../../app/start-call';
import './group-call-banner.css';

/**
 * A group's running call, over its chat, for a member who is not in it on this device:
 * who is in it and a button to join (late joiners, or someone who declined and changed
 * their mind).
 */
export function GroupCallBanner({
  conversationId,
  selfId,
}: {
  conversationId: string;
  selfId: string;
}) {
  const { t } = usePageTexts();
  const engine = useEngine();
  const calls = useCalls();
  const running = calls.find(
    (call) =>
      call.conversationId === conversationId && call.kind === 'group' && call.state !== 'ended',
  );
  if (!running) return null;
  const here = engine?.calls.sessionId ?? null;
  const mine = running.participants.find((p) => p.userId === selfId);
  if (mine?.state === 'joined' && mine.sessionId === here) return null;
  const joined = running.participants.filter((p) => p.state === 'joined').length;
  return (
    <div className="tt-chat-call-banner" role="status">
      <span>
        {t('chat.groupCallRunning')} · {joined}
      </span>
      <button
        type="button"
        className="tt-chat-call-banner-join"
        data-call-action="join"
        onClick={() => startCall(conversationId, running.media)}
      >
        {t('chat.groupCallJoin')}
      </button>
    </div>
  );
}
