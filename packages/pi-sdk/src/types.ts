import type { AdFormat, AdResult, NativePermission, PiScope } from './rules.js';

/** What `window.Pi` offers: Pi's SDK in the Pi Browser, or the sandbox's stand-in. */

export interface PiUser {
  uid: string;
  username?: string;
  credentials?: { scopes: string[]; valid_until?: { timestamp: number; iso8601: string } };
  roles?: string[];
  platform?: string;
  wallet_address?: string;
}

export interface PiAuthResult {
  accessToken: string;
  user: PiUser;
}

export interface PaymentData {
  amount: number;
  memo: string;
  metadata: Record<string, unknown>;
}

/** A payment as Pi describes it (the Platform API's PaymentDTO). */
export interface PiPayment {
  identifier: string;
  user_uid: string;
  amount: number;
  memo: string;
  metadata: unknown;
  from_address?: string | null;
  to_address?: string | null;
  direction: 'user_to_app' | 'app_to_user';
  created_at: string;
  network: string;
  status: {
    developer_approved: boolean;
    transaction_verified: boolean;
    developer_completed: boolean;
    cancelled: boolean;
    user_cancelled: boolean;
  };
  transaction: null | { txid: string; verified: boolean; _link: string };
}

export interface PaymentCallbacks {
  onReadyForServerApproval(paymentId: string): void;
  onReadyForServerCompletion(paymentId: string, txid: string): void;
  onCancel(paymentId: string): void;
  onError(error: Error, payment?: PiPayment): void;
}

export interface ShowAdResponse {
  type: AdFormat;
  result: AdResult;
  adId?: string;
}

export interface PiAds {
  isAdReady(type: AdFormat): Promise<{ type: AdFormat; ready: boolean }>;
  requestAd(type: AdFormat): Promise<{ type: AdFormat; result: string }>;
  showAd(type: AdFormat): Promise<ShowAdResponse>;
}

export interface PiGlobal {
  init(config: { version: string; sandbox?: boolean }): void | Promise<void>;
  authenticate(
    scopes: PiScope[],
    onIncompletePaymentFound: (payment: PiPayment) => void,
  ): Promise<PiAuthResult>;
  createPayment(data: PaymentData, callbacks: PaymentCallbacks): void;
  openShareDialog(title: string, message: string): void;
  openUrlInSystemBrowser(url: string): Promise<void>;
  nativeFeaturesList(): Promise<string[]>;
  /** Not in every SDK version: the typed layer falls back to the clipboard. */
  copyText?(text: string): void;
  /**
   * Asks the person to let the app use the camera or the microphone (the system's prompt,
   * in the Pi Browser): whether they did. Not in every SDK version; nor can every Pi Browser
   * build ask (`nativeFeaturesList` then lacks `request_permission`).
   */
  requestPermission?(permission: NativePermission): Promise<boolean>;
  /** Opens a conversation of Pi's own chat, by its number. Not in every SDK version. */
  openConversation?(conversationId: number): Promise<void>;
  Ads: PiAds;
}
