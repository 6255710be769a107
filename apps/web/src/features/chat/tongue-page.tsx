import type { ConversationView, ImEngine } from '@teltlk/im-sdk';
import {
  LANGUAGES,
  findLanguage,
  singleConversationId,
  userIdSchema,
  type UpdateConversationBody,
} from '@teltlk/protocol';
import { useId, useMemo, useState } from 'react';
import { usePageTexts } from '../../i18n/pages';
import { useSearchParams } from 'react-router';
import { useMe } from '../../api/queries';
import { useEngine, useEngineSnapshot, useSelfId } from '../../app/engine';
import { ChoiceList, type Choice } from '../../ui/choice-list';
import { EmptyState } from '../../ui/empty-state';
import { toastModifyFailure } from '../../ui/failure-toast';
import { Page } from '../../ui/page';
import { useGoBack } from '../../ui/page-header';
import { PageSpinner } from '../../ui/spinner';
import { SwitchRow } from '../../ui/switch-row';
import { showToast } from '../../ui/toast';
import { useConversationParam } from './use-conversation-param';

/** The radio value of "My mother tongue": no language of the conversation's own. */
const MOTHER_TONGUE = '';

/**
 * `/pages/home/tongue?conversationId=…`: whether a conversation's messages are shown
 * translated, and into which language; the header's confirm button saves.
 */
export function TonguePage() {
  const selfId = useSelfId();
  return <ConversationTongue conversationId={useConversationParam(selfId)} />;
}

/**
 * `/pages/home/setUserTogue?userId=…`: the same, for the chat with a friend, reached
 * from their profile.
 */
export function SetUserToguePage() {
  const selfId = useSelfId();
  const [search] = useSearchParams();
  const parsed = userIdSchema.safeParse(search.get('userId'));
  const conversationId = !parsed.success
    ? null
    : selfId
      ? singleConversationId(selfId, parsed.data)
      : undefined;
  return <ConversationTongue conversationId={conversationId} />;
}

/** A conversation's translation form; null: no such conversation, undefined: not known yet. */
function ConversationTongue({ conversationId }: { conversationId: string | null | undefined }) {
  const { t } = usePageTexts();
  const engine = useEngine();
  const snapshot = useEngineSnapshot();
  const title = t('translation.title');
  if (conversationId === null) {
    return (
      <Page title={title}>
        <EmptyState title={t('chat.notFound')} text={t('notFound.text')} />
      </Page>
    );
  }
  const view = snapshot?.conversations.find((conversation) => conversation.id === conversationId);
  if (!conversationId || !engine || !snapshot || snapshot.status === 'starting') {
    return (
      <Page title={title}>
        <PageSpinner />
      </Page>
    );
  }
  if (!view) {
    return (
      <Page title={title}>
        <EmptyState title={t('chat.notFound')} text={t('notFound.text')} />
      </Page>
    );
  }
  return <TongueForm key={view.id} engine={engine} view={view} title={title} />;
}

/** Every language, native name first and the English name beside it. */
function useTargetChoices(motherTongue: string | null): Choice[] {
  const { t } = usePageTexts();
  const own = motherTongue ? (findLanguage(motherTongue)?.native ?? motherTongue) : '…';
  const mine = t('translation.myMotherTongue', { name: own });
  return useMemo(
    () => [
      { value: MOTHER_TONGUE, primary: mine },
      ...LANGUAGES.map((language) => ({
        value: language.code,
        primary: language.native,
        secondary: language.english === language.native ? undefined : language.english,
        keywords: language.code,
      })),
    ],
    [mine],
  );
}

function TongueForm({
  engine,
  view,
  title,
}: {
  engine: ImEngine;
  view: ConversationView;
  title: string;
}) {
  const { t } = usePageTexts();
  const goBack = useGoBack();
  const formId = useId();
  const me = useMe();
  const [translate, setTranslate] = useState(view.translate);
  const [target, setTarget] = useState(view.translateTo ?? MOTHER_TONGUE);
  const [saving, setSaving] = useState(false);
  const choices = useTargetChoices(me.data?.motherTongue ?? null);

  const submit = async () => {
    const patch: UpdateConversationBody = {};
    if (translate !== view.translate) patch.translate = translate;
    const translateTo = target === MOTHER_TONGUE ? null : target;
    if (translateTo !== view.translateTo) patch.translateTo = translateTo;
    if (Object.keys(patch).length === 0) return goBack();
    setSaving(true);
    try {
      await engine.updateConversation(view.id, patch);
      showToast(t('common.saved'), { icon: 'success' });
      goBack();
    } catch (error) {
      toastModifyFailure(error);
    } finally {
      setSaving(false);
    }
  };

  return (
    <Page title={title} flush action={{ label: t('common.confirm'), form: formId, busy: saving }}>
      <form
        id={formId}
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          void submit();
        }}
      >
        <ul className="tt-list">
          <li>
            <SwitchRow
              label={t('translation.translateMessages')}
              hint={t('translation.translateMessagesHint')}
              checked={translate}
              onChange={setTranslate}
            />
          </li>
        </ul>
        <section className="tt-section" aria-labelledby={`${formId}-into`}>
          <h2 id={`${formId}-into`} className="tt-section-title">
            {t('translation.translateInto')}
          </h2>
          <ChoiceList
            legend={t('translation.translateInto')}
            name="translateTo"
            searchable
            secondaryInName
            choices={choices}
            value={target}
            onChange={setTarget}
          />
        </section>
      </form>
    </Page>
  );
}
