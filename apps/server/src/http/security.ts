import type { IncomingMessage } from 'node:http';
import helmet from '@fastify/helmet';
import type { FastifyInstance } from 'fastify';
import { PI_SANDBOX_ORIGIN, type CallsConfig, type PiConfig } from '../config.js';

const SELF = "'self'";

/**
 * A host as a CSP host-source may name it: DNS labels or an IPv4 address, and a port.
 * Anything else (IPv6 literals, which host-sources cannot express; `;`, spaces or `*`,
 * which would add sources or directives of the sender's choosing) gets no socket source.
 */
const CSP_HOST =
  /^(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)*[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?::\d{1,5})?$/i;
const CSP_HOST_MAX_LENGTH = 253 + ':65535'.length;

/** The WebSocket sources of the host a page was asked from, or none when it is not a plain host. */
export function socketSources(host: string | undefined): string[] {
  if (!host || host.length > CSP_HOST_MAX_LENGTH || !CSP_HOST.test(host)) return [];
  const lower = host.toLowerCase();
  return [`ws://${lower}`, `wss://${lower}`];
}

/**
 * The SFU's origin as browsers reach it (its HTTP API or WebSocket), which the group call
 * screens connect to; none without group call rooms.
 */
export function sfuSources(calls: CallsConfig): string[] {
  const url = calls.janus?.publicUrl;
  return url ? [new URL(url).origin] : [];
}

/** Origins the Pi Browser's parts come from, when Pi is configured. */
export interface PiSources {
  /** The Pi SDK script. */
  script: string[];
  /** Pi's API, which the SDK calls from the page. */
  connect: string[];
  /** Hosts that frame the app: Pi's desktop sandbox, the local sandbox's page. */
  frameAncestors: string[];
}

export const NO_PI_SOURCES: PiSources = { script: [], connect: [], frameAncestors: [] };

/** The sources Pi's configuration adds to the policy; none when Pi is off. */
export function piSources(pi: PiConfig): PiSources {
  if (!pi.apiKey) return NO_PI_SOURCES;
  const origin = (url: string) => new URL(url).origin;
  const frameAncestors = [
    ...(pi.sandbox ? [PI_SANDBOX_ORIGIN] : []),
    ...(pi.sandboxHostUrl ? [origin(pi.sandboxHostUrl)] : []),
  ];
  return {
    script: [origin(pi.sdkUrl)],
    connect: [origin(pi.apiUrl)],
    frameAncestors: [...new Set(frameAncestors)],
  };
}

/**
 * Security headers for every response. The policy fits the built web app (own scripts and
 * styles only, images also from data: and blob: URLs for previews, sockets to this host)
 * and the API docs at /docs, which load only their own files too.
 *
 * Connections go to this origin only. CSP3 browsers count same-host sockets as 'self', but
 * older engines (older Safari among them) do not and would block the app's own socket, so
 * this host's ws:/wss: URLs are named too; a host that is not plain gets 'self' alone. No
 * translation provider is listed: the browser never calls one, the server does.
 */
export async function securityHeaders(
  app: FastifyInstance,
  pi: PiSources = NO_PI_SOURCES,
  /** The SFU's address for browsers (group calls), when one is configured. */
  sfu: string[] = [],
): Promise<void> {
  // The host as Fastify reads it (X-Forwarded-Host only from a trusted proxy), kept for the
  // CSP, which helmet builds from the raw request.
  const hosts = new WeakMap<IncomingMessage, string>();
  app.addHook('onRequest', (request, _reply, done) => {
    hosts.set(request.raw, request.host);
    done();
  });
  const connectSources = (request: IncomingMessage) =>
    [SELF, ...socketSources(hosts.get(request)), ...pi.connect, ...sfu].join(' ');

  await app.register(helmet, {
    global: true,
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: [SELF],
        baseUri: [SELF],
        scriptSrc: [SELF, ...pi.script],
        scriptSrcAttr: ["'none'"],
        styleSrc: [SELF],
        imgSrc: [SELF, 'data:', 'blob:'],
        mediaSrc: [SELF, 'blob:'],
        fontSrc: [SELF, 'data:'],
        connectSrc: [connectSources],
        workerSrc: [SELF, 'blob:'],
        manifestSrc: [SELF],
        objectSrc: ["'none'"],
        frameAncestors: [SELF, ...pi.frameAncestors],
        formAction: [SELF],
      },
    },
    // X-Frame-Options cannot name another origin; with hosts allowed, the CSP alone says who may frame.
    xFrameOptions: pi.frameAncestors.length === 0 ? { action: 'sameorigin' } : false,
  });
}
