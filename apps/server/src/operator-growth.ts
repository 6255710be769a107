import {
  DEFAULT_GROWTH_SETTINGS,
  GROWTH_SETTING_KEYS,
  formatPoints,
  formatSetting,
  isSettingKey,
  parsePoints,
  parseSetting,
} from './modules/growth/settings.js';
import { parseOptions, UsageError, userOf, type OperatorCommand } from './operator-kit.js';

/** Operator commands of growth: the settings table, and ecological rewards. */

const NOTE_MAX = 200;
const KEY_MAX = 150;

const growthSettings: OperatorCommand = {
  usage: 'growth:settings',
  summary: 'Show the mining rates and ranking rewards in force (points), and what each means',
  async run(args, open) {
    parseOptions(args, []);
    const ctx = await open();
    const current = await ctx.services.growth.settingsInForce();
    return Object.entries(GROWTH_SETTING_KEYS).map(([key, { about }]) => {
      const name = key as keyof typeof DEFAULT_GROWTH_SETTINGS;
      const value = formatSetting(name, current[name]);
      const isDefault = value === formatSetting(name, DEFAULT_GROWTH_SETTINGS[name]);
      return `${key}\t${value}${isDefault ? '' : ' (changed)'}\t${about}`;
    });
  },
};

const growthSet: OperatorCommand = {
  usage: 'growth:set --key <name> --value <points | count | list | default>',
  summary: 'Change one growth setting (growth:settings lists them); sessions started after use it',
  async run(args, open) {
    const options = parseOptions(args, ['key', 'value'], ['key', 'value']);
    const key = options.get('key')!.trim();
    if (!isSettingKey(key)) {
      throw new UsageError(
        `unknown setting ${key}; one of ${Object.keys(GROWTH_SETTING_KEYS).join(', ')}`,
      );
    }
    const text = options.get('value')!.trim();
    let value: number | number[] | null = null;
    if (text !== 'default') {
      try {
        value = parseSetting(key, text);
      } catch (error) {
        throw new UsageError(error instanceof Error ? error.message : String(error));
      }
    }
    const ctx = await open();
    await ctx.services.growth.changeSetting(key, value);
    return [
      `${key} ${value === null ? `back to its default, ${formatSetting(key, DEFAULT_GROWTH_SETTINGS[key])}` : `set to ${formatSetting(key, value)}`}`,
    ];
  },
};

const growthReward: OperatorCommand = {
  usage: 'growth:reward --to <teltlkId> --points <n> --note <text> --key <unique key>',
  summary:
    'Give ecological-reward points (events, contributions); the same --key gives once however often it is run',
  async run(args, open) {
    const options = parseOptions(
      args,
      ['to', 'points', 'note', 'key'],
      ['to', 'points', 'note', 'key'],
    );
    let amount: number;
    try {
      amount = parsePoints(options.get('points')!);
    } catch {
      throw new UsageError('--points is an amount of points with up to 3 decimals');
    }
    if (amount <= 0) throw new UsageError('--points must be more than zero');
    const note = options.get('note')!.trim();
    if ([...note].length > NOTE_MAX)
      throw new UsageError(`the note is at most ${NOTE_MAX} characters`);
    const key = options.get('key')!.trim();
    if (key.length > KEY_MAX) throw new UsageError(`the key is at most ${KEY_MAX} characters`);
    const ctx = await open();
    const userId = await userOf(ctx, options.get('to')!);
    const given = await ctx.services.growth.ecologicalReward({ userId, amount, note, key });
    const points = formatPoints(amount);
    const to = options.get('to')!.trim();
    return [
      given === 'given' ? `${points} points given to ${to}` : `reward ${key} was given before`,
    ];
  },
};

export const growthCommands: Record<string, OperatorCommand> = {
  'growth:settings': growthSettings,
  'growth:set': growthSet,
  'growth:reward': growthReward,
};
