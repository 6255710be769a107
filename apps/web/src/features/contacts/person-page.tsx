import {
  GREETING_MAX_LENGTH,
  greetingSchema,
  singleConversationId,
  userIdSchema,
  type Me,
  type UserProfile,
} from '@teltlk/protocol';
import { useId, useState } from 'react';
import { usePageTexts } from '../../i18n/pages';
import { useNavigate, useSearchParams } from 'react-router';
import { useMe } from '../../api/queries';
import { paths, withQuery } from '../../app/paths';
import { Avatar } from '../../ui/avatar';
import { Button } from '../../ui/button';
import { countryName } from '../../ui/countries';
import { toFormErrors, type Message } from '../../ui/error-message';
import { languageLabel } from '../../ui/languages';
import { ButtonRow, InfoRow, LinkRow } from '../../ui/list-row';
import { confirmModal } from '../../ui/modal';
import { Page } from '../../ui/page';
import { useUiLocale } from '../../ui/use-ui-locale';
import { QueryError } from '../../ui/query-error';
import { PageSpinner } from '../../ui/spinner';
import { TextField } from '../../ui/text-field';
import { showToast } from '../../ui/toast';
import { messageText, useMessageText } from '../../ui/use-message';
import { checkField } from '../../ui/validation';
import { readGroupId } from '../../api/use-groups';
import { OfficialTag } from './person-link';
import {
  useAnswerFriendRequest,
  useContactEvents,
  useDeleteFriend,
  useFriendRequests,
  usePerson,
  useSendFriendRequest,
  useSetBlocked,
} from '../../api/use-contacts';
import { toastModifyFailure } from '../../ui/failure-toast';
import './contacts.css';

function AddForm({ person, me, groupId }: { person: UserProfile; me: Me; groupId: string | null }) {
  const { t } = usePageTexts();
  const text = useMessageText();
  const requests = useFriendRequests();
  const send = useSendFriendRequest();
  const [greeting, setGreeting] = useState(() =>
    t('addFriend.greetingDefault', { name: me.nickname }).slice(0, GREETING_MAX_LENGTH),
  );
  const [error, setError] = useState<Message | null>(null);
  const pendingSent = requests.data?.sent.some(
    (request) => request.to.id === person.id && request.status === 'pending',
  );

  const submit = () => {
    const invalid = checkField(greetingSchema, greeting);
    setError(invalid);
    if (invalid) return;
    const trimmed = greeting.trim();
    send.mutate(
      { userId: person.id, greeting: trimmed || undefined, groupId: groupId ?? undefined },
      {
        onSuccess: () => showToast(t('addFriend.sent'), { icon: 'success' }),
        onError: (failure) => {
          const errors = toFormErrors(failure, { fields: ['greeting'] });
          setError(errors.fields.greeting ?? null);
          if (errors.general) showToast(messageText(errors.general));
        },
      },
    );
  };

  return (
    <form
      className="tt-form tt-person-form"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        submit();
      }}
    >
      {pendingSent ? <p className="tt-hint">{t('friends.requestSent')}</p> : null}
      <TextField
        label={t('addFriend.greetingLabel')}
        maxLength={GREETING_MAX_LENGTH}
        autoComplete="off"
        value={greeting}
        onChange={setGreeting}
        error={text(error)}
      />
      <Button type="submit" block busy={send.isPending}>
        {pendingSent ? t('addFriend.sendAgain') : t('addFriend.send')}
      </Button>
    </form>
  );
}

/** Someone asked this user to be friends: answer here instead of sending a second request. */
function AnswerRequest({
  person,
  requestId,
  greeting,
}: {
  person: UserProfile;
  requestId: string;
  greeting: string;
}) {
  const { t } = usePageTexts();
  const answer = useAnswerFriendRequest();
  const respond = (accept: boolean) =>
    answer.mutate(
      { id: requestId, accept },
      {
        onSuccess: () =>
          showToast(t(accept ? 'friends.accepted' : 'friends.rejected'), { icon: 'success' }),
        onError: toastModifyFailure,
      },
    );
  const busy = answer.isPending ? (answer.variables?.accept ?? null) : null;
  return (
    <section className="tt-person-form">
      <p>{t('friends.wantsToAdd', { name: person.nickname })}</p>
      {greeting ? <blockquote className="tt-greeting">{greeting}</blockquote> : null}
      <div className="tt-request-actions">
        <Button
          variant="secondary"
          busy={busy === false}
          disabled={answer.isPending}
          onClick={() => respond(false)}
        >
          {t('friends.reject')}
        </Button>
        <Button busy={busy === true} disabled={answer.isPending} onClick={() => respond(true)}>
          {t('friends.accept')}
        </Button>
      </div>
    </section>
  );
}

function PersonView({
  person,
  me,
  groupId,
}: {
  person: UserProfile;
  me: Me;
  groupId: string | null;
}) {
  const { t } = usePageTexts();
  const locale = useUiLocale();
  const navigate = useNavigate();
  const requests = useFriendRequests();
  const deleteFriend = useDeleteFriend();
  const setBlocked = useSetBlocked();
  const nameId = useId();

  const self = person.relation === 'self';
  const friend = person.relation === 'friend';
  const shownName = person.remark?.trim() || person.nickname;
  const received = requests.data?.received.find(
    (request) => request.from.id === person.id && request.status === 'pending',
  );

  const openChat = () =>
    void navigate(
      withQuery(paths.chat, { conversationId: singleConversationId(me.id, person.id) }),
    );

  const removeFriend = async () => {
    const confirmed = await confirmModal(
      t('friends.deleteTitle'),
      t('friends.deleteConfirm', { name: shownName }),
      t('friends.delete'),
    );
    if (!confirmed) return;
    deleteFriend.mutate(person.id, {
      onSuccess: () => showToast(t('friends.deleted'), { icon: 'success' }),
      onError: toastModifyFailure,
    });
  };

  const toggleBlock = async () => {
    const block = !person.blocked;
    const confirmed = await confirmModal(
      t(block ? 'blocks.block' : 'blocks.unblock'),
      t(block ? 'blocks.blockConfirm' : 'blocks.unblockConfirm', { name: shownName }),
      t(block ? 'blocks.block' : 'blocks.unblock'),
    );
    if (!confirmed) return;
    setBlocked.mutate(
      { userId: person.id, block },
      {
        onSuccess: () =>
          showToast(t(block ? 'blocks.blocked' : 'blocks.unblocked'), { icon: 'success' }),
        onError: toastModifyFailure,
      },
    );
  };

  return (
    <>
      <section className="tt-person-card" aria-labelledby={nameId}>
        <Avatar id={person.id} name={person.nickname} url={person.avatarUrl} size={64} />
        <div className="tt-person-text">
          <h2 id={nameId} className="tt-person-name">
            {shownName}
            {person.official ? <OfficialTag /> : null}
          </h2>
          {person.remark ? (
            <p className="tt-person-detail">{t('friends.nicknameIs', { name: person.nickname })}</p>
          ) : null}
          <p className="tt-person-detail">{t('friends.teltlkIdIs', { id: person.teltlkId })}</p>
        </div>
      </section>

      <ul className="tt-list tt-section">
        {friend ? (
          <li>
            <LinkRow
              to={withQuery(paths.setUserNickname, { userId: person.id })}
              label={t('friends.remark')}
              value={person.remark ?? t('common.notSet')}
            />
          </li>
        ) : null}
        {friend ? (
          <li>
            <LinkRow
              to={withQuery(paths.setUserTogue, { userId: person.id })}
              label={t('translation.title')}
            />
          </li>
        ) : null}
        <li>
          <InfoRow label={t('profile.country')} value={countryName(person.country, locale)} />
        </li>
        <li>
          <InfoRow
            label={t('profile.motherTongue')}
            value={languageLabel(person.motherTongue, locale)}
          />
        </li>
      </ul>

      {person.blocked ? (
        <p className="tt-alert tt-person-note" role="status">
          {t('blocks.blockedNote')}
        </p>
      ) : null}

      {self ? (
        <>
          <p className="tt-person-note">{t('friends.self')}</p>
          <ul className="tt-list">
            <li>
              <LinkRow to={paths.means} label={t('friends.editProfile')} />
            </li>
          </ul>
        </>
      ) : friend || person.official ? (
        <div className="tt-person-form">
          <Button block onClick={openChat}>
            {t('friends.sendMessage')}
          </Button>
        </div>
      ) : person.blocked ? null : received ? (
        <AnswerRequest person={person} requestId={received.id} greeting={received.greeting} />
      ) : (
        <AddForm person={person} me={me} groupId={groupId} />
      )}

      {self ? null : (
        <ul className="tt-list tt-section">
          {friend ? (
            <li>
              <ButtonRow label={t('friends.deleteFriend')} onClick={() => void removeFriend()} />
            </li>
          ) : null}
          <li>
            <ButtonRow
              label={person.blocked ? t('blocks.unblock') : t('blocks.block')}
              onClick={() => void toggleBlock()}
            />
          </li>
        </ul>
      )}
    </>
  );
}

/**
 * `/pages/contacts/seeMeans?userId=[&groupId=]`: another user's profile, with what the
 * relation allows; reached from a group's member list, a friend application goes through
 * that group.
 */
export function PersonPage() {
  const { t } = usePageTexts();
  const [search] = useSearchParams();
  const parsed = userIdSchema.safeParse(search.get('userId'));
  const userId = parsed.success ? parsed.data : null;
  const groupId = readGroupId(search);
  const person = usePerson(userId);
  const me = useMe();
  useContactEvents();
  const error = person.error ?? me.error;
  return (
    <Page title={t('friends.profileTitle')} flush>
      {userId === null ? (
        <p className="tt-empty" role="alert">
          {t('error.USER_NOT_FOUND')}
        </p>
      ) : person.data && me.data ? (
        <PersonView person={person.data} me={me.data} groupId={groupId} />
      ) : error ? (
        <QueryError
          error={error}
          onRetry={() => void Promise.all([person.refetch(), me.refetch()])}
        />
      ) : (
        <PageSpinner />
      )}
    </Page>
  );
}
