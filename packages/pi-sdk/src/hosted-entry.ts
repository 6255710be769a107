import { installHostedPi } from './hosted.js';

/**
 * The script the local sandbox serves as `pi-sdk.js`: `window.Pi` talking to the host
 * page of the origin the script came from.
 */
const script = document.currentScript as HTMLScriptElement | null;
installHostedPi(window, script ? new URL(script.src).origin : window.location.origin);
