export { PiPlatformEmulator, PiError, type PaymentDto, type SandboxUser } from './platform.js';
export { startPiSandbox, type PiSandboxOptions, type RunningPiSandbox } from './server.js';
export type { HorizonAnswer, HorizonPart, HorizonTransaction } from './horizon.js';
