import { useId } from 'react';
import './switch.css';

export interface SwitchRowProps {
  label: string;
  hint?: string;
  checked: boolean;
  onChange: (checked: boolean) => void;
  disabled?: boolean;
}

/** A settings row with a native checkbox exposed as a switch, named by its label. */
export function SwitchRow({ label, hint, checked, onChange, disabled }: SwitchRowProps) {
  const id = useId();
  return (
    <div className="tt-row">
      <span className="tt-row-label">
        <label htmlFor={id}>{label}</label>
        {hint ? (
          <span id={`${id}-hint`} className="tt-row-hint">
            {hint}
          </span>
        ) : null}
      </span>
      <span className="tt-switch">
        <input
          id={id}
          type="checkbox"
          role="switch"
          checked={checked}
          disabled={disabled}
          aria-checked={checked}
          aria-describedby={hint ? `${id}-hint` : undefined}
          onChange={(event) => onChange(event.target.checked)}
        />
        <span className="tt-switch-track" aria-hidden />
      </span>
    </div>
  );
}
