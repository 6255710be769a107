/*
 * What tools beside the server build on, such as the benchmarks' seeding in bench/: the
 * context as the server makes it, the operator commands' kit, and what writes rows the way
 * the server writes them. Reached as `@teltlk/server/tools` (the built dist at run time).
 */
export { ConfigError, loadConfig } from './config.js';
export { createContext, type AppContext } from './context.js';
export type {
  ConversationMembersTable,
  ConversationsTable,
  Db,
  MessagesTable,
  RankValuesTable,
  UsersTable,
} from './db/schema.js';
export { AppError } from './errors.js';
export { newId, newSecret, newSortableId, randomFrom } from './lib/random.js';
export { ALL_TIME, dayOf, monthOf, periodOf } from './modules/growth/periods.js';
export { Rankings } from './modules/growth/rankings.js';
export { searchColumns } from './modules/messages/search-text.js';
export { generateInviteCode } from './modules/users/rules.js';
export { newUserRow } from './modules/users/service.js';
export {
  commandLine,
  CommandFailed,
  isEntryPoint,
  parseOptions,
  runCommands,
  UsageError,
  type CommandOutput,
  type OperatorCommand,
} from './operator-kit.js';
