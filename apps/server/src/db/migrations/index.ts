import type { Migration } from 'kysely';
import * as m0001 from './0001-initial.js';
import * as m0002 from './0002-contacts-messaging.js';
import * as m0003 from './0003-message-burn.js';
import * as m0004 from './0004-groups.js';
import * as m0005 from './0005-translation.js';
import * as m0006 from './0006-notice-target.js';
import * as m0007 from './0007-burn-index.js';
import * as m0008 from './0008-message-kinds.js';
import * as m0009 from './0009-media.js';
import * as m0010 from './0010-media-kinds.js';
import * as m0011 from './0011-edit-search.js';
import * as m0012 from './0012-pi-identity.js';
import * as m0013 from './0013-ledger.js';
import * as m0014 from './0014-wallet.js';
import * as m0015 from './0015-payments.js';
import * as m0016 from './0016-money-messages.js';
import * as m0017 from './0017-nft.js';
import * as m0018 from './0018-transfers-in-messages.js';
import * as m0019 from './0019-growth.js';
import * as m0020 from './0020-device-logins.js';
import * as m0021 from './0021-push.js';
import * as m0022 from './0022-server-flags.js';
import * as m0023 from './0023-cooperation.js';
import * as m0024 from './0024-security.js';
import * as m0025 from './0025-withdrawal-sequences.js';
import * as m0026 from './0026-upload-reservations.js';
import * as m0027 from './0027-envelope-message.js';
import * as m0028 from './0028-ad-claims.js';
import * as m0029 from './0029-counted-mailboxes.js';
import * as m0030 from './0030-calls.js';

/**
 * Every migration in order. A static list rather than a folder scan, so the compiled
 * build needs no file-system lookups. Append only.
 */
export const migrations: Record<string, Migration> = {
  '0001-initial': m0001,
  '0002-contacts-messaging': m0002,
  '0003-message-burn': m0003,
  '0004-groups': m0004,
  '0005-translation': m0005,
  '0006-notice-target': m0006,
  '0007-burn-index': m0007,
  '0008-message-kinds': m0008,
  '0009-media': m0009,
  '0010-media-kinds': m0010,
  '0011-edit-search': m0011,
  '0012-pi-identity': m0012,
  '0013-ledger': m0013,
  '0014-wallet': m0014,
  '0015-payments': m0015,
  '0016-money-messages': m0016,
  '0017-nft': m0017,
  '0018-transfers-in-messages': m0018,
  '0019-growth': m0019,
  '0020-device-logins': m0020,
  '0021-push': m0021,
  '0022-server-flags': m0022,
  '0023-cooperation': m0023,
  '0024-security': m0024,
  '0025-withdrawal-sequences': m0025,
  '0026-upload-reservations': m0026,
  '0027-envelope-message': m0027,
  '0028-ad-claims': m0028,
  '0029-counted-mailboxes': m0029,
  '0030-calls': m0030,
};
