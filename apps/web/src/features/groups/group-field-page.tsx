import {
  GROUP_NAME_MAX_LENGTH,
  GROUP_NICKNAME_MAX_LENGTH,
  GROUP_NOTICE_MAX_LENGTH,
  GROUP_REMARK_MAX_LENGTH,
  groupNameSchema,
  groupNoticeSchema,
  updateMyGroupBody,
  type MyGroup,
} from '@teltlk/protocol';
import { useId, useState } from 'react';
import { usePageTexts } from '../../i18n/pages';
import { useSearchParams } from 'react-router';
import { EmptyState } from '../../ui/empty-state';
import { toFormErrors, type Message } from '../../ui/error-message';
import { Page } from '../../ui/page';
import { useGoBack } from '../../ui/page-header';
import { QueryError } from '../../ui/query-error';
import { PageSpinner } from '../../ui/spinner';
import { TextField } from '../../ui/text-field';
import { showToast } from '../../ui/toast';
import { messageText, useMessageText } from '../../ui/use-message';
import { checkField } from '../../ui/validation';
import { readGroupId, useGroup, useUpdateGroup, useUpdateMyGroup } from '../../api/use-groups';
import './groups.css';

type Field = 'name' | 'notice' | 'nickname' | 'remark';

const FIELDS: Record<
  Field,
  {
    max: number;
    label: 'groups.name' | 'groups.notice' | 'groups.nickname' | 'groups.remark';
    hint?: 'groups.noticeHint' | 'groups.nicknameHint' | 'groups.remarkHint';
  }
> = {
  name: { max: GROUP_NAME_MAX_LENGTH, label: 'groups.name' },
  notice: { max: GROUP_NOTICE_MAX_LENGTH, label: 'groups.notice', hint: 'groups.noticeHint' },
  nickname: {
    max: GROUP_NICKNAME_MAX_LENGTH,
    label: 'groups.nickname',
    hint: 'groups.nicknameHint',
  },
  remark: { max: GROUP_REMARK_MAX_LENGTH, label: 'groups.remark', hint: 'groups.remarkHint' },
};

function readField(search: URLSearchParams): Field {
  const field = search.get('field');
  return field === 'notice' || field === 'nickname' || field === 'remark' ? field : 'name';
}

function currentValue(group: MyGroup, field: Field): string {
  if (field === 'name') return group.name;
  if (field === 'notice') return group.notice;
  return group.me[field] ?? '';
}

function FieldForm({ group, field }: { group: MyGroup; field: Field }) {
  const { t } = usePageTexts();
  const text = useMessageText();
  const goBack = useGoBack();
  const formId = useId();
  const updateGroup = useUpdateGroup(group.id);
  const updateMine = useUpdateMyGroup(group.id);
  const initial = currentValue(group, field);
  const [value, setValue] = useState(initial);
  const [error, setError] = useState<Message | null>(null);
  const config = FIELDS[field];
  const busy = updateGroup.isPending || updateMine.isPending;

  const submit = () => {
    const trimmed = value.trim();
    const schema =
      field === 'name'
        ? groupNameSchema
        : field === 'notice'
          ? groupNoticeSchema
          : updateMyGroupBody.shape[field];
    const invalid = checkField(schema, field === 'name' || field === 'notice' ? value : trimmed);
    setError(invalid);
    if (invalid) return;
    if (trimmed === initial.trim()) return goBack();
    const options = {
      onSuccess: () => {
        showToast(t('common.saved'), { icon: 'success' });
        goBack();
      },
      onError: (failure: unknown) => {
        const errors = toFormErrors(failure, {
          fields: [field],
          pathAliases: { nickname: field, remark: field, name: field, notice: field },
          fallback: 'modify',
        });
        setError(errors.fields[field] ?? null);
        if (errors.general) showToast(messageText(errors.general));
      },
    };
    if (field === 'name' || field === 'notice') {
      updateGroup.mutate({ [field]: trimmed }, options);
    } else {
      // An empty nickname or remark clears it.
      updateMine.mutate({ [field]: trimmed || null }, options);
    }
  };

  return (
    <Page title={t(config.label)} action={{ label: t('common.confirm'), form: formId, busy }}>
      <form
        id={formId}
        className="tt-form"
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          submit();
        }}
      >
        {field === 'notice' ? (
          <div className="tt-field">
            <label className="tt-label" htmlFor={`${formId}-notice`}>
              {t(config.label)}
            </label>
            <div className="tt-field-control" data-invalid={error ? 'true' : undefined}>
              <textarea
                id={`${formId}-notice`}
                className="tt-input tt-group-notice-input"
                dir="auto"
                maxLength={config.max}
                rows={8}
                value={value}
                aria-invalid={error ? true : undefined}
                aria-describedby={`${formId}-hint`}
                onChange={(event) => setValue(event.target.value)}
              />
            </div>
            <p id={`${formId}-hint`} className="tt-hint">
              {t('groups.noticeHint')}
            </p>
            {error ? (
              <p className="tt-error" role="alert">
                {text(error)}
              </p>
            ) : null}
          </div>
        ) : (
          <TextField
            label={t(config.label)}
            hint={config.hint ? t(config.hint) : undefined}
            maxLength={config.max}
            autoFocus
            value={value}
            onChange={setValue}
            error={text(error)}
          />
        )}
      </form>
    </Page>
  );
}

/**
 * `/pages/home/groupName?groupId=…&field=…`: edits the group name (the default), the
 * notice, or the caller's own nickname or remark; the header's confirm button saves.
 */
export function GroupFieldPage() {
  const { t } = usePageTexts();
  const [search] = useSearchParams();
  const groupId = readGroupId(search);
  const field = readField(search);
  const group = useGroup(groupId);
  if (!groupId) {
    return (
      <Page title={t('groups.name')}>
        <EmptyState title={t('chat.notFound')} text={t('notFound.text')} />
      </Page>
    );
  }
  if (group.data) return <FieldForm group={group.data} field={field} />;
  return (
    <Page title={t(FIELDS[field].label)}>
      {group.error ? (
        <QueryError error={group.error} onRetry={() => void group.refetch()} />
      ) : (
        <PageSpinner />
      )}
    </Page>
  );
}
