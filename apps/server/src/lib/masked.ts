/** An address partly hidden: enough to recognise, not to read off a screen. */
export function masked(destination: string): string {
  const at = destination.indexOf('@');
  if (at > 0) return `${destination.slice(0, 1)}***${destination.slice(at)}`;
  if (destination.length <= 8) return `${destination.slice(0, 2)}****`;
  return `${destination.slice(0, destination.length - 8)}****${destination.slice(-4)}`;
}
