import type { ReactNode } from 'react';
import { usePageTexts } from '../../i18n/pages';
import { Navigate } from 'react-router';
import { paths } from '../../app/paths';
import { Page } from '../../ui/page';
import { missingStep, useRegistrationDraft, type RegisterStep } from './registration-draft';
import './auth.css';

const stepPaths: Record<RegisterStep, string> = {
  contact: paths.register,
  account: paths.registerAccount,
  region: paths.selectRegion,
  language: paths.registerLanguage,
  invite: paths.inviteCode,
};

/** Visible step numbers: contact and code are steps 1 and 2. */
const stepNumbers: Record<RegisterStep, number> = {
  contact: 1,
  account: 3,
  region: 4,
  language: 5,
  invite: 6,
};
const TOTAL_STEPS = 6;
/** Through Pi there is no contact or code to give: four steps. */
const piStepNumbers: Record<RegisterStep, number> = {
  contact: 0,
  account: 1,
  region: 2,
  language: 3,
  invite: 4,
};
const PI_TOTAL_STEPS = 4;

export function registerStepPath(step: RegisterStep): string {
  return stepPaths[step];
}

interface RegisterStepPageProps {
  step: RegisterStep;
  title: string;
  intro: string;
  flush?: boolean;
  children: ReactNode;
}

/** A registration page after the code: sends the person back to any step they skipped. */
export function RegisterStepPage({
  step,
  title,
  intro,
  flush = false,
  children,
}: RegisterStepPageProps) {
  const { t } = usePageTexts();
  const draft = useRegistrationDraft();
  const missing = missingStep(step, draft);
  if (missing) return <Navigate to={stepPaths[missing]} replace />;
  return (
    <Page title={title} flush={flush}>
      <div className={flush ? 'tt-auth-heading tt-step-heading' : 'tt-auth-heading'}>
        <p className="tt-steps">
          {draft.pi
            ? t('register.step', { step: piStepNumbers[step], total: PI_TOTAL_STEPS })
            : t('register.step', { step: stepNumbers[step], total: TOTAL_STEPS })}
        </p>
        <p>{intro}</p>
      </div>
      {children}
    </Page>
  );
}
