import { Popup } from 'antd-mobile';
import { CloseOutline } from 'antd-mobile-icons';
import { useId, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { HeaderActionButton, type HeaderAction } from './page-header';
import './sheet.css';

interface SheetProps {
  visible: boolean;
  /** Names the dialog and heads it. */
  title: string;
  onClose: () => void;
  /** The confirm button at the end of the header. */
  action?: HeaderAction;
  /** Runs once the sheet has slid away, e.g. to forget what was picked. */
  afterClose?: () => void;
  /** The class of the dialog inside the sheet. */
  className: string;
  /** The class of the sheet's body, for sheets of a fixed height. */
  bodyClassName?: string;
  children: ReactNode;
}

/**
 * A dialog sliding up from the bottom, with a cancel button, its title and an optional
 * confirm button. Its content is dropped on close, so each opening starts afresh.
 */
export function Sheet({ title, action, className, children, ...popup }: SheetProps) {
  const { t } = useTranslation();
  const titleId = useId();
  return (
    <Popup {...popup} onMaskClick={popup.onClose} destroyOnClose>
      <div role="dialog" aria-modal="true" aria-labelledby={titleId} className={className}>
        <header className="tt-forward-header">
          <button
            type="button"
            className="tt-icon-button"
            aria-label={t('common.cancel')}
            onClick={popup.onClose}
          >
            <CloseOutline aria-hidden />
          </button>
          <h2 id={titleId}>{title}</h2>
          {action ? <HeaderActionButton action={action} /> : <span />}
        </header>
        {children}
      </div>
    </Popup>
  );
}
