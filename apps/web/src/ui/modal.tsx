import { useId, useState } from 'react';
import { i18n } from '../i18n/index';
import { loadFeedback } from './feedback-loader';

export interface ModalOptions {
  title: string;
  content?: string;
  /** Shows a cancel button (default true). */
  showCancel?: boolean;
  confirmText?: string;
  cancelText?: string;
  /** Shows a text box; the entered text comes back in the result. */
  editable?: boolean;
  inputLabel?: string;
  defaultValue?: string;
  placeholder?: string;
  maxLength?: number;
}

export interface ModalResult {
  confirm: boolean;
  /** The entered text when `editable`, otherwise an empty string. */
  content: string;
}

interface BodyProps {
  options: ModalOptions;
  onChange: (value: string) => void;
  onSubmit: () => void;
}

function ModalBody({ options, onChange, onSubmit }: BodyProps) {
  const [value, setValue] = useState(options.defaultValue ?? '');
  const inputId = useId();
  return (
    <div className="tt-modal-body">
      {options.content ? <p className="tt-modal-text">{options.content}</p> : null}
      {options.editable ? (
        <form
          onSubmit={(event) => {
            event.preventDefault();
            onSubmit();
          }}
        >
          <label className="tt-visually-hidden" htmlFor={inputId}>
            {options.inputLabel ?? options.title}
          </label>
          <input
            id={inputId}
            className="tt-input tt-modal-input"
            dir="auto"
            value={value}
            placeholder={options.placeholder}
            maxLength={options.maxLength}
            autoFocus
            autoComplete="off"
            onChange={(event) => {
              setValue(event.target.value);
              onChange(event.target.value);
            }}
          />
        </form>
      ) : null}
    </div>
  );
}

/** A modal dialog with a title, optional text, optional cancel and optional text box. */
export async function showModal(options: ModalOptions): Promise<ModalResult> {
  const { Dialog } = await loadFeedback();
  return new Promise((resolve) => {
    let text = options.defaultValue ?? '';
    let settled = false;
    const finish = (confirm: boolean) => {
      if (settled) return;
      settled = true;
      handler.close();
      resolve({ confirm, content: options.editable ? text : '' });
    };
    const confirmAction = {
      key: 'confirm',
      text: options.confirmText ?? i18n.t('common.confirm'),
      bold: true,
      onClick: () => finish(true),
    };
    const cancelAction = {
      key: 'cancel',
      text: options.cancelText ?? i18n.t('common.cancel'),
      onClick: () => finish(false),
    };
    const handler = Dialog.show({
      title: options.title,
      'aria-label': options.title,
      content: (
        <ModalBody
          options={options}
          onChange={(value) => {
            text = value;
          }}
          onSubmit={() => finish(true)}
        />
      ),
      actions: options.showCancel === false ? [confirmAction] : [[cancelAction, confirmAction]],
      onClose: () => finish(false),
    });
  });
}

/** Asks a yes/no question; resolves true on confirm. */
export async function confirmModal(
  title: string,
  content?: string,
  confirmText?: string,
): Promise<boolean> {
  const result = await showModal({ title, content, confirmText });
  return result.confirm;
}
