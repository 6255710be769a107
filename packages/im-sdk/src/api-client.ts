import {
  type VersionResult,
  type PushKeyResult,
  type PushSubscriptionBody,
  type DeviceLoginCodeBody,
  type DeviceLoginCreated,
  type DeviceLoginDecision,
  type DeviceLoginView,
  type CoinHistoryResult,
  type CoinResult,
  type MiningStatus,
  type RankingBoard,
  type RankingResult,
  type TeamMembersResult,
  type TeamResult,
  type BlockListResult,
  type Friend,
  type FriendListResult,
  type FriendRequest,
  type GroupFriendRequestBody,
  type FriendRequestListResult,
  type OfficialListResult,
  type SendFriendRequestBody,
  type UpdateFriendBody,
  type UserProfile,
  isErrorCode,
  type AuthResult,
  type ChangePasswordBody,
  type ChangeTeltlkIdBody,
  type CodeLoginBody,
  type CountryListResult,
  type ErrorBody,
  type ErrorCode,
  type Me,
  type MediaLimits,
  type MediaUrlsResult,
  type UploadedMedia,
  type OutboxResult,
  type PasswordLoginBody,
  type RegisterBody,
  type ResetPasswordBody,
  type SendCodeBody,
  type SendCodeResult,
  type SessionListResult,
  type Settings,
  type UpdateProfileBody,
  type UpdateSettingsBody,
  type VerifyCodeBody,
  type VerifyCodeResult,
  type AddPhoneBody,
  type PiBindBody,
  type PiConfig,
  type ChangePaymentPasswordBody,
  type PaymentListResult,
  type PaymentRecord,
  type RechargeOrder,
  type ResetPaymentPasswordBody,
  type WalletCodeBody,
  type WalletCodeResult,
  type WalletResult,
  type WalletRules,
  type WithdrawBody,
  type TransferBody,
  type NftItemView,
  type NftListResult,
  type NftSendBody,
  type EnvelopeBody,
  type EnvelopeView,
  type PiLoginBody,
  type PiLoginResult,
  type PiRegisterBody,
  type AddressUndoView,
  type SecurityActivityResult,
  type StepUpBody,
  type StepUpCodeBody,
  type StepUpCodeResult,
  type StepUpReason,
  type StepUpStatus,
} from '@teltlk/protocol';
import {
  type Conversation,
  type ConversationSyncResult,
  type EventPageResult,
  type FavouritesResult,
  type Message,
  type SearchMessagesResult,
  type MessagePageResult,
  type SendMessageBody,
  type UpdateConversationBody,
} from '@teltlk/protocol';
import {
  type CreateGroupBody,
  type Group,
  type GroupApplicationListResult,
  type GroupMembersResult,
  type GroupSummary,
  type MessageReadsResult,
  type MyGroup,
  type UpdateGroupBody,
  type UpdateMyGroupBody,
} from '@teltlk/protocol';
import {
  type PreviewTranslationBody,
  type PreviewTranslationResult,
  type TranslateBody,
  type TranslateResult,
  type TranslationInfoResult,
} from '@teltlk/protocol';
import { ApiError, StepUpCancelled } from './api-error.js';

/** Request timeout of the product's HTTP client (spec §9). */
const DEFAULT_TIMEOUT_MS = 60_000;

/**
 * How many times one call asks for a step-up before it gives the refusal to its caller:
 * a proof the server took and then did not count (it ran out meanwhile, another tab
 * signed out) is asked for again, but not without end.
 */
const STEP_UP_ASKS_MAX = 3;

/** A call the server refused until the session proves who it is, as the app is asked about it. */
export interface StepUpAsk {
  reason: StepUpReason;
  method: Method;
  /** The call's path under /api/v1, with its query. */
  path: string;
}

export interface RequestOptions {
  /**
   * False for calls made without the person's doing (a background renewal): a refusal for
   * want of a step-up then fails the call instead of asking the person.
   */
  stepUp?: boolean;
}

export interface ApiClientOptions {
  /** Origin of the server; empty for same-origin requests. */
  baseUrl?: string;
  /** The current session token, if any. */
  getToken: () => string | null;
  /** Called when the server says the session is gone, so the app can sign out. */
  onUnauthorized?: (code: ErrorCode) => void;
  /** Called when the server refuses a call because it is under maintenance. */
  onMaintenance?: () => void;
  /** The UI language, sent so server-side texts (emails, SMS) match it. */
  getLanguage?: () => string;
  /**
   * Called when a call answers STEP_UP_REQUIRED: the app asks the person to prove it is
   * them, and resolves true once the server took a proof (the call is then made again) or
   * false when they gave up (the call then fails with StepUpCancelled). Calls waiting at
   * the same time may share one ask.
   */
  onStepUpRequired?: (ask: StepUpAsk) => Promise<boolean>;
  fetch?: typeof fetch;
  timeoutMs?: number;
}

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** Typed client of the REST API under /api/v1. */
export class ApiClient {
  private readonly baseUrl: string;
  private readonly fetchImpl: typeof fetch;
  private readonly timeoutMs: number;

  constructor(private readonly options: ApiClientOptions) {
    this.baseUrl = options.baseUrl ?? '';
    this.fetchImpl = options.fetch ?? globalThis.fetch.bind(globalThis);
    this.timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  }

  /**
   * One call of the API, its answer typed by the caller. The answer is not parsed again
   * here: the server checks every answer against the protocol's schemas on its way out
   * (its response serializer), so the browser does not download zod to repeat the check.
   * A refusal for want of a step-up goes to `onStepUpRequired` and the call is made again
   * once the person has proven it is them; the server refuses before doing anything, so
   * the second call is the first that acts.
   */
  async request<T = void>(
    method: Method,
    path: string,
    body?: unknown,
    options: RequestOptions = {},
  ): Promise<T> {
    for (let asked = 0; ; asked += 1) {
      try {
        return await this.send<T>(method, path, body);
      } catch (error) {
        const ask = this.options.onStepUpRequired;
        if (
          !(error instanceof ApiError) ||
          error.code !== 'STEP_UP_REQUIRED' ||
          !ask ||
          options.stepUp === false ||
          asked >= STEP_UP_ASKS_MAX
        ) {
          throw error;
        }
        const reason: StepUpReason = error.params?.reason === 'hold' ? 'hold' : 'stale';
        if (!(await ask({ reason, method, path }))) throw new StepUpCancelled(error);
      }
    }
  }

  private async send<T>(method: Method, path: string, body: unknown): Promise<T> {
    const headers: Record<string, string> = { accept: 'application/json' };
    const token = this.options.getToken();
    if (token) headers.authorization = `Bearer ${token}`;
    const language = this.options.getLanguage?.();
    if (language) headers['accept-language'] = language;
    let payload: BodyInit | undefined;
    if (body instanceof FormData) payload = body;
    else if (body !== undefined) {
      headers['content-type'] = 'application/json';
      payload = JSON.stringify(body);
    }

    const signal = AbortSignal.timeout(this.timeoutMs);
    let response: Response;
    try {
      response = await this.fetchImpl(`${this.baseUrl}/api/v1${path}`, {
        method,
        headers,
        body: payload,
        signal,
      });
    } catch {
      // Ask the signal, not the error: fetch implementations wrap the abort differently.
      throw new ApiError(signal.aborted ? 'TIMEOUT' : 'NETWORK_ERROR', 0);
    }

    if (!response.ok) throw await this.toError(response);
    let text: string;
    try {
      text = await response.text();
    } catch {
      // The connection dropped or timed out while the answer was arriving.
      throw new ApiError(signal.aborted ? 'TIMEOUT' : 'NETWORK_ERROR', 0);
    }
    if (!text) return undefined as T;
    try {
      return JSON.parse(text) as T;
    } catch {
      // A cut-off body (a proxy closing early) is no answer at all.
      throw new ApiError('NETWORK_ERROR', 0);
    }
  }

  private async toError(response: Response): Promise<ApiError> {
    let text = '';
    try {
      text = await response.text();
    } catch {
      text = '';
    }
    return this.errorOf(response.status, text);
  }

  /**
   * The error an answer of the API stands for, from its status and body (also for
   * answers this client did not fetch itself, such as an upload's); a lost session is
   * reported as every call's is.
   */
  errorOf(status: number, text: string): ApiError {
    let body: Partial<ErrorBody> | undefined;
    try {
      body = JSON.parse(text) as Partial<ErrorBody>;
    } catch {
      body = undefined;
    }
    const error = body?.error;
    const code: ErrorCode = isErrorCode(error?.code)
      ? error.code
      : status === 413
        ? 'PAYLOAD_TOO_LARGE'
        : status >= 500 || status === 0
          ? 'NETWORK_ERROR'
          : 'INTERNAL';
    if (code === 'UNAUTHENTICATED' || code === 'TOKEN_EXPIRED') this.options.onUnauthorized?.(code);
    if (code === 'MAINTENANCE') this.options.onMaintenance?.();
    return new ApiError(code, status, error?.params, error?.issues);
  }

  sendCode(body: SendCodeBody): Promise<SendCodeResult> {
    return this.request('POST', '/auth/codes', body);
  }
  verifyCode(body: VerifyCodeBody): Promise<VerifyCodeResult> {
    return this.request('POST', '/auth/codes/verify', body);
  }
  register(body: RegisterBody): Promise<AuthResult> {
    return this.request('POST', '/auth/register', body);
  }
  login(body: PasswordLoginBody): Promise<AuthResult> {
    return this.request('POST', '/auth/login', body);
  }
  loginWithCode(body: CodeLoginBody): Promise<AuthResult> {
    return this.request('POST', '/auth/login/code', body);
  }
  piConfig(): Promise<PiConfig> {
    return this.request('GET', '/pi/config');
  }
  /** Signs in with a Pi access token; an unknown Pi account gets a ticket to make or bind one. */
  piLogin(body: PiLoginBody): Promise<PiLoginResult> {
    return this.request('POST', '/auth/pi', body);
  }
  piRegister(body: PiRegisterBody): Promise<AuthResult> {
    return this.request('POST', '/auth/pi/register', body);
  }
  piBind(body: PiBindBody): Promise<AuthResult> {
    return this.request('POST', '/auth/pi/bind', body);
  }
  /** Binds the Pi account of a token to the signed-in account. */
  bindPi(body: PiLoginBody): Promise<Me> {
    return this.request('POST', '/me/pi', body);
  }
  unbindPi(): Promise<Me> {
    return this.request('DELETE', '/me/pi');
  }
  /**
   * Adds the phone or email a registration ticket verified to this account; one of a kind
   * the account has already replaces it (a step-up, and the old address is told).
   */
  addPhone(body: AddPhoneBody): Promise<Me> {
    return this.request('POST', '/me/phone', body);
  }

  // ---------------------------------------------------------------- security
  /** Whether this session may do sensitive actions now, and the ways it can prove it may. */
  stepUpStatus(): Promise<StepUpStatus> {
    return this.request('GET', '/security/step-up', undefined, { stepUp: false });
  }
  /** A step-up code to one of the account's own addresses. */
  sendStepUpCode(body: StepUpCodeBody): Promise<StepUpCodeResult> {
    return this.request('POST', '/security/step-up/code', body, { stepUp: false });
  }
  stepUp(body: StepUpBody): Promise<StepUpStatus> {
    return this.request('POST', '/security/step-up', body, { stepUp: false });
  }
  securityActivity(query: {
    cursor?: string | null;
    limit?: number;
  }): Promise<SecurityActivityResult> {
    return this.request('GET', `/security/activity?${searchOf(query)}`);
  }
  /** What an address-undo link would put back; no session needed. */
  addressUndo(token: string): Promise<AddressUndoView> {
    return this.request('GET', `/security/address-undo/${encodeURIComponent(token)}`);
  }
  /** Puts the replaced address back; every session of the account is signed out. */
  undoAddressChange(token: string): Promise<AddressUndoView> {
    return this.request('POST', '/security/address-undo', { token });
  }
  reportIncompletePiPayment(paymentId: string): Promise<void> {
    return this.request('POST', '/pi/payments/incomplete', { paymentId });
  }

  // ---------------------------------------------------------------- wallet
  wallet(): Promise<WalletResult> {
    return this.request('GET', '/wallet');
  }
  createWallet(): Promise<WalletResult> {
    return this.request('POST', '/wallet');
  }
  setPaymentPassword(password: string): Promise<WalletResult> {
    return this.request('PUT', '/wallet/password', { password });
  }
  changePaymentPassword(body: ChangePaymentPasswordBody): Promise<WalletResult> {
    return this.request('POST', '/wallet/password/change', body);
  }
  sendWalletCode(body: WalletCodeBody): Promise<WalletCodeResult> {
    return this.request('POST', '/wallet/password/code', body);
  }
  resetPaymentPassword(body: ResetPaymentPasswordBody): Promise<WalletResult> {
    return this.request('POST', '/wallet/password/reset', body);
  }
  walletRules(): Promise<WalletRules> {
    return this.request('GET', '/wallet/rules');
  }
  walletPayments(query: {
    kind?: PaymentRecord['kind'];
    state?: PaymentRecord['state'];
    cursor?: string | null;
    limit?: number;
  }): Promise<PaymentListResult> {
    return this.request('GET', `/wallet/payments?${searchOf(query)}`);
  }
  /** A recharge order: what to hand Pi's createPayment. */
  orderRecharge(amount: string): Promise<RechargeOrder> {
    return this.request('POST', '/wallet/recharge', { amount });
  }
  approveRecharge(paymentId: string): Promise<PaymentRecord> {
    return this.request('POST', '/wallet/recharge/approve', { paymentId });
  }
  completeRecharge(paymentId: string, txid: string): Promise<PaymentRecord> {
    return this.request('POST', '/wallet/recharge/complete', { paymentId, txid });
  }
  cancelRecharge(paymentId: string): Promise<PaymentRecord> {
    return this.request('POST', '/wallet/recharge/cancel', { paymentId });
  }
  withdraw(body: WithdrawBody): Promise<PaymentRecord> {
    return this.request('POST', '/wallet/withdraw', body);
  }
  /** A transfer in a one-to-one chat; answers its message (it also arrives by the socket). */
  sendTransfer(body: TransferBody): Promise<Message> {
    return this.request('POST', '/wallet/transfers', body);
  }
  sendEnvelope(body: EnvelopeBody): Promise<Message> {
    return this.request('POST', '/wallet/envelopes', body);
  }
  /** The NFT assets the caller holds, newest first. */
  nfts(): Promise<NftListResult> {
    return this.request('GET', '/wallet/nfts');
  }
  nft(id: string): Promise<NftItemView> {
    return this.request('GET', `/wallet/nfts/${encodeURIComponent(id)}`);
  }
  /** Gives an NFT to the other person of a one-to-one chat; answers its message. */
  sendNft(id: string, body: NftSendBody): Promise<Message> {
    return this.request('POST', `/wallet/nfts/${encodeURIComponent(id)}/send`, body);
  }
  // ---------------------------------------------------------------------------- growth
  mining(): Promise<MiningStatus> {
    return this.request('GET', '/growth/mining');
  }
  /** Daily check-in; answers the running session when one is on. */
  checkIn(): Promise<MiningStatus> {
    return this.request('POST', '/growth/mining/checkin');
  }
  setMiningReminders(on: boolean): Promise<MiningStatus> {
    return this.request('PUT', '/growth/mining/reminders', { on });
  }
  /** A rewarded ad watched in the Pi Browser, for the session's ad booster. */
  miningAd(adId: string): Promise<MiningStatus> {
    return this.request('POST', '/growth/mining/ad', { adId });
  }
  coin(): Promise<CoinResult> {
    return this.request('GET', '/growth/coin');
  }
  coinHistory(query: { cursor?: string | null; limit?: number }): Promise<CoinHistoryResult> {
    return this.request('GET', `/growth/coin/history?${searchOf(query)}`);
  }
  team(): Promise<TeamResult> {
    return this.request('GET', '/growth/team');
  }
  teamMembers(query: { cursor?: string | null; limit?: number }): Promise<TeamMembersResult> {
    return this.request('GET', `/growth/team/members?${searchOf(query)}`);
  }
  nudge(userId: string): Promise<{ ok: true }> {
    return this.request('POST', `/growth/team/members/${encodeURIComponent(userId)}/nudge`);
  }
  ranking(board: RankingBoard, period: 'current' | 'previous'): Promise<RankingResult> {
    return this.request('GET', `/growth/rankings/${board}?period=${period}`);
  }
  envelope(id: string): Promise<EnvelopeView> {
    return this.request('GET', `/wallet/envelopes/${encodeURIComponent(id)}`);
  }
  openEnvelope(id: string): Promise<EnvelopeView> {
    return this.request('POST', `/wallet/envelopes/${encodeURIComponent(id)}/open`);
  }
  resetPassword(body: ResetPasswordBody): Promise<void> {
    return this.request('POST', '/auth/password/reset', body);
  }
  logout(): Promise<void> {
    return this.request('POST', '/auth/logout');
  }
  sessions(): Promise<SessionListResult> {
    return this.request('GET', '/sessions');
  }
  revokeSession(id: string): Promise<void> {
    return this.request('DELETE', `/sessions/${encodeURIComponent(id)}`);
  }
  version(): Promise<VersionResult> {
    return this.request('GET', '/meta/version');
  }
  pushKey(): Promise<PushKeyResult> {
    return this.request('GET', '/push/key');
  }
  /** A new subscription is a sensitive action; renewing the same one is not. */
  subscribePush(body: PushSubscriptionBody, options?: RequestOptions): Promise<void> {
    return this.request('PUT', '/push/subscription', body, options);
  }
  unsubscribePush(options?: RequestOptions): Promise<void> {
    return this.request('DELETE', '/push/subscription', undefined, options);
  }
  testPush(): Promise<void> {
    return this.request('POST', '/push/test');
  }
  /** A device-login ticket for this signed-out browser to show as a QR code. */
  createDeviceLogin(): Promise<DeviceLoginCreated> {
    return this.request('POST', '/auth/device-logins');
  }
  deviceLogin(id: string): Promise<DeviceLoginView> {
    return this.request('GET', `/device-logins/${encodeURIComponent(id)}`);
  }
  findDeviceLogin(body: DeviceLoginCodeBody): Promise<DeviceLoginView> {
    return this.request('POST', '/device-logins/lookup', body);
  }
  decideDeviceLogin(id: string, body: DeviceLoginDecision): Promise<DeviceLoginView> {
    return this.request('POST', `/device-logins/${encodeURIComponent(id)}/decision`, body);
  }
  me(): Promise<Me> {
    return this.request('GET', '/me');
  }
  updateProfile(body: UpdateProfileBody): Promise<Me> {
    return this.request('PATCH', '/me', body);
  }
  changeTeltlkId(body: ChangeTeltlkIdBody): Promise<Me> {
    return this.request('PUT', '/me/teltlk-id', body);
  }
  uploadAvatar(file: Blob, name = 'avatar'): Promise<Me> {
    const form = new FormData();
    form.append('file', file, name);
    return this.request('POST', '/me/avatar', form);
  }
  mediaLimits(): Promise<MediaLimits> {
    return this.request('GET', '/media/limits');
  }
  /** A stored media the caller may see (an upload of theirs that has finished). */
  media(id: string): Promise<UploadedMedia> {
    return this.request('GET', `/media/${encodeURIComponent(id)}`);
  }
  mediaUrls(ids: string[]): Promise<MediaUrlsResult> {
    return this.request('POST', '/media/urls', { ids });
  }
  /** The favourite stickers (photos kept), newest first. */
  favourites(): Promise<FavouritesResult> {
    return this.request('GET', '/faces/favourites');
  }
  addFavourite(mediaId: string): Promise<FavouritesResult> {
    return this.request('POST', '/faces/favourites', { mediaId });
  }
  removeFavourite(mediaId: string): Promise<FavouritesResult> {
    return this.request('DELETE', `/faces/favourites/${encodeURIComponent(mediaId)}`);
  }
  changePassword(body: ChangePasswordBody): Promise<void> {
    return this.request('PUT', '/me/password', body);
  }
  settings(): Promise<Settings> {
    return this.request('GET', '/me/settings');
  }
  updateSettings(body: UpdateSettingsBody): Promise<Settings> {
    return this.request('PATCH', '/me/settings', body);
  }
  countries(): Promise<CountryListResult> {
    return this.request('GET', '/meta/countries');
  }
  outbox(): Promise<OutboxResult> {
    return this.request('GET', '/dev/outbox');
  }

  // Messaging
  /** Conversations changed after `since` (0: all), one page. */
  syncConversations(query: {
    since: number;
    cursor?: string | null;
    limit?: number;
  }): Promise<ConversationSyncResult> {
    return this.request('GET', `/sync/conversations?${searchOf(query)}`);
  }
  /** The caller's user events after a seq, one page. */
  syncEvents(query: { after: number; limit?: number }): Promise<EventPageResult> {
    return this.request('GET', `/sync/events?${searchOf(query)}`);
  }
  /** A page of a conversation's messages: after a seq, before a seq, or the newest. */
  messages(
    conversationId: string,
    query: { after?: number; before?: number; limit?: number } = {},
  ): Promise<MessagePageResult> {
    const path = `${conversationPath(conversationId)}/messages?${searchOf(query)}`;
    return this.request('GET', path);
  }
  /** The REST form of the socket's `send`; a repeated clientMsgId returns the stored message. */
  sendMessage(body: SendMessageBody): Promise<Message> {
    return this.request('POST', '/messages', body);
  }
  /** Member state: pin, mute, hide, and the translation switch and target language. */
  updateConversation(conversationId: string, body: UpdateConversationBody): Promise<Conversation> {
    return this.request('PATCH', conversationPath(conversationId), body);
  }
  clearConversation(conversationId: string): Promise<Conversation> {
    const path = `${conversationPath(conversationId)}/clear`;
    return this.request('POST', path);
  }
  /** Sets burn after reading; answers with the `burn` notice. */
  setBurn(conversationId: string, seconds: number): Promise<Message> {
    const path = `${conversationPath(conversationId)}/burn`;
    return this.request('PUT', path, { seconds });
  }
  markRead(conversationId: string, seq: number): Promise<void> {
    return this.request('POST', `${conversationPath(conversationId)}/read`, { seq });
  }
  /** Answers with the `revoke` notice. */
  revokeMessage(conversationId: string, seq: number): Promise<Message> {
    const path = `${conversationPath(conversationId)}/messages/${seq}/revoke`;
    return this.request('POST', path);
  }
  /** Answers with the `edit` notice. */
  editMessage(conversationId: string, seq: number, text: string): Promise<Message> {
    const path = `${conversationPath(conversationId)}/messages/${seq}/edit`;
    return this.request('POST', path, { text });
  }
  /** Messages the caller can see holding `q`, newest first (one conversation, or all). */
  searchMessages(query: {
    q: string;
    conversationId?: string;
    cursor?: string;
    limit?: number;
  }): Promise<SearchMessagesResult> {
    const params = new URLSearchParams({ q: query.q });
    if (query.conversationId !== undefined) params.set('conversationId', query.conversationId);
    if (query.cursor !== undefined) params.set('cursor', query.cursor);
    if (query.limit !== undefined) params.set('limit', String(query.limit));
    return this.request('GET', `/messages/search?${params}`);
  }
  /** Deletes a message for the caller only. */
  hideMessage(conversationId: string, seq: number): Promise<void> {
    return this.request('POST', `${conversationPath(conversationId)}/messages/${seq}/hide`);
  }

  // Translation
  /** Whether the server translates (`available: false`: no provider configured). */
  translationInfo(): Promise<TranslationInfoResult> {
    return this.request('GET', '/translations/info');
  }
  /**
   * Translations of a conversation's messages; ones needing none are absent from the
   * answer, and `pending` ones follow as `translation` socket frames.
   */
  translate(body: TranslateBody): Promise<TranslateResult> {
    return this.request('POST', '/translations', body);
  }
  /** The caller's draft translated, waiting for the provider; nothing is stored. */
  previewTranslation(body: PreviewTranslationBody): Promise<PreviewTranslationResult> {
    return this.request('POST', '/translations/preview', body);
  }

  // Contacts
  /** Finds one user by phone (+E.164), email or Teltlk ID; USER_NOT_FOUND when none. */
  searchUser(q: string): Promise<UserProfile> {
    const query = new URLSearchParams({ q }).toString();
    return this.request<{ user: UserProfile }>('GET', `/users/search?${query}`).then(
      (result) => result.user,
    );
  }
  user(id: string): Promise<UserProfile> {
    return this.request('GET', `/users/${encodeURIComponent(id)}`);
  }
  friendRequests(): Promise<FriendRequestListResult> {
    return this.request('GET', '/friend-requests');
  }
  sendFriendRequest(body: SendFriendRequestBody): Promise<FriendRequest> {
    return this.request('POST', '/friend-requests', body);
  }
  acceptFriendRequest(id: string): Promise<FriendRequest> {
    const path = `/friend-requests/${encodeURIComponent(id)}/accept`;
    return this.request('POST', path);
  }
  rejectFriendRequest(id: string): Promise<FriendRequest> {
    const path = `/friend-requests/${encodeURIComponent(id)}/reject`;
    return this.request('POST', path);
  }
  friends(): Promise<FriendListResult> {
    return this.request('GET', '/friends');
  }
  updateFriend(userId: string, body: UpdateFriendBody): Promise<Friend> {
    return this.request('PATCH', `/friends/${encodeURIComponent(userId)}`, body);
  }
  deleteFriend(userId: string): Promise<void> {
    return this.request('DELETE', `/friends/${encodeURIComponent(userId)}`);
  }
  blocks(): Promise<BlockListResult> {
    return this.request('GET', '/blocks');
  }
  block(userId: string): Promise<void> {
    return this.request('PUT', `/blocks/${encodeURIComponent(userId)}`);
  }
  unblock(userId: string): Promise<void> {
    return this.request('DELETE', `/blocks/${encodeURIComponent(userId)}`);
  }
  officialAccounts(): Promise<OfficialListResult> {
    return this.request('GET', '/official-accounts');
  }

  // Groups
  createGroup(body: CreateGroupBody): Promise<MyGroup> {
    return this.request('POST', '/groups', body);
  }
  /** Sets the group avatar from any image (admins); the server makes it a square WebP. */
  uploadGroupAvatar(groupId: string, file: Blob, name = 'avatar'): Promise<Group> {
    const form = new FormData();
    form.append('file', file, name);
    return this.request('POST', `/groups/${encodeURIComponent(groupId)}/avatar`, form);
  }
  myGroups(): Promise<MyGroup[]> {
    return this.request<{ groups: MyGroup[] }>('GET', '/groups').then((r) => r.groups);
  }
  /** Finds a group by its number; GROUP_NOT_FOUND when none. */
  searchGroup(no: string): Promise<GroupSummary> {
    const query = new URLSearchParams({ no }).toString();
    return this.request<{ group: GroupSummary }>('GET', `/groups/search?${query}`).then(
      (result) => result.group,
    );
  }
  group(groupId: string): Promise<MyGroup> {
    return this.request('GET', groupPath(groupId));
  }
  updateGroup(groupId: string, body: UpdateGroupBody): Promise<Group> {
    return this.request('PATCH', groupPath(groupId), body);
  }
  updateMyGroup(groupId: string, body: UpdateMyGroupBody): Promise<MyGroup> {
    return this.request('PATCH', `${groupPath(groupId)}/me`, body);
  }
  groupMembers(
    groupId: string,
    query: { q?: string; cursor?: string | null; limit?: number } = {},
  ): Promise<GroupMembersResult> {
    const path = `${groupPath(groupId)}/members?${searchOf(query)}`;
    return this.request('GET', path);
  }
  inviteToGroup(groupId: string, userIds: string[]): Promise<number> {
    const path = `${groupPath(groupId)}/members`;
    return this.request<{ added: number }>('POST', path, { userIds }).then((r) => r.added);
  }
  removeGroupMember(groupId: string, userId: string): Promise<void> {
    return this.request('DELETE', groupMemberPath(groupId, userId));
  }
  setGroupRole(groupId: string, userId: string, role: 'admin' | 'member'): Promise<void> {
    return this.request('PUT', `${groupMemberPath(groupId, userId)}/role`, { role });
  }
  /** 0 seconds lifts the mute. */
  muteGroupMember(groupId: string, userId: string, seconds: number): Promise<void> {
    return this.request('PUT', `${groupMemberPath(groupId, userId)}/mute`, { seconds });
  }
  /** A friend application to another member, from the group (refused while its private chat is off). */
  requestFriendInGroup(
    groupId: string,
    userId: string,
    body: GroupFriendRequestBody,
  ): Promise<FriendRequest> {
    const path = `${groupMemberPath(groupId, userId)}/friend-request`;
    return this.request('POST', path, body);
  }
  transferGroup(groupId: string, userId: string): Promise<void> {
    return this.request('POST', `${groupPath(groupId)}/transfer`, { userId });
  }
  quitGroup(groupId: string): Promise<void> {
    return this.request('POST', `${groupPath(groupId)}/quit`);
  }
  dismissGroup(groupId: string): Promise<void> {
    return this.request('DELETE', groupPath(groupId));
  }
  /** Joins at once (open groups) or files an application (approval). */
  joinGroup(groupId: string, message?: string): Promise<'joined' | 'pending'> {
    const body = message ? { message } : {};
    return this.request<{ status: 'joined' | 'pending' }>(
      'POST',
      `${groupPath(groupId)}/join`,
      body,
    ).then((result) => result.status);
  }
  groupApplications(): Promise<GroupApplicationListResult> {
    return this.request('GET', '/group-applications');
  }
  /** The lists are reloaded after: the answer's shape is not part of the contract. */
  answerGroupApplication(id: string, accept: boolean): Promise<void> {
    const path = `/group-applications/${encodeURIComponent(id)}/${accept ? 'accept' : 'reject'}`;
    return this.request('POST', path);
  }
  /** How many members read a group message, and who in groups up to 500 members. */
  messageReads(groupId: string, seq: number): Promise<MessageReadsResult> {
    const path = `${groupPath(groupId)}/messages/${seq}/reads`;
    return this.request('GET', path);
  }
}

function groupPath(groupId: string): string {
  return `/groups/${encodeURIComponent(groupId)}`;
}

function groupMemberPath(groupId: string, userId: string): string {
  return `${groupPath(groupId)}/members/${encodeURIComponent(userId)}`;
}

function conversationPath(conversationId: string): string {
  return `/conversations/${encodeURIComponent(conversationId)}`;
}

/** A query string of the defined fields. */
function searchOf(query: Record<string, string | number | null | undefined>): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value !== undefined && value !== null) params.set(key, String(value));
  }
  return params.toString();
}
