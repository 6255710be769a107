/**
 * Routes anyone may call without a session, each with the reason. A trailing `*` covers a
 * path and everything under it.
 */
export const PUBLIC: Record<string, string> = {
  'GET /healthz': 'health checks of load balancers and orchestrators',
  'POST /api/v1/auth/codes': 'signing up and in comes before there is a session',
  'POST /api/v1/auth/codes/verify': 'signing up comes before there is a session',
  'POST /api/v1/auth/register': 'signing up comes before there is a session',
  'POST /api/v1/auth/login': 'signing in comes before there is a session',
  'POST /api/v1/auth/login/code': 'signing in comes before there is a session',
  'POST /api/v1/auth/password/reset': 'a forgotten password is reset without a session',
  'GET /api/v1/meta/countries': 'the sign-up form lists countries',
  'GET /api/v1/meta/version':
    'an app that cannot sign in (too old, maintenance) must still learn why',
  'POST /api/v1/auth/device-logins':
    'a signed-out browser asks for a QR code to sign in with: it has no session yet',
  'GET /api/v1/pi/config': 'the sign-in page asks whether Pi is on before anyone signs in',
  'POST /api/v1/auth/pi': 'signing in with Pi comes before there is a session',
  'POST /api/v1/auth/pi/register': 'signing up through Pi comes before there is a session',
  'POST /api/v1/auth/pi/bind': 'binding a Pi account signs in: it comes before there is a session',
  'GET /api/v1/dev/outbox': 'the development outbox: absent in production, guarded on its own',
  'GET /dev/outbox': 'the development outbox page: absent in production, guarded on its own',
  'GET /ws': 'the socket authenticates by its first frame: see the frame matrix below',
  'GET /files/*':
    'stored files under random names: avatars, which people outside a group see too (group search, profiles)',
  'GET /api/v1/media/:id/:variant':
    'media bytes by a short-lived signed address (an <img> sends no token), signed only for those who may see it',
  'GET /openapi.json': 'the API description: routes and schemas, no data',
  'GET /docs*': 'the API description: routes and schemas, no data',
  'GET /': 'the web app',
  'GET /home*': 'the landing site: public pages and the app download links',
  'POST /home/cooperate': "the landing site's partnership form, for people without an account",
  'GET /api/v1/security/address-undo/:token':
    'the undo link a replaced address is sent: its owner may have no session (the link is the secret)',
  'POST /api/v1/security/address-undo':
    'the undo link a replaced address is sent: its owner may have no session (the link is the secret)',
};

export const covers = (entry: string, route: string) =>
  entry.endsWith('*') ? route.startsWith(entry.slice(0, -1)) : route === entry;
/** A HEAD route of its own is public where its GET would be. */
export const isPublic = (route: string) =>
  Object.keys(PUBLIC).some((entry) => covers(entry, route.replace(/^HEAD /, 'GET ')));
