import { BURN_DURATIONS, peerOf } from '@teltlk/protocol';
import { useState } from 'react';
import { usePageTexts } from '../../i18n/pages';
import { Link } from 'react-router';
import { useEngine, useEngineSnapshot, useSelfId } from '../../app/engine';
import { paths, withQuery } from '../../app/paths';
import { Avatar } from '../../ui/avatar';
import { ChoiceList } from '../../ui/choice-list';
import { EmptyState } from '../../ui/empty-state';
import { toastModifyFailure } from '../../ui/failure-toast';
import { Page } from '../../ui/page';
import { useUiLocale } from '../../ui/use-ui-locale';
import { PageSpinner } from '../../ui/spinner';
import {
  ClearHistoryRow,
  SearchHistoryRow,
  ConversationRows,
  Section,
} from '../../ui/conversation/conversation-settings';
import { peerName } from '../../ui/conversation/messages';
import { formatDuration } from '../../ui/conversation/time-labels';
import { useConversationParam } from './use-conversation-param';
import { useRemarks } from '../../api/use-remarks';
import '../../ui/profile-card.css';

/**
 * `/pages/home/chatSetting?conversationId=…`: pin, mute, translation, burn after reading,
 * clear history.
 */
export function ChatSettingPage() {
  const { t } = usePageTexts();
  const selfId = useSelfId();
  const conversationId = useConversationParam(selfId);
  if (conversationId === null) {
    return (
      <Page title={t('chat.settings')}>
        <EmptyState title={t('chat.notFound')} text={t('notFound.text')} />
      </Page>
    );
  }
  if (!conversationId || !selfId) return <PageSpinner />;
  return <ChatSettings conversationId={conversationId} selfId={selfId} />;
}

function ChatSettings({ conversationId, selfId }: { conversationId: string; selfId: string }) {
  const { t } = usePageTexts();
  const locale = useUiLocale();
  const engine = useEngine();
  const snapshot = useEngineSnapshot();
  const [pendingBurn, setPendingBurn] = useState<number | null>(null);
  const remarks = useRemarks();

  if (!engine || !snapshot || snapshot.status === 'starting') {
    return (
      <Page title={t('chat.settings')}>
        <PageSpinner />
      </Page>
    );
  }

  const view = snapshot.conversations.find((conversation) => conversation.id === conversationId);
  const peerId = peerOf(conversationId, selfId);
  const name = peerName(view, remarks) ?? t('chat.title');

  const setBurn = (value: string) => {
    const seconds = Number(value);
    setPendingBurn(seconds);
    engine
      .setBurn(conversationId, seconds)
      .catch(toastModifyFailure)
      .finally(() => setPendingBurn(null));
  };

  const burn = pendingBurn ?? view?.burnSeconds ?? 0;
  return (
    <Page title={t('chat.settings')} flush>
      {peerId ? (
        <Link className="tt-profile-card" to={withQuery(paths.seeMeans, { userId: peerId })}>
          <Avatar id={peerId} name={name} url={view?.peer?.avatarUrl} size={56} />
          <span className="tt-row-label">
            <h2>{name}</h2>
            <p>{t('chat.profile')}</p>
          </span>
        </Link>
      ) : null}
      <Section>
        <ul className="tt-list">
          <ConversationRows conversationId={conversationId} />
        </ul>
      </Section>
      {view?.kind === 'single' ? (
        <Section title={t('chat.burn')}>
          <p className="tt-section-intro tt-hint">{t('chat.burnHint')}</p>
          <ChoiceList
            legend={t('chat.burn')}
            name="burn"
            choices={BURN_DURATIONS.map((seconds) => ({
              value: String(seconds),
              primary: seconds === 0 ? t('chat.off') : formatDuration(seconds, locale),
            }))}
            value={String(burn)}
            onChange={setBurn}
          />
        </Section>
      ) : null}
      <Section>
        <ul className="tt-list">
          <SearchHistoryRow conversationId={conversationId} />
          <ClearHistoryRow conversationId={conversationId} />
        </ul>
      </Section>
    </Page>
  );
}
