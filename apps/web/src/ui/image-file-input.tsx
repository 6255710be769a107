import { AVATAR_MAX_BYTES } from '@teltlk/protocol';
import { showToast } from './toast';
import { messageText } from './use-message';

export interface ImageFileInputProps {
  id: string;
  /** The accessible name: what picking a file does. */
  label: string;
  disabled?: boolean;
  /** Called with an image within the avatar size limit; others get a toast instead. */
  onPick: (file: File) => void;
}

/**
 * A visually hidden file input for one image, placed inside a label that shows what it
 * changes (an avatar). The same file can be picked again after a failure.
 */
export function ImageFileInput({ id, label, disabled, onPick }: ImageFileInputProps) {
  return (
    <input
      id={id}
      className="tt-visually-hidden"
      type="file"
      accept="image/*"
      aria-label={label}
      disabled={disabled}
      onChange={(event) => {
        const file = event.target.files?.[0];
        event.target.value = '';
        if (!file) return;
        if (!file.type.startsWith('image/')) {
          showToast(messageText({ key: 'error.IMAGE_INVALID' }));
        } else if (file.size > AVATAR_MAX_BYTES) {
          showToast(messageText({ key: 'error.PAYLOAD_TOO_LARGE' }));
        } else {
          onPick(file);
        }
      }}
    />
  );
}
