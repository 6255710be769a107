import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toFormErrors, type Message } from './error-message';
import { Page } from './page';
import { useGoBack } from './page-header';
import { TextField } from './text-field';
import { showToast } from './toast';
import { messageText, useMessageText } from './use-message';

interface TextFieldPageProps {
  title: string;
  label: string;
  hint?: string;
  initial: string;
  maxLength: number;
  autoComplete?: string;
  /** The field's name in the server's validation errors. */
  field: string;
  /** Why the (trimmed) value cannot be saved, or null when it can. */
  check(value: string): Message | null;
  /** Saves the trimmed value. */
  save(value: string): Promise<unknown>;
  busy: boolean;
}

/**
 * A page that edits one line of text, with the confirm button in its header (the spec's
 * nikeName, setUserNickname): checked here first, then saved; back on success, unchanged
 * text just goes back.
 */
export function TextFieldPage(props: TextFieldPageProps) {
  const { t } = useTranslation();
  const text = useMessageText();
  const goBack = useGoBack();
  const formId = useId();
  const [value, setValue] = useState(props.initial);
  const [error, setError] = useState<Message | null>(null);

  const submit = async () => {
    const trimmed = value.trim();
    const invalid = props.check(trimmed);
    setError(invalid);
    if (invalid) return;
    if (trimmed === props.initial) return goBack();
    try {
      await props.save(trimmed);
      showToast(t('common.saved'), { icon: 'success' });
      goBack();
    } catch (failure) {
      const errors = toFormErrors(failure, { fields: [props.field], fallback: 'modify' });
      setError(errors.fields[props.field] ?? null);
      if (errors.general) showToast(messageText(errors.general));
    }
  };

  return (
    <Page
      title={props.title}
      action={{ label: t('common.confirm'), form: formId, busy: props.busy }}
    >
      <form
        id={formId}
        className="tt-form"
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          void submit();
        }}
      >
        <TextField
          label={props.label}
          hint={props.hint}
          autoComplete={props.autoComplete}
          maxLength={props.maxLength}
          autoFocus
          value={value}
          onChange={setValue}
          error={text(error)}
        />
      </form>
    </Page>
  );
}
