import type { UpdateConversationBody } from '@teltlk/protocol';
import { DeleteOutline, SearchOutline } from 'antd-mobile-icons';
import { useState } from 'react';
import { usePageTexts } from '../../i18n/pages';
import { useEngine, useEngineSnapshot } from '../../app/engine';
import { toastModifyFailure } from '../failure-toast';
import { paths, withQuery } from '../../app/paths';
import { ButtonRow, LinkRow } from '../list-row';
import { confirmModal } from '../modal';
import { SwitchRow } from '../switch-row';
import { showToast } from '../toast';
import { TranslationSettingRow } from './translation-setting-row';

export { Section } from '../section';

/**
 * The pin, mute and translation rows of a settings list. Switches follow a tap at once; the
 * engine's state takes over once the call settles, so a failure puts them back.
 */
export function ConversationRows({ conversationId }: { conversationId: string }) {
  const { t } = usePageTexts();
  const engine = useEngine();
  const snapshot = useEngineSnapshot();
  const [pending, setPending] = useState<UpdateConversationBody>({});
  const view = snapshot?.conversations.find((conversation) => conversation.id === conversationId);

  const update = (patch: UpdateConversationBody) => {
    if (!engine) return;
    setPending((current) => ({ ...current, ...patch }));
    engine
      .updateConversation(conversationId, patch)
      .catch(toastModifyFailure)
      .finally(() =>
        setPending((current) => {
          // Only this call's keys: a switch tapped meanwhile stays as tapped.
          const next = { ...current };
          for (const key of Object.keys(patch) as (keyof UpdateConversationBody)[]) {
            delete next[key];
          }
          return next;
        }),
      );
  };

  return (
    <>
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
    </>
  );
}

/** "Search chat history": the search page, for this conversation only. */
export function SearchHistoryRow({ conversationId }: { conversationId: string }) {
  const { t } = usePageTexts();
  return (
    <li>
      <LinkRow
        icon={<SearchOutline />}
        label={t('search.inChat')}
        to={withQuery(paths.search, { conversationId })}
      />
    </li>
  );
}

/** The "Clear chat history" row: asks first, then deletes the messages on this device. */
export function ClearHistoryRow({ conversationId }: { conversationId: string }) {
  const { t } = usePageTexts();
  const engine = useEngine();
  const [clearing, setClearing] = useState(false);

  const clear = async () => {
    if (!engine || clearing || !(await confirmModal(t('chat.clear'), t('chat.clearConfirm')))) {
      return;
    }
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

  return (
    <li>
      <ButtonRow icon={<DeleteOutline />} label={t('chat.clear')} onClick={() => void clear()} />
    </li>
  );
}
