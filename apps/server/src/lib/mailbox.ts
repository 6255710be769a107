/**
 * Domains of one provider that ignores dots in the local part and reads both domains as
 * the same mailbox: `a.da@googlemail.com` and `ada@gmail.com` reach one inbox.
 */
const DOTLESS_DOMAINS: ReadonlyMap<string, string> = new Map([
  ['gmail.com', 'gmail.com'],
  ['googlemail.com', 'gmail.com'],
]);

/**
 * The mailbox an email address delivers to, for telling whether two addresses are one
 * person's: lower case, without a `+tag`, and where the provider ignores them (Gmail)
 * without dots and under one domain. Only for comparing; the address an account signs in
 * with and is written to stays as it was given.
 */
export function canonicalMailbox(email: string): string {
  const address = email.trim().toLowerCase();
  const at = address.lastIndexOf('@');
  if (at <= 0) return address;
  let local = address.slice(0, at);
  let domain = address.slice(at + 1);
  // A tag after `+` reaches the same mailbox; a local part that starts with `+` is kept whole.
  const plus = local.indexOf('+');
  if (plus > 0) local = local.slice(0, plus);
  const dotless = DOTLESS_DOMAINS.get(domain);
  if (dotless !== undefined) {
    domain = dotless;
    const bare = local.replaceAll('.', '');
    if (bare !== '') local = bare;
  }
  return `${local}@${domain}`;
}
