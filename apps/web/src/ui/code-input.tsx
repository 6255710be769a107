import { VERIFICATION_CODE_LENGTH } from '@teltlk/protocol';
import { useId, useState } from 'react';
import { normaliseCode } from './validation';
import './code-input.css';

export interface CodeInputProps {
  label: string;
  value: string;
  onChange: (value: string) => void;
  /** Called once the last digit is typed or pasted. */
  onComplete?: (code: string) => void;
  error?: string;
  disabled?: boolean;
  autoFocus?: boolean;
}

/**
 * The verification code: one native numeric text box (so physical keyboards, paste and
 * one-time-code autofill work), drawn as six boxes.
 */
export function CodeInput({
  label,
  value,
  onChange,
  onComplete,
  error,
  disabled,
  autoFocus,
}: CodeInputProps) {
  const id = useId();
  const [focused, setFocused] = useState(false);
  const boxes = Array.from({ length: VERIFICATION_CODE_LENGTH }, (_, index) => value[index] ?? '');
  const activeIndex = Math.min(value.length, VERIFICATION_CODE_LENGTH - 1);
  return (
    <div className="tt-field">
      <label className="tt-label" htmlFor={id}>
        {label}
      </label>
      <div className="tt-code" data-invalid={error ? 'true' : undefined}>
        {boxes.map((digit, index) => (
          <span
            // The boxes are a fixed row of positions; the index is their identity.
            key={index}
            className="tt-code-box"
            aria-hidden
            data-active={focused && index === activeIndex ? 'true' : undefined}
          >
            {digit}
          </span>
        ))}
        <input
          id={id}
          className="tt-code-input"
          value={value}
          inputMode="numeric"
          autoComplete="one-time-code"
          pattern="[0-9]*"
          maxLength={VERIFICATION_CODE_LENGTH}
          disabled={disabled}
          autoFocus={autoFocus}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${id}-error` : undefined}
          onFocus={() => setFocused(true)}
          onBlur={() => setFocused(false)}
          onChange={(event) => {
            const next = normaliseCode(event.target.value);
            onChange(next);
            if (next.length === VERIFICATION_CODE_LENGTH && next !== value) onComplete?.(next);
          }}
        />
      </div>
      {error ? (
        <p id={`${id}-error`} className="tt-error" role="alert">
          {error}
        </p>
      ) : null}
    </div>
  );
}
