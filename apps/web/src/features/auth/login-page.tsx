import { useEffect, useRef } from 'react';
import { useNavigate } from 'react-router';
import { paths } from '../../app/paths';
import { currentUiLanguage, i18n, setUiLanguage } from '../../i18n/index';
import { mountLoginView } from './login-view';
import { useApplyAuth } from './use-apply-auth';

/**
 * `/` and `/pages/login/login` inside the app (after signing out, or on coming back from
 * registration): the same DOM-drawn page a signed-out visitor meets before the app loads,
 * here speaking through i18next and the router.
 */
export function LoginPage() {
  const main = useRef<HTMLElement>(null);
  const navigate = useNavigate();
  const applyAuth = useApplyAuth();
  // The page is mounted once; the latest callbacks are read when they are needed.
  const latest = useRef({ navigate, applyAuth });
  latest.current = { navigate, applyAuth };

  useEffect(() => {
    const view = mountLoginView(main.current!, {
      language: currentUiLanguage,
      text: (key, params) => i18n.t(key, params ?? {}),
      chooseLanguage: setUiLanguage,
      signedIn: async (result) => {
        await latest.current.applyAuth(result);
        void latest.current.navigate(paths.root, { replace: true });
      },
    });
    return () => view.destroy();
  }, []);

  return <main ref={main} className="tt-page" />;
}
