/**
 * The browser tab's title: the page's own, with the unread count in front while there is
 * any ("(3) Chats · Teltlk"), so a background tab shows that messages wait.
 */
let base = '';
let unread = 0;

function apply(): void {
  if (!base) return;
  const count = unread > 99 ? '99+' : String(unread);
  document.title = unread > 0 ? `(${count}) ${base}` : base;
}

export function setPageTitle(title: string): void {
  base = title;
  apply();
}

export function setTitleUnread(count: number): void {
  if (count === unread) return;
  unread = Math.max(0, count);
  apply();
}
