/**
 * Every error the server can return, with its HTTP status and an English message.
 * Clients show the message of their own catalog for the code (key `error.<CODE>`);
 * the English text here is the fallback and the text in logs and API docs.
 */
export const ERRORS = {
  VALIDATION_FAILED: { status: 400, message: 'The request is not valid' },
  MALFORMED_REQUEST: { status: 400, message: 'The request could not be read' },
  PAYLOAD_TOO_LARGE: { status: 413, message: 'The request is too large' },
  UNSUPPORTED_MEDIA_TYPE: { status: 415, message: 'This content type is not supported' },
  UNAUTHENTICATED: { status: 401, message: 'Please sign in first' },
  TOKEN_EXPIRED: { status: 401, message: 'Your session has expired, please sign in again' },
  FORBIDDEN: { status: 403, message: 'You are not allowed to do this' },
  NOT_FOUND: { status: 404, message: 'Not found' },
  RATE_LIMITED: { status: 429, message: 'Too many requests, please try again later' },
  TOO_MANY_CONNECTIONS: { status: 429, message: 'Too many connections, please try again later' },
  INTERNAL: { status: 500, message: 'Something went wrong, please try again' },
  SERVER_BUSY: { status: 503, message: 'The server is busy, please try again in a moment' },

  ACCOUNT_REGISTERED: { status: 409, message: 'This account has been registered' },
  ACCOUNT_NOT_FOUND: {
    status: 400,
    message: 'The account you entered is incorrect, Please re-enter it',
  },
  PASSWORD_INCORRECT: {
    status: 400,
    message: 'The password you entered is incorrect, Please re-enter it',
  },
  LOGIN_LOCKED: {
    status: 429,
    message: 'Too many wrong passwords, please try again in {seconds} seconds',
  },
  CODE_INVALID: { status: 400, message: 'Verification code error' },
  CODE_EXPIRED: { status: 400, message: 'The verification code has expired, please get a new one' },
  CODE_SEND_FAILED: { status: 502, message: 'Verification code sending failed' },
  CHANNEL_UNAVAILABLE: {
    status: 503,
    message: 'Verification codes cannot be sent this way on this server, please use another way',
  },
  CODE_TOO_FREQUENT: {
    status: 429,
    message: 'Codes are sent at most once a minute, please try again in {seconds} seconds',
  },
  CODE_DAILY_LIMIT: {
    status: 429,
    message: 'Too many codes were sent to this account today, please try again tomorrow',
  },
  MAINTENANCE: { status: 503, message: 'This feature is currently under maintenance' },
  PUSH_NOT_SUBSCRIBED: {
    status: 409,
    message: 'Notifications are not switched on for this device',
  },
  PUSH_ENDPOINT_REFUSED: {
    status: 400,
    message: 'Notifications through this browser are not supported',
  },
  PUSH_ENDPOINT_IN_USE: {
    status: 409,
    message: "This browser gets another account's notifications: sign that account out here first",
  },
  PUSH_FAILED: { status: 502, message: 'The notification could not be sent, please try again' },
  LOGIN_TICKET_EXPIRED: {
    status: 410,
    message: 'This login code has expired, please show a new one on the other device',
  },
  LOGIN_TICKET_DECIDED: {
    status: 409,
    message: 'This login has already been approved or refused',
  },
  LOGIN_CODE_INVALID: { status: 400, message: 'This login code is not valid, please check it' },
  TICKET_INVALID: { status: 400, message: 'Verification has expired, please start again' },
  INVITE_CODE_INVALID: { status: 400, message: 'Invalid invitation code' },
  REGISTRATION_FAILED: { status: 500, message: 'Registration failed' },
  PI_AUTH_FAILED: { status: 401, message: 'Authentication failed.' },
  PI_UNREACHABLE: { status: 504, message: 'Network connection timed out.' },
  PI_UNAVAILABLE: { status: 503, message: 'This feature is currently not available' },
  PI_TICKET_INVALID: { status: 400, message: 'Failed to obtain piID, Please try again' },
  PI_ALREADY_BOUND: {
    status: 409,
    message: 'This Pi account is already bound to another Teltlk account',
  },
  ACCOUNT_PI_BOUND: {
    status: 409,
    message: 'This Teltlk account is already bound to a Pi account',
  },
  PI_ACCOUNT_HAS_PASSWORD: {
    status: 400,
    message: 'The account has a password set, please use it to log in to the APP',
  },
  PI_UNBIND_LAST_WAY_IN: {
    status: 409,
    message: 'Add a phone number first: without Pi you could not sign in to this account',
  },
  PI_ONLY: { status: 403, message: 'This feature is currently only available to PI users' },
  PI_PAYMENT_NOT_YOURS: { status: 403, message: 'This payment belongs to another Pi account' },
  TELTLK_ID_MONTHLY: { status: 409, message: 'TeltlkID can only be modified once a month' },
  TELTLK_ID_TAKEN: { status: 409, message: 'This Teltlk ID is already taken' },
  IMAGE_INVALID: { status: 400, message: 'This image cannot be read' },
  IMAGE_TYPE_UNSUPPORTED: {
    status: 415,
    message: 'Only JPEG, PNG, WebP and GIF images can be used',
  },
  IMAGE_TOO_LARGE: {
    status: 413,
    message: 'This image is too large: at most {megapixels} megapixels',
  },
  MEDIA_TOO_LARGE: { status: 413, message: 'This file is too large: at most {megabytes} MB' },
  MEDIA_TYPE_UNSUPPORTED: {
    status: 415,
    message: 'Only JPEG, PNG, WebP and GIF images can be sent as photos',
  },
  MEDIA_QUOTA_EXCEEDED: {
    status: 429,
    message: "You have reached today's upload limit, please try again tomorrow",
  },
  MEDIA_NOT_FOUND: { status: 404, message: 'This file is no longer available' },
  UPLOAD_CONFLICT: { status: 409, message: 'The upload went out of step, resuming' },
  UPLOAD_EXPIRED: { status: 410, message: 'This upload has expired, please send the file again' },
  UPLOAD_UNSUPPORTED: { status: 412, message: 'This upload is not in a form the server accepts' },
  UPLOAD_BUSY: { status: 423, message: 'This upload is busy, please try again' },
  FEATURE_UNAVAILABLE: { status: 503, message: 'This feature is currently not available' },

  USER_NOT_FOUND: { status: 404, message: 'Teltlk account does not exist' },
  CANNOT_ADD_SELF: { status: 400, message: 'You cannot add yourself as a friend' },
  ALREADY_FRIENDS: { status: 409, message: 'You are already friends' },
  FRIEND_REQUEST_HANDLED: { status: 409, message: 'This friend request has already been handled' },
  NOT_FRIENDS: { status: 403, message: 'You are not friends yet, send a friend request first' },
  MESSAGE_REFUSED: { status: 403, message: 'The message was refused by the other party' },
  CONVERSATION_NOT_FOUND: { status: 404, message: 'This conversation does not exist' },
  MESSAGE_NOT_FOUND: { status: 404, message: 'This message does not exist' },
  REVOKE_EXPIRED: {
    status: 409,
    message: 'Messages can only be revoked within {minutes} minutes of sending',
  },
  REVOKE_NOT_ALLOWED: { status: 403, message: 'You can only revoke your own messages' },
  EDIT_EXPIRED: {
    status: 409,
    message: 'Messages can only be edited within {hours} hours of sending',
  },
  MERGED_TOO_DEEP: {
    status: 400,
    message: 'Chat history can hold chat history only {max} levels deep',
  },
  FAVOURITES_FULL: {
    status: 409,
    message: 'You can keep at most {max} stickers: remove one first',
  },
  EDIT_NOT_ALLOWED: { status: 403, message: 'You can only edit text messages you wrote' },
  BLANK_MESSAGE: { status: 400, message: 'Cannot send blank message' },

  INSUFFICIENT_BALANCE: { status: 409, message: 'Your balance is not enough for this' },
  LEDGER_KEY_REUSED: {
    status: 409,
    message: 'This request was already made with other details',
  },

  STEP_UP_REQUIRED: {
    status: 403,
    message: 'For your security, please confirm it is you first',
  },
  STEP_UP_METHOD_UNAVAILABLE: {
    status: 409,
    message: 'This way of confirming is not set up on your account, please choose another',
  },
  ADDRESS_UNDO_INVALID: {
    status: 410,
    message: 'This link has expired or has already been used',
  },
  DEVICE_MATCH_WRONG: {
    status: 400,
    message: 'That number does not match the one on the other device: the sign-in was refused',
  },

  WALLET_NOT_FOUND: { status: 404, message: 'Create your wallet first' },
  PAYMENT_PASSWORD_NOT_SET: { status: 409, message: 'Set a payment password first' },
  PAYMENT_PASSWORD_ALREADY_SET: {
    status: 409,
    message: 'A payment password is already set: change it with the old one',
  },
  PAYMENT_PASSWORD_INCORRECT: { status: 400, message: 'The payment password is incorrect' },
  PAYMENT_PASSWORD_LOCKED: {
    status: 429,
    message: 'Too many wrong payment passwords, please try again in {seconds} seconds',
  },
  WALLET_CODE_NO_DESTINATION: {
    status: 409,
    message: 'Add this phone number or email to your account first',
  },
  TRANSFER_SINGLE_ONLY: {
    status: 400,
    message: 'A transfer goes to one person: in a group, send a red envelope',
  },
  ENVELOPE_EMPTY: { status: 409, message: 'All shares of this red envelope have been taken' },
  ENVELOPE_EXPIRED: { status: 410, message: 'This red envelope has expired' },
  ENVELOPE_NOT_FOR_YOU: { status: 403, message: 'This red envelope is for the other person' },
  NFT_NOT_FOUND: { status: 404, message: 'You do not hold this NFT' },
  NFT_SINGLE_ONLY: {
    status: 400,
    message: 'An NFT goes to one person: send it in a one-to-one chat',
  },
  NOT_MINING: { status: 409, message: 'Check in first: the booster is for a mining session' },
  AD_BOOST_USED: { status: 409, message: 'This mining session already has its ad booster' },
  AD_NOT_REWARDED: { status: 409, message: 'The ad was not watched to the end' },
  TEAM_MEMBER_NOT_FOUND: { status: 404, message: 'This person is not in your team' },
  NUDGE_NOT_NEEDED: { status: 409, message: 'This member is mining now' },
  NUDGE_TOO_SOON: { status: 429, message: 'This member was reminded in the last 24 hours' },
  PAYMENT_MISMATCH: { status: 409, message: 'This payment does not match its order' },
  PAYMENT_NOT_COMPLETE: {
    status: 409,
    message: 'This payment has no confirmed transaction yet, please try again shortly',
  },
  RECHARGE_ABOVE_MAX: { status: 400, message: 'A recharge is at most {max} Pi' },
  WITHDRAW_BELOW_MIN: { status: 400, message: 'The smallest withdrawal is {min} Pi' },
  WITHDRAW_DAILY_LIMIT: {
    status: 409,
    message: "This is more than today's withdrawal limit: {left} Pi left",
  },
  WITHDRAW_UNAVAILABLE: { status: 503, message: 'Withdrawals are currently not available' },
  WITHDRAW_FAILED: {
    status: 502,
    message: 'The withdrawal could not be sent: the Pi is back in your balance',
  },
  WITHDRAW_IN_PROGRESS: {
    status: 409,
    message: 'A withdrawal is already under way, please try again in a moment',
  },

  GROUP_NOT_FOUND: { status: 404, message: 'This group does not exist' },
  GROUP_FULL: { status: 409, message: 'This group is full: a group has at most {max} members' },
  GROUP_ROLE_REQUIRED: { status: 403, message: 'Only the group owner or admins can do this' },
  GROUP_OWNER_REQUIRED: { status: 403, message: 'Only the group owner can do this' },
  MUTED_IN_GROUP: { status: 403, message: 'You are muted in this group' },
  GROUP_ALL_MUTED: { status: 403, message: 'Only admins can speak while the group is muted' },
  MESSAGE_KIND_NOT_ALLOWED: {
    status: 403,
    message: 'This kind of message is not allowed in this group',
  },
  GROUP_INVITE_ONLY: { status: 403, message: 'This group can only be joined by invitation' },
  ALREADY_IN_GROUP: { status: 409, message: 'You are already in this group' },
  GROUP_APPLICATION_HANDLED: {
    status: 409,
    message: 'This application has already been handled',
  },
  GROUP_PRIVATE_CHAT_OFF: {
    status: 403,
    message: 'Members of this group cannot add each other as friends from the group',
  },
  GROUP_ADD_REFUSED: {
    status: 403,
    message: 'Some of the people you chose cannot be added to this group',
  },
  OWNER_CANNOT_QUIT: {
    status: 409,
    message: 'Transfer the group to another member or dismiss it before leaving',
  },

  TRANSLATION_UNAVAILABLE: { status: 503, message: 'Translation is not available right now' },
  TRANSLATION_QUOTA_EXCEEDED: {
    status: 429,
    message: "You have reached today's translation limit, please try again tomorrow",
  },
  TRANSLATION_FAILED: { status: 502, message: 'Translation failed, please try again' },

  CALL_NOT_FOUND: { status: 404, message: 'This call does not exist' },
  CALL_STATE_CHANGED: { status: 409, message: 'This call has already been answered or has ended' },
  CALL_FULL: { status: 409, message: 'This call is full' },
  CALL_NOT_ALLOWED: { status: 403, message: 'Only the owner and admins can start calls here' },

  /** Raised by clients, never sent by the server: the request did not get an answer. */
  NETWORK_ERROR: { status: 0, message: 'The current network connection is poor' },
  TIMEOUT: { status: 0, message: 'Network connection timed out.' },
} as const satisfies Record<string, { status: number; message: string }>;

export type ErrorCode = keyof typeof ERRORS;
export const ERROR_CODES = Object.keys(ERRORS) as ErrorCode[];

/** One field that failed validation, with the rule it broke (a stable key). */
export interface FieldIssue {
  path: string;
  rule: string;
}

/** The body of every error response. `params` fills `{name}` slots of the message. */
export interface ErrorBody {
  error: {
    code: ErrorCode;
    message: string;
    params?: Record<string, string | number>;
    issues?: FieldIssue[];
  };
}

export function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === 'string' && Object.hasOwn(ERRORS, value);
}

export function formatMessage(template: string, params?: Record<string, string | number>): string {
  if (!params) return template;
  return template.replace(/\{(\w+)\}/g, (whole, name: string) =>
    Object.hasOwn(params, name) ? String(params[name]) : whole,
  );
}
