import { BURN_DURATIONS, peerOf, type UpdateConversationBody } from '@teltlk/protocol';
import { DeleteOutline } from 'antd-mobile-icons';
import { useId, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useEngine, useEngineSnapshot, useSelfId } from '../../app/engine';
import { paths } from '../../app/paths';
import { withQuery } from '../../app/route-params';
import { Avatar } from '../../ui/avatar';
import { ChoiceList } from '../../ui/choice-list';
import { EmptyState } from '../../ui/empty-state';
import { ButtonRow } from '../../ui/list-row';
import { confirmModal } from '../../ui/modal';
import { Page } from '../../ui/page';
import { useUiLocale } from '../../ui/pickers';
import { PageSpinner } from '../../ui/spinner';
import { SwitchRow } from '../../ui/switch-row';
import { showToast } from '../../ui/toast';
import { peerName } from './messages';
import { formatDuration } from './time-labels';
import { TranslationSettingRow } from './translation-setting-row';
import { useConversationParam } from './use-conversation-param';
import { useRemarks } from './use-remarks';
import { toastModifyFailure } from '../../ui/failure-toast';

function Section({ title, children }: { title?: string; children: ReactNode }) {
  const id = useId();
  return (
    <section className="tt-section" aria-labelledby={title ? id : undefined}>
      {title ? (
        <h2 id={id} className="tt-section-title">
          {title}
        </h2>
      ) : null}
      {children}
    </section>
  );
}

/**
 * `/pages/home/chatSetting?conversationId=…`: pin, mute, translation, burn after reading,
 * clear history.
 */
export function ChatSettingPage() {
  const { t } = useTranslation();
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
  const { t } = useTranslation();
  const locale = useUiLocale();
  const engine = useEngine();
  const snapshot = useEngineSnapshot();
  // Switches follow a tap at once; the engine's state takes over once the call settles.
  const [pending, setPending] = useState<UpdateConversationBody>({});
  const [pendingBurn, setPendingBurn] = useState<number | null>(null);
  const [clearing, setClearing] = useState(false);
  const remarks = useRemarks();

  if (!engine || !snapshot?.ready) {
    return (
      <Page title={t('chat.settings')}>
        <PageSpinner />
      </Page>
    );
  }

  const view = snapshot.conversations.find((conversation) => conversation.id === conversationId);
  const peerId = peerOf(conversationId, selfId);
  const name = peerName(view, remarks) ?? t('chat.title');

  const update = (patch: UpdateConversationBody) => {
    setPending((current) => ({ ...current, ...patch }));
    engine
      .updateConversation(conversationId, patch)
      .catch(toastModifyFailure)
      .finally(() =>
        setPending((current) => {
          const next = { ...current };
          for (const key of Object.keys(patch) as (keyof UpdateConversationBody)[]) {
            delete next[key];
          }
          return next;
        }),
      );
  };

  const setBurn = (value: string) => {
    const seconds = Number(value);
    setPendingBurn(seconds);
    engine
      .setBurn(conversationId, seconds)
      .catch(toastModifyFailure)
      .finally(() => setPendingBurn(null));
  };

  const clear = async () => {
    if (clearing || !(await confirmModal(t('chat.clear'), t('chat.clearConfirm')))) return;
    setClearing(true);
    try {
      await engine.clearHistory(conversationId);
      showToast(t('chat.cleared'), { icon: 'success' });
    } catch (error) {
      toastModifyFailure(error);
    } finally {
      setClearing(false);
    }
  };

  const burn = pendingBurn ?? view?.burnSeconds ?? 0;
  return (
    <Page title={t('chat.settings')} flush>
      {peerId ? (
        <Link className="tt-profile-card" to={withQuery(paths.seeMeans, { userId: peerId })}>
          <Avatar name={name} url={view?.peer?.avatarUrl} size={56} />
          <span className="tt-row-label">
            <h2>{name}</h2>
            <p>{t('chat.profile')}</p>
          </span>
        </Link>
      ) : null}
      <Section>
        <ul className="tt-list">
          <li>
            <SwitchRow
              label={t('chat.pin')}
              checked={pending.pinned ?? view?.pinned ?? false}
              disabled={!view}
              onChange={(pinned) => update({ pinned })}
            />
          </li>
          <li>
            <SwitchRow
              label={t('chat.mute')}
              hint={t('chat.muteHint')}
              checked={pending.muted ?? view?.muted ?? false}
              disabled={!view}
              onChange={(muted) => update({ muted })}
            />
          </li>
          {view ? <TranslationSettingRow view={view} /> : null}
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
          <li>
            <ButtonRow
              icon={<DeleteOutline />}
              label={t('chat.clear')}
              onClick={() => void clear()}
            />
          </li>
        </ul>
      </Section>
    </Page>
  );
}
