import type { Namespace } from 'i18next';
import type * as ReactRouter from 'react-router';
import { vi } from 'vitest';

/**
 * What every web test that renders a component needs, in one place. The tests run
 * outside the app's bundler, which gives the app and its libraries one React; here the
 * libraries that would resolve a copy of their own are stood in for:
 *
 * - react-i18next: `useTranslation` answers from an i18next instance with the English
 *   catalogs (english-for-tests.ts), in the namespace asked for, so texts are the real
 *   ones; only React's binding is left out.
 * - antd-mobile-icons: every icon is decoration here and renders as nothing.
 * - react-router: links render as plain anchors, navigation goes nowhere; the rest of the
 *   library is the real one.
 */

vi.mock('react-i18next', async () => {
  const { englishForTests } = await import('../i18n/english-for-tests');
  const i18n = await englishForTests();
  return {
    useTranslation: (ns?: Namespace) => ({ t: i18n.getFixedT(null, ns ?? 'translation'), i18n }),
    initReactI18next: { type: '3rdParty', init: () => {} },
  };
});

vi.mock('antd-mobile-icons', () => {
  const none = () => null;
  return new Proxy<Record<string, typeof none>>(
    {},
    {
      get: (_, name) => (name === 'then' ? undefined : none),
      has: () => true,
    },
  );
});

vi.mock('react-router', async (importOriginal) => ({
  ...(await importOriginal<typeof ReactRouter>()),
  Link: ({ to, className, children }: { to: string; className?: string; children: unknown }) => (
    <a href={to} className={className}>
      {children as string}
    </a>
  ),
  useNavigate: () => () => {},
  useLocation: () => ({ key: 'default' }),
}));
