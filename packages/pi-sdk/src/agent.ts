/** The Pi Browser names itself in its user agent. */
export function isPiBrowserAgent(userAgent: string): boolean {
  return /\bPiBrowser\b/i.test(userAgent);
}
