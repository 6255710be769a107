import {
  groupIdOf,
  peerOf,
  type Message,
  type NftItemView,
  type NftSendBody,
} from '@teltlk/protocol';
import type { Db, NftCollectionsTable, NftItemsTable } from '../../db/schema.js';
import { AppError } from '../../errors.js';
import type { Clock } from '../../lib/clock.js';
import { newId } from '../../lib/random.js';
import type { AuthInfo } from '../auth/sessions.js';
import type { FileStore } from '../files/store.js';
import { nftCurrency, type AccountRef, type Ledger } from '../ledger/ledger.js';
import type { MessageService } from '../messages/service.js';
import { stepUpRequired, type StepUpRule } from '../security/step-up.js';
import type { WalletService } from '../wallet/service.js';
import { toNftWebp } from './image.js';

export const NFT_NAME_MAX_LENGTH = 100;
export const NFT_DESCRIPTION_MAX_LENGTH = 500;

/** What every NFT item's currency starts with (nftCurrency). */
const NFT_PREFIX = 'nft:';

const holding = (user: string, itemId: string): AccountRef => ({
  user,
  purpose: 'available',
  currency: nftCurrency(itemId),
});
/** Every item brought into being is -1 here: the mirror of what was minted. */
const minted = (itemId: string): AccountRef => ({ app: 'minted', currency: nftCurrency(itemId) });
/** Items minted and not yet given to anyone. */
const vault = (itemId: string): AccountRef => ({ app: 'vault', currency: nftCurrency(itemId) });

export interface MintInput {
  collectionId: string;
  name: string;
  description: string;
  /** A JPEG, PNG, WebP or GIF picture; kept as a square WebP. */
  image: Buffer;
  /** Who receives it at once; without one it waits in the app's vault for a grant. */
  to?: string;
}

type ItemRow = NftItemsTable & { collection: NftCollectionsTable };

/**
 * NFT assets: collections and items the operator mints (community badges and the like),
 * and items people give each other in chats. An item is a currency of its own in the
 * ledger with one unit in being: minting moves it from the mirror account into the vault
 * or to a person, granting from the vault to a person, giving from one person to another
 * with the chat message that tells of it. The ledger's conditional update on the giver
 * decides every race: two gifts of one item at once give it once.
 */
export class NftService {
  constructor(
    private readonly deps: {
      db: Db;
      ledger: Ledger;
      files: FileStore;
      wallets: WalletService;
      messages: MessageService;
      clock: Clock;
      stepUp: StepUpRule;
    },
  ) {}

  async createCollection(input: { name: string; description: string }): Promise<string> {
    const id = newId();
    await this.deps.db
      .insertInto('nft_collections')
      .values({
        id,
        name: checkedText(input.name, NFT_NAME_MAX_LENGTH, 'name'),
        description: checkedText(input.description, NFT_DESCRIPTION_MAX_LENGTH, 'description'),
        minted: 0,
        created_at: this.deps.clock.now(),
      })
      .execute();
    return id;
  }

  /** Whether there is a collection of this id. */
  async hasCollection(collectionId: string): Promise<boolean> {
    const found = await this.deps.db
      .selectFrom('nft_collections')
      .select('id')
      .where('id', '=', collectionId)
      .executeTakeFirst();
    return found !== undefined;
  }

  /** Mints one item in a collection, with the next serial; answers its id. */
  async mint(input: MintInput): Promise<{ id: string; serial: number }> {
    const { db, ledger, files, clock } = this.deps;
    const name = checkedText(input.name, NFT_NAME_MAX_LENGTH, 'name');
    const description = checkedText(input.description, NFT_DESCRIPTION_MAX_LENGTH, 'description');
    const webp = await toNftWebp(input.image);
    const id = newId();
    const imagePath = `nft/${id}.webp`;
    await files.put(imagePath, webp);
    try {
      const serial = await db.transaction().execute(async (trx) => {
        const counted = await trx
          .updateTable('nft_collections')
          .set((eb) => ({ minted: eb('minted', '+', 1) }))
          .where('id', '=', input.collectionId)
          .returning('minted')
          .executeTakeFirst();
        if (!counted) throw new Error(`no NFT collection ${input.collectionId}`);
        await trx
          .insertInto('nft_items')
          .values({
            id,
            collection_id: input.collectionId,
            serial: counted.minted,
            name,
            description,
            image_path: imagePath,
            created_at: clock.now(),
          })
          .execute();
        await ledger.post(trx, {
          key: `nft-mint:${id}`,
          kind: 'nft-mint',
          reference: id,
          entries: [
            { account: minted(id), amount: -1 },
            { account: input.to ? holding(input.to, id) : vault(id), amount: 1 },
          ],
        });
        return counted.minted;
      });
      return { id, serial };
    } catch (error) {
      await files.remove(imagePath);
      throw error;
    }
  }

  /**
   * Gives an item waiting in the vault to a person: 'given', 'already' when this grant was
   * made before (a command run twice), 'absent' when the item is not in the vault.
   */
  async grant(itemId: string, userId: string): Promise<'given' | 'already' | 'absent'> {
    const { db, ledger } = this.deps;
    try {
      const { replayed } = await db.transaction().execute((trx) =>
        ledger.post(trx, {
          key: `nft-grant:${itemId}`,
          kind: 'nft-grant',
          reference: itemId,
          entries: [
            { account: vault(itemId), amount: -1 },
            { account: holding(userId, itemId), amount: 1 },
          ],
        }),
      );
      return replayed ? 'already' : 'given';
    } catch (error) {
      // Not in the vault: never minted, minted to someone, or granted to another person.
      const codes = ['INSUFFICIENT_BALANCE', 'LEDGER_KEY_REUSED'];
      if (error instanceof AppError && codes.includes(error.code)) return 'absent';
      throw error;
    }
  }

  /** The items a person holds now, newest minted first. */
  async held(who: AuthInfo): Promise<NftItemView[]> {
    const rows = await this.items(this.deps.db, who.userId);
    return rows.map((row) => this.toView(row));
  }

  /** One item the caller holds. */
  async item(who: AuthInfo, itemId: string): Promise<NftItemView> {
    const [row] = await this.items(this.deps.db, who.userId, itemId);
    if (!row) throw new AppError('NFT_NOT_FOUND');
    return this.toView(row);
  }

  /** Every item with its holder (a user id, or null while in the vault), for the operator. */
  async census(collectionId?: string): Promise<{ item: NftItemView; holder: string | null }[]> {
    const { db } = this.deps;
    let query = this.itemQuery(db);
    if (collectionId) query = query.where('i.collection_id', '=', collectionId);
    const rows = await query.orderBy('i.collection_id').orderBy('i.serial').execute();
    const holderOf = await this.deps.ledger.holders(db, NFT_PREFIX);
    return rows.map((row) => ({
      item: this.toView(this.itemRow(row)),
      holder: holderOf.get(nftCurrency(row.id)) ?? null,
    }));
  }

  /**
   * Gives an item to the other person of a one-to-one chat, with the message that tells of
   * it, in one transaction. A resent request (same client id) answers the first message.
   */
  async send(who: AuthInfo, itemId: string, body: NftSendBody): Promise<Message> {
    const { ledger, wallets, messages } = this.deps;
    if (groupIdOf(body.conversationId) !== null) throw new AppError('NFT_SINGLE_ONLY');
    const peerId = peerOf(body.conversationId, who.userId);
    if (peerId === null || peerId === who.userId) throw new AppError('CONVERSATION_NOT_FOUND');
    // Whether the caller holds it is the ledger's to say, inside the transaction: a resent
    // request must find its first answer, after which the item is no longer theirs.
    const row = await this.itemQuery(this.deps.db).where('i.id', '=', itemId).executeTakeFirst();
    if (!row) throw new AppError('NFT_NOT_FOUND');
    const item = this.toView(this.itemRow(row));
    // An NFT is worth what someone pays for it: a new device on hold steps up first.
    if (await this.deps.stepUp.held(who)) throw stepUpRequired('hold');
    await wallets.verify(who, body.password);
    try {
      return await messages.transact(async (trx, after) => {
        const { message, replayed } = await messages.appendAs(
          trx,
          {
            userId: who.userId,
            conversationId: body.conversationId,
            clientMsgId: body.clientMsgId,
            content: {
              kind: 'nft',
              itemId,
              name: item.name,
              collection: item.collection.name,
              imageUrl: item.imageUrl,
              toId: peerId,
            },
          },
          after,
        );
        if (replayed) return message;
        await ledger.post(trx, {
          key: `nft-send:${message.id}`,
          kind: 'nft-send',
          reference: itemId,
          entries: [
            { account: holding(who.userId, itemId), amount: -1 },
            { account: holding(peerId, itemId), amount: 1 },
          ],
        });
        return message;
      });
    } catch (error) {
      // Given away meanwhile (another device, a double tap): it is no longer the caller's.
      if (error instanceof AppError && error.code === 'INSUFFICIENT_BALANCE') {
        throw new AppError('NFT_NOT_FOUND');
      }
      throw error;
    }
  }

  private itemQuery(db: Db) {
    return db
      .selectFrom('nft_items as i')
      .innerJoin('nft_collections as c', 'c.id', 'i.collection_id')
      .selectAll('i')
      .select([
        'c.name as c_name',
        'c.description as c_description',
        'c.minted as c_minted',
        'c.created_at as c_created_at',
      ]);
  }

  private async items(db: Db, userId: string, itemId?: string): Promise<ItemRow[]> {
    // The person's NFT currencies with a balance: each is an item they hold.
    const held = await this.deps.ledger.holdings(
      db,
      userId,
      itemId === undefined ? { prefix: NFT_PREFIX } : nftCurrency(itemId),
    );
    const ids = held.map((currency) => currency.slice(NFT_PREFIX.length));
    if (ids.length === 0) return [];
    const rows = await this.itemQuery(db)
      .where('i.id', 'in', ids)
      .orderBy('i.created_at', 'desc')
      .orderBy('i.id')
      .execute();
    return rows.map((row) => this.itemRow(row));
  }

  private itemRow(
    row: NftItemsTable & {
      c_name: string;
      c_description: string;
      c_minted: number;
      c_created_at: number;
    },
  ): ItemRow {
    const { c_name, c_description, c_minted, c_created_at, ...item } = row;
    return {
      ...item,
      collection: {
        id: item.collection_id,
        name: c_name,
        description: c_description,
        minted: c_minted,
        created_at: c_created_at,
      },
    };
  }

  private toView(row: ItemRow): NftItemView {
    return {
      id: row.id,
      name: row.name,
      description: row.description,
      imageUrl: this.deps.files.urlOf(row.image_path),
      serial: Number(row.serial),
      collection: {
        id: row.collection.id,
        name: row.collection.name,
        description: row.collection.description,
      },
      mintedAt: Number(row.created_at),
    };
  }
}

/** Operator input: trimmed, not blank (a name), at most `max` characters. */
function checkedText(value: string, max: number, what: 'name' | 'description'): string {
  const text = value.trim();
  if ((what === 'name' && text.length === 0) || [...text].length > max) {
    throw new RangeError(`an NFT ${what} is ${what === 'name' ? '1' : '0'} to ${max} characters`);
  }
  return text;
}
