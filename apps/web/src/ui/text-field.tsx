import { useId, useState, type InputHTMLAttributes, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { LINE_ICONS, type LineIconName } from './line-icons';

export interface TextFieldProps extends Omit<
  InputHTMLAttributes<HTMLInputElement>,
  'onChange' | 'value' | 'prefix'
> {
  label: string;
  value: string;
  onChange: (value: string) => void;
  hint?: string;
  error?: string;
  /** Shown before the input inside the box, e.g. the area-code picker. */
  prefix?: ReactNode;
  /** Shown after the input inside the box, e.g. the show-password toggle. */
  suffix?: ReactNode;
  /** Hides the visible label (the input keeps it as its accessible name). */
  hideLabel?: boolean;
}

/** A labelled native input with its hint and error tied to it for assistive technology. */
export function TextField({
  label,
  value,
  onChange,
  hint,
  error,
  prefix,
  suffix,
  hideLabel,
  id,
  ...rest
}: TextFieldProps) {
  const generated = useId();
  const inputId = id ?? generated;
  const hintId = `${inputId}-hint`;
  const errorId = `${inputId}-error`;
  const describedBy =
    [hint ? hintId : null, error ? errorId : null].filter(Boolean).join(' ') || undefined;
  return (
    <div className="tt-field">
      <label className={hideLabel ? 'tt-visually-hidden' : 'tt-label'} htmlFor={inputId}>
        {label}
      </label>
      <div className="tt-field-control" data-invalid={error ? 'true' : undefined}>
        {prefix}
        {/* Names and messages may be in Arabic or Hebrew: the text sets the direction. */}
        <input
          dir="auto"
          {...rest}
          id={inputId}
          className="tt-input"
          value={value}
          aria-invalid={error ? true : undefined}
          aria-describedby={describedBy}
          onChange={(event) => onChange(event.target.value)}
        />
        {suffix}
      </div>
      {hint ? (
        <p id={hintId} className="tt-hint">
          {hint}
        </p>
      ) : null}
      {error ? (
        <p id={errorId} className="tt-error" role="alert">
          {error}
        </p>
      ) : null}
    </div>
  );
}

type PasswordFieldProps = Omit<TextFieldProps, 'type' | 'suffix'>;

/** A password input with a show/hide toggle. */
export function PasswordField(props: PasswordFieldProps) {
  const { t } = useTranslation();
  const [visible, setVisible] = useState(false);
  return (
    <TextField
      {...props}
      type={visible ? 'text' : 'password'}
      autoCapitalize="off"
      autoCorrect="off"
      spellCheck={false}
      suffix={
        // The name is text, not aria-label, so getByLabel('Password') finds only the input.
        <button
          type="button"
          className="tt-icon-button"
          aria-pressed={visible}
          onClick={() => setVisible((shown) => !shown)}
        >
          <LineIcon name={visible ? 'eye' : 'eyeOff'} />
          <span className="tt-visually-hidden">{t('form.showPassword')}</span>
        </button>
      }
    />
  );
}

/** One of the line icons the sign-in page draws without React (line-icons.ts). */
function LineIcon({ name }: { name: LineIconName }) {
  return (
    <svg
      width="1em"
      height="1em"
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth={1.8}
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden
      focusable="false"
    >
      {LINE_ICONS[name].map((d) => (
        <path key={d} d={d} />
      ))}
    </svg>
  );
}
