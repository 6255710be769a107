export interface AvatarProps {
  name: string;
  url: string | null | undefined;
  size?: number;
  /** Text alternative; empty when a caption beside the avatar already names the person. */
  alt?: string;
}

/** The person's picture, or the first letter of their name on a warm background. */
export function Avatar({ name, url, size = 56, alt = '' }: AvatarProps) {
  const initial = Array.from(name.trim())[0]?.toUpperCase() ?? '?';
  return (
    <span className="tt-avatar" style={{ width: size, height: size, fontSize: size * 0.42 }}>
      {url ? (
        <img src={url} alt={alt} width={size} height={size} />
      ) : (
        <span
          role={alt ? 'img' : undefined}
          aria-label={alt || undefined}
          aria-hidden={alt ? undefined : true}
        >
          {initial}
        </span>
      )}
    </span>
  );
}
