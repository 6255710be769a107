import { useMutation } from '@tanstack/react-query';
import { VERIFICATION_CODE_LENGTH, type CodePurpose } from '@teltlk/protocol';
import { useState } from 'react';
import type { DestinationParams } from '../../app/route-params';
import { Button } from '../../ui/button';
import { toFormErrors, type FallbackKey, type Message } from '../../ui/error-message';
import { Page } from '../../ui/page';
import { useMessageText } from '../../ui/use-message';
import { CodeSection } from './code-section';

export interface CodeEntryFormProps<T> {
  purpose: CodePurpose;
  target: DestinationParams;
  title: string;
  submitLabel: string;
  /** The screen's message when the server fails without a more precise one. */
  fallback: FallbackKey;
  /** Trades the code for a result (a session, a registration ticket). */
  redeem: (code: string) => Promise<T>;
  onRedeemed: (result: T) => void | Promise<void>;
  /** Handles a failure itself (returns true), before the form shows it. */
  onFailure?: (failure: unknown) => boolean;
}

/** The code page of a destination: six digits, sent on completion or with the button. */
export function CodeEntryForm<T>({
  purpose,
  target,
  title,
  submitLabel,
  fallback,
  redeem,
  onRedeemed,
  onFailure,
}: CodeEntryFormProps<T>) {
  const text = useMessageText();
  const [code, setCode] = useState('');
  const [error, setError] = useState<Message | null>(null);
  const [general, setGeneral] = useState<Message | null>(null);

  const mutation = useMutation({
    mutationFn: redeem,
    onSuccess: onRedeemed,
    onError: (failure) => {
      if (onFailure?.(failure)) return;
      const errors = toFormErrors(failure, {
        fields: ['code'],
        codeFields: { CODE_INVALID: 'code', CODE_EXPIRED: 'code' },
        fallback,
      });
      setError(errors.fields.code ?? null);
      setGeneral(errors.general);
      // A wrong code is typed again from the start.
      if (errors.fields.code) setCode('');
    },
  });

  const submit = (value: string) => {
    if (mutation.isPending) return;
    setGeneral(null);
    if (value.length !== VERIFICATION_CODE_LENGTH) {
      setError({ key: 'rule.code' });
      return;
    }
    setError(null);
    mutation.mutate(value);
  };

  return (
    <Page title={title}>
      <form
        className="tt-auth tt-form"
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          submit(code);
        }}
      >
        <CodeSection
          purpose={purpose}
          channel={target.channel}
          destination={target.destination}
          code={code}
          onCodeChange={(value) => {
            setCode(value);
            if (error) setError(null);
          }}
          onComplete={submit}
          error={text(error)}
        />
        {general ? (
          <p className="tt-alert" role="alert">
            {text(general)}
          </p>
        ) : null}
        <Button type="submit" block busy={mutation.isPending}>
          {submitLabel}
        </Button>
      </form>
    </Page>
  );
}
