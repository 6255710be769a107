import { useQueryClient } from '@tanstack/react-query';
import { routes } from '@teltlk/client';
import {
  GROUP_APPLICATION_MESSAGE_MAX_LENGTH,
  groupNoSchema,
  type GroupSummary,
  groupConversationId,
} from '@teltlk/protocol';
import { useEffect, useId, useState } from 'react';
import { usePageTexts } from '../../i18n/pages';
import { useNavigate, useSearchParams } from 'react-router';
import { api } from '../../api/client';
import { paths, withQuery } from '../../app/paths';
import { Avatar } from '../../ui/avatar';
import { Button } from '../../ui/button';
import { toFormErrors, type Message } from '../../ui/error-message';
import { Page } from '../../ui/page';
import { TextField } from '../../ui/text-field';
import { showToast } from '../../ui/toast';
import { messageText, useMessageText } from '../../ui/use-message';
import { checkField } from '../../ui/validation';
import { groupKeys } from '../../api/use-groups';
import { toastFailure } from '../../ui/failure-toast';
import './groups.css';
import '../../ui/profile-card.css';

/**
 * `/pages/contacts/addGroup`: find a group by its ID and join it, or apply when an admin
 * approves. `?no=` (the shared join link) searches at once.
 */
export function AddGroupPage() {
  const { t } = usePageTexts();
  const text = useMessageText();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [search] = useSearchParams();
  const formId = useId();
  const linked = search.get('no') ?? '';
  const [no, setNo] = useState(linked);
  const [error, setError] = useState<Message | null>(null);
  const [found, setFound] = useState<GroupSummary | null>(null);
  const [searching, setSearching] = useState(false);
  const [message, setMessage] = useState('');
  const [joining, setJoining] = useState(false);

  const find = async (value: string) => {
    const invalid = checkField(groupNoSchema, value);
    setError(invalid);
    setFound(null);
    if (invalid) return;
    setSearching(true);
    try {
      setFound((await api.call(routes.groups.search, { query: { no: value.trim() } })).group);
    } catch (failure) {
      const errors = toFormErrors(failure, {
        fields: ['no'],
        codeFields: { GROUP_NOT_FOUND: 'no' },
      });
      setError(errors.fields.no ?? null);
      if (errors.general) showToast(messageText(errors.general));
    } finally {
      setSearching(false);
    }
  };

  // The join link opens with the number filled in: search it straight away.
  useEffect(() => {
    if (linked) void find(linked);
  }, [linked]);

  const join = async (group: GroupSummary) => {
    setJoining(true);
    try {
      const typed = message.trim();
      const { status } = await api.call(routes.groups.join, {
        params: { id: group.id },
        body: typed ? { message: typed } : {},
      });
      void queryClient.invalidateQueries({ queryKey: groupKeys.all() });
      void navigate(withQuery(paths.groupTip, { groupId: group.id, status, name: group.name }), {
        replace: true,
      });
    } catch (failure) {
      toastFailure(failure);
    } finally {
      setJoining(false);
    }
  };

  return (
    <Page title={t('groups.searchTitle')}>
      <form
        id={formId}
        className="tt-form"
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          void find(no);
        }}
      >
        <TextField
          label={t('groups.searchLabel')}
          placeholder={t('groups.searchPlaceholder')}
          inputMode="numeric"
          autoComplete="off"
          value={no}
          onChange={setNo}
          error={text(error)}
        />
        <Button type="submit" block busy={searching} disabled={!no.trim()}>
          {t('groups.searchSubmit')}
        </Button>
      </form>
      {found ? (
        <section className="tt-group-found" aria-label={found.name}>
          <div className="tt-profile-card">
            <Avatar id={found.id} name={found.name} url={found.avatarUrl} size={56} />
            <span className="tt-row-label">
              <h2>{found.name}</h2>
              <p>
                {t('groups.groupNo')}: {found.groupNo} ·{' '}
                {t('groups.memberCount', { count: found.memberCount })}
              </p>
            </span>
          </div>
          {found.joined ? (
            <>
              <p className="tt-hint">{t('groups.joined')}</p>
              <Button
                block
                onClick={() =>
                  void navigate(
                    withQuery(paths.chat, { conversationId: groupConversationId(found.id) }),
                  )
                }
              >
                {t('groups.open')}
              </Button>
            </>
          ) : found.verification === 'invite' ? (
            <p className="tt-hint">{t('groups.inviteOnly')}</p>
          ) : (
            <div className="tt-form">
              {found.verification === 'approval' ? (
                <TextField
                  label={t('groups.applyMessage')}
                  maxLength={GROUP_APPLICATION_MESSAGE_MAX_LENGTH}
                  value={message}
                  onChange={setMessage}
                />
              ) : null}
              <Button block busy={joining} onClick={() => void join(found)}>
                {found.verification === 'approval' ? t('groups.apply') : t('groups.join')}
              </Button>
            </div>
          )}
        </section>
      ) : null}
    </Page>
  );
}
