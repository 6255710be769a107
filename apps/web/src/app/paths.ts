import { APP_PAGES } from '@teltlk/protocol';

/** Route paths, exactly as the spec names them (hash routes; parameters in the query). */
export const paths = {
  root: '/',
  login: '/pages/login/login',
  piLogin: '/pages/login/PIlogin',
  bindTips: '/pages/login/bindTips',
  bindAccount: '/pages/login/bindAccount',
  mobileLogin: '/pages/login/Mobilelogin',
  forget: '/pages/login/forget',
  agreement: '/pages/login/Agreement',
  service: '/pages/login/Service',
  privacy: '/pages/login/Privacy',
  register: '/pages/register/register',
  bindPhoneNumber: '/pages/register/bindPhoneNumber',
  area: '/pages/register/area',
  registerAccount: '/pages/register/nikename',
  selectRegion: '/pages/register/SelectRegion',
  registerLanguage: '/pages/register/language',
  inviteCode: '/pages/register/invitCode',
  sendCode: '/pages/sendCode/sendCode',
  phoneCode: '/pages/sendCode/phoneCode',
  forgetPassword: '/pages/sendCode/forgetPassword',
  home: '/pages/home/home',
  chat: APP_PAGES.chat,
  chatSetting: '/pages/home/chatSetting',
  groupChat: '/pages/home/groupChat',
  groupSetting: '/pages/home/groupSetting',
  groupName: '/pages/home/groupName',
  groupList: '/pages/home/groupList',
  groupTip: '/pages/home/groupTip',
  /** Not named by the spec: message search, in all chats or one (`conversationId`). */
  search: '/pages/home/search',
  /** A friend's remark (`userId`). */
  setUserNickname: '/pages/home/setUserNickname',
  /** The translation of the chat with a friend (`userId`): on or off, and into which language. */
  setUserTogue: '/pages/home/setUserTogue',
  /** A conversation's translation: on or off, and into which language. */
  tongue: '/pages/home/tongue',
  contacts: '/pages/contacts/contacts',
  newFriend: '/pages/contacts/newFriend',
  seeNewFriend: '/pages/contacts/seeNewFriend',
  addFriend: '/pages/contacts/addFriend',
  homeAddFriend: '/pages/home/addFriend',
  contactsGroupChat: '/pages/contacts/groupChat',
  addGroup: '/pages/contacts/addGroup',
  /** Not named by the spec: the group applications to review and one's own. */
  groupApplications: '/pages/contacts/groupApplication',
  seeMeans: '/pages/contacts/seeMeans',
  officialAccounts: '/pages/contacts/officialAccounts',
  blacklist: '/pages/contacts/blacklist',
  find: APP_PAGES.find,
  coin: '/pages/find/coin',
  /** Not named by the spec: my team (who invited me, the people I invited). */
  team: '/pages/find/team',
  /** Not named by the spec: rankings, `board` points, monthInvites or dayInvites. */
  rank: '/pages/find/rank',
  user: '/pages/user/user',
  means: '/pages/user/means',
  nickname: '/pages/user/nikeName',
  chooseCountry: '/pages/user/chooseCountry',
  chooseTongue: '/pages/user/chooseTongue',
  setting: '/pages/user/setting',
  /** Message notifications: the switches, this device's permission, a test. */
  message: '/pages/user/message',
  about: '/pages/user/about',
  accountSecurity: '/pages/user/accountSecurity',
  accountSafe: '/pages/user/accountSafe',
  /** Not named by the spec: a new email or phone number (`channel`) for the account. */
  changeAddress: '/pages/user/changeAddress',
  /** Not named by the spec: sign-ins and sensitive actions on the account, newest first. */
  securityActivity: APP_PAGES.securityActivity,
  /** Reached signed out from the notice to a replaced address: puts it back (`token`). */
  securityUndo: '/security/undo',
  wallet: '/pages/user/wallet',
  creatWallet: '/pages/user/creatWallet',
  /** The payment password: `mode` set (default), change, or forget. */
  creatPassword: '/pages/user/creatPassword',
  walletPi: '/pages/user/walletPi',
  balance: '/pages/user/balance',
  /** My invitation code, link and QR code, and my card's QR code. */
  twoCode: '/pages/user/twoCode',
  /** Signed out: a QR code (and short code) that a signed-in phone approves. */
  pcDevice: '/pages/login/PCdevice',
  /** Signed in: scan a QR code of PCdevice, or open its link (`ticket`), and approve. */
  mobileDevice: '/pages/login/mobiledevice',
  /** Why this copy of the app must update, or that the service is under maintenance. */
  upgradation: '/upgradation',
  /** Signed in: approve a device by typing its short code. */
  verification: '/verification',
} as const;

/** The four tabs, each the first page of a section of the app. */
export type Section = 'home' | 'contacts' | 'find' | 'user';

/**
 * The tab a page belongs to, by its path: the chat list, a chat and the pages under it are
 * the chats'; null for pages of no tab (a device's approval, the upgrade notice).
 */
export function sectionOf(pathname: string): Section | null {
  if (pathname === paths.root) return 'home';
  const folder = /^\/pages\/(home|contacts|find|user)\//.exec(pathname)?.[1];
  return folder === 'home' || folder === 'contacts' || folder === 'find' || folder === 'user'
    ? folder
    : null;
}

/** A path with query parameters; empty values are left out. */
export function withQuery(path: string, params: Record<string, string | null | undefined>): string {
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(params)) {
    if (value !== undefined && value !== null && value !== '') query.set(name, value);
  }
  const text = query.toString();
  return text ? `${path}?${text}` : path;
}

/** A full address that opens a page of the app (hash routes), to share outside it. */
export function appLink(
  path: string,
  params: Record<string, string | null | undefined>,
  origin: string = globalThis.location.origin,
): string {
  return `${origin}/#${withQuery(path, params)}`;
}

/** The WebSocket endpoint on the page's own host (the dev server proxies /ws). */
export function socketUrl(location: Pick<Location, 'protocol' | 'host'>): string {
  return `${location.protocol === 'https:' ? 'wss:' : 'ws:'}//${location.host}/ws`;
}

/** Whether the hash router's address is the sign-in page's: the root, or the login route. */
export function atSignIn(): boolean {
  const route = location.hash.replace(/^#/, '').split('?')[0];
  return route === '' || route === paths.root || route === paths.login;
}
