import { useMutation } from '@tanstack/react-query';
import { ApiError } from '@teltlk/im-sdk';
import { routes } from '@teltlk/client';
import type { Channel, CodePurpose } from '@teltlk/protocol';
import { useState } from 'react';
import { usePageTexts } from '../../i18n/pages';
import { api } from '../../api/client';
import { CodeInput } from '../../ui/code-input';
import { errorMessage, isHandledError } from '../../ui/error-message';
import { showToast } from '../../ui/toast';
import { useCountdown } from '../../ui/use-countdown';
import { useMessageText } from '../../ui/use-message';
import { cooldownKey, readRecord, recordSent, type CodeRecord } from './code-cooldown';

export interface CodeSectionProps {
  purpose: CodePurpose;
  channel: Channel;
  destination: string;
  code: string;
  onCodeChange: (code: string) => void;
  onComplete?: (code: string) => void;
  error?: string;
  disabled?: boolean;
}

/** Where the code went, the code boxes, and a resend button with its countdown. */
export function CodeSection({
  purpose,
  channel,
  destination,
  code,
  onCodeChange,
  onComplete,
  error,
  disabled,
}: CodeSectionProps) {
  const { t } = usePageTexts();
  const text = useMessageText();
  const key = cooldownKey(purpose, channel, destination);
  const [record, setRecord] = useState<CodeRecord | null>(() => readRecord(sessionStorage, key));
  const secondsLeft = useCountdown(record?.resendAt ?? null);

  const resend = useMutation({
    mutationFn: () => api.call(routes.auth.sendCode, { body: { purpose, channel, destination } }),
    onSuccess: (result) => {
      setRecord(recordSent(sessionStorage, key, Date.now(), result.resendAfter));
      showToast(t('code.sent'), { icon: 'success' });
    },
    onError: (failure) => {
      if (failure instanceof ApiError && failure.code === 'CODE_TOO_FREQUENT') {
        setRecord(
          recordSent(sessionStorage, key, Date.now(), Number(failure.params?.seconds ?? 60)),
        );
      }
      if (!isHandledError(failure)) showToast(text(errorMessage(failure, 'sendCode')) ?? '');
    },
  });

  return (
    <>
      <p className="tt-hint">
        {record ? t('code.sentTo', { destination }) : t('code.notSentYet', { destination })}
      </p>
      <CodeInput
        label={t('code.label')}
        value={code}
        onChange={onCodeChange}
        onComplete={onComplete}
        error={error}
        disabled={disabled}
        autoFocus
      />
      <div>
        <button
          type="button"
          className="tt-link-button"
          disabled={secondsLeft > 0 || resend.isPending}
          onClick={() => resend.mutate()}
        >
          {secondsLeft > 0
            ? t('code.resendIn', { seconds: secondsLeft })
            : record
              ? t('code.resend')
              : t('code.send')}
        </button>
      </div>
    </>
  );
}
