import { avatarColour, avatarInitials } from './avatar-look';
import './avatar.css';

export interface AvatarProps {
  /** The person's or group's id: it picks the colour, so theirs is the same everywhere. */
  id: string;
  name: string;
  url: string | null | undefined;
  size?: number;
  /** Text alternative; empty when a caption beside the avatar already names the person. */
  alt?: string;
}

/** The person's picture, or their initials on a colour of their own. */
export function Avatar({ id, name, url, size = 56, alt = '' }: AvatarProps) {
  const initials = avatarInitials(name);
  return (
    <span
      className="tt-avatar"
      style={{
        width: size,
        height: size,
        fontSize: size * (initials.length > 1 ? 0.36 : 0.42),
        background: url ? undefined : avatarColour(id),
      }}
    >
      {url ? (
        <img src={url} alt={alt} width={size} height={size} />
      ) : (
        <span
          role={alt ? 'img' : undefined}
          aria-label={alt || undefined}
          aria-hidden={alt ? undefined : true}
        >
          {initials}
        </span>
      )}
    </span>
  );
}
