import { useQueryClient } from '@tanstack/react-query';
import { routes } from '@teltlk/client';
import {
  GROUP_INVITE_MAX,
  GROUP_NAME_MAX_LENGTH,
  groupNameSchema,
  groupConversationId,
} from '@teltlk/protocol';
import { useId, useState } from 'react';
import { usePageTexts } from '../../i18n/pages';
import { Navigate, useNavigate, useSearchParams } from 'react-router';
import { api } from '../../api/client';
import { paths, withQuery } from '../../app/paths';
import { toFormErrors, type Message } from '../../ui/error-message';
import { Page } from '../../ui/page';
import { QueryError } from '../../ui/query-error';
import { PageSpinner } from '../../ui/spinner';
import { TextField } from '../../ui/text-field';
import { showToast } from '../../ui/toast';
import { messageText, useMessageText } from '../../ui/use-message';
import { checkField } from '../../ui/validation';
import { useFriends } from '../../api/use-contacts';
import { FriendPicker } from './friend-picker';
import { groupKeys, readGroupId } from '../../api/use-groups';

/**
 * `/pages/home/groupChat`: create a group from friends. With `?groupId=` it is the group's
 * chat, which the conversation page shows.
 */
export function CreateGroupPage() {
  const [search] = useSearchParams();
  const groupId = readGroupId(search);
  if (groupId) {
    return (
      <Navigate
        replace
        to={withQuery(paths.chat, { conversationId: groupConversationId(groupId) })}
      />
    );
  }
  return <CreateGroupForm />;
}

function CreateGroupForm() {
  const { t } = usePageTexts();
  const text = useMessageText();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const formId = useId();
  const friends = useFriends();
  const [name, setName] = useState('');
  const [chosen, setChosen] = useState<string[]>([]);
  const [error, setError] = useState<Message | null>(null);
  const [busy, setBusy] = useState(false);

  const toggle = (userId: string, checked: boolean) =>
    setChosen((current) =>
      checked
        ? current.length >= GROUP_INVITE_MAX
          ? current
          : [...current, userId]
        : current.filter((id) => id !== userId),
    );

  const submit = async () => {
    const invalid = name.trim() ? checkField(groupNameSchema, name) : null;
    setError(invalid);
    if (invalid || chosen.length === 0 || busy) return;
    setBusy(true);
    try {
      const group = await api.call(routes.groups.create, {
        body: { ...(name.trim() ? { name: name.trim() } : {}), memberIds: chosen },
      });
      queryClient.setQueryData(groupKeys.group(group.id), group);
      void queryClient.invalidateQueries({ queryKey: groupKeys.list() });
      showToast(t('groups.created'), { icon: 'success' });
      void navigate(withQuery(paths.chat, { conversationId: groupConversationId(group.id) }), {
        replace: true,
      });
    } catch (failure) {
      const errors = toFormErrors(failure, { fields: ['name'], fallback: 'modify' });
      setError(errors.fields.name ?? null);
      if (errors.general) showToast(messageText(errors.general));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Page
      title={t('groups.createTitle')}
      action={{
        label: t('groups.createSubmit', { count: chosen.length }),
        form: formId,
        disabled: chosen.length === 0,
        busy,
      }}
      flush
    >
      <form
        id={formId}
        className="tt-form tt-group-create"
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          void submit();
        }}
      >
        <div className="tt-content">
          <TextField
            label={t('groups.createName')}
            hint={t('groups.createNameHint')}
            maxLength={GROUP_NAME_MAX_LENGTH}
            value={name}
            onChange={setName}
            error={text(error)}
          />
        </div>
        {friends.error ? (
          <QueryError error={friends.error} onRetry={() => void friends.refetch()} />
        ) : friends.data ? (
          <FriendPicker
            legend={t('groups.pickFriends')}
            friends={friends.data.friends}
            chosen={chosen}
            onToggle={toggle}
          />
        ) : (
          <PageSpinner />
        )}
      </form>
    </Page>
  );
}
