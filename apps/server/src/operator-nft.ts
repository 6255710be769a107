import { readFile } from 'node:fs/promises';
import {
  NFT_DESCRIPTION_MAX_LENGTH as DESCRIPTION_MAX,
  NFT_NAME_MAX_LENGTH as NAME_MAX,
} from './modules/nft/service.js';
import {
  CommandFailed,
  parseOptions,
  UsageError,
  userOf,
  type OperatorCommand,
} from './operator-kit.js';

/** The operator's text input, checked where the service would refuse it less kindly. */
function text(value: string | undefined, what: string, max: number, required: boolean): string {
  const trimmed = (value ?? '').trim();
  if (required && trimmed.length === 0) throw new UsageError(`the ${what} may not be blank`);
  if ([...trimmed].length > max) throw new UsageError(`the ${what} is at most ${max} characters`);
  return trimmed;
}

const nftCollection: OperatorCommand = {
  usage: 'nft:collection --name <name> [--description <text>]',
  summary: 'Create an NFT collection (community badges, say); prints its id',
  async run(args, open) {
    const options = parseOptions(args, ['name', 'description'], ['name']);
    const name = text(options.get('name'), 'name', NAME_MAX, true);
    const description = text(options.get('description'), 'description', DESCRIPTION_MAX, false);
    const ctx = await open();
    const id = await ctx.services.nfts.createCollection({ name, description });
    return [`collection ${id}`];
  },
};

const nftMint: OperatorCommand = {
  usage:
    'nft:mint --collection <id> --name <name> --image <file> [--description <text>] [--to <teltlkId>]',
  summary:
    'Mint an item in a collection from a JPEG, PNG, WebP or GIF picture; given to --to at once, else kept for nft:grant',
  async run(args, open) {
    const options = parseOptions(
      args,
      ['collection', 'name', 'image', 'description', 'to'],
      ['collection', 'name', 'image'],
    );
    const name = text(options.get('name'), 'name', NAME_MAX, true);
    const description = text(options.get('description'), 'description', DESCRIPTION_MAX, false);
    const path = options.get('image')!;
    let image: Buffer;
    try {
      image = await readFile(path);
    } catch {
      throw new UsageError(`cannot read the picture ${path}`);
    }
    const ctx = await open();
    const to = options.has('to') ? await userOf(ctx, options.get('to')!) : undefined;
    const collectionId = options.get('collection')!.trim();
    if (!(await ctx.services.nfts.hasCollection(collectionId))) {
      throw new UsageError(`no NFT collection ${collectionId}`);
    }
    const { id, serial } = await ctx.services.nfts.mint({
      collectionId,
      name,
      description,
      image,
      ...(to ? { to } : {}),
    });
    return [
      `item ${id} #${serial}${to ? ` given to ${options.get('to')!.trim()}` : ' in the vault'}`,
    ];
  },
};

const nftGrant: OperatorCommand = {
  usage: 'nft:grant --item <id> --to <teltlkId>',
  summary: 'Give an item kept in the vault to a user',
  async run(args, open) {
    const options = parseOptions(args, ['item', 'to'], ['item', 'to']);
    const ctx = await open();
    const userId = await userOf(ctx, options.get('to')!);
    const item = options.get('item')!.trim();
    const granted = await ctx.services.nfts.grant(item, userId);
    if (granted === 'absent') throw new CommandFailed([`item ${item} is not in the vault`]);
    const to = options.get('to')!.trim();
    return [
      granted === 'given'
        ? `item ${item} given to ${to}`
        : `item ${item} was given to ${to} before`,
    ];
  },
};

const nftList: OperatorCommand = {
  usage: 'nft:list [--collection <id>]',
  summary: 'List the minted items with their holders (vault: not given yet)',
  async run(args, open) {
    const options = parseOptions(args, ['collection']);
    const ctx = await open();
    const items = await ctx.services.nfts.census(options.get('collection')?.trim());
    if (items.length === 0) return ['no items'];
    return items.map(({ item, holder }) =>
      [item.id, item.collection.name, `#${item.serial}`, item.name, holder ?? 'vault'].join('\t'),
    );
  },
};

export const nftCommands: Record<string, OperatorCommand> = {
  'nft:collection': nftCollection,
  'nft:mint': nftMint,
  'nft:grant': nftGrant,
  'nft:list': nftList,
};
