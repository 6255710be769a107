import { ApiError, StepUpCancelled } from '@teltlk/im-sdk';
import { RULE_KEYS, type ErrorCode, type RuleKey } from '@teltlk/protocol';
import type { Catalog } from '../i18n/en_US';

export type FallbackKey = keyof Catalog['fallback'];

/** A catalog key plus its `{name}` parameters: what the UI translates and shows. */
export type Message =
  | { key: `error.${ErrorCode}`; params?: Record<string, string | number> }
  | { key: `rule.${RuleKey}`; params?: undefined }
  | { key: `fallback.${FallbackKey}`; params?: undefined }
  | { key: 'form.passwordMismatch'; params?: undefined };

const ruleKeys = new Set<string>(RULE_KEYS);

export function ruleMessage(rule: string): Message {
  return { key: `rule.${ruleKeys.has(rule) ? (rule as RuleKey) : 'invalid'}` };
}

/** Errors the app handles in one place (sign out and go to login), not in each form. */
export function isSessionError(error: unknown): boolean {
  return (
    error instanceof ApiError &&
    (error.code === 'UNAUTHENTICATED' || error.code === 'TOKEN_EXPIRED')
  );
}

/**
 * Errors told elsewhere, not by the form or toast of the call: a session that ended (the
 * app signs out and says so), and a step-up the person chose not to make (they closed the
 * sheet that said why).
 */
export function isHandledError(error: unknown): boolean {
  return isSessionError(error) || error instanceof StepUpCancelled;
}

/**
 * The message for a failed call. Codes that only say "something broke" give way to
 * the screen's own fallback ('Login failed', 'Modification failed', ...).
 */
export function errorMessage(error: unknown, fallback?: FallbackKey): Message {
  if (error instanceof ApiError) {
    if (error.code === 'INTERNAL' && fallback) return { key: `fallback.${fallback}` };
    return error.params
      ? { key: `error.${error.code}`, params: error.params }
      : { key: `error.${error.code}` };
  }
  return fallback ? { key: `fallback.${fallback}` } : { key: 'error.INTERNAL' };
}

export interface FormErrors<F extends string> {
  fields: Partial<Record<F, Message>>;
  /** What no field explains; null when the fields say it all or nothing is to be shown. */
  general: Message | null;
}

export interface FormErrorOptions<F extends string> {
  fields: readonly F[];
  /** Error codes that belong to one field, e.g. PASSWORD_INCORRECT to `password`. */
  codeFields?: Partial<Record<ErrorCode, F>>;
  /** Server paths named differently from the form's fields, e.g. `destination` to `phone`. */
  pathAliases?: Partial<Record<string, F>>;
  fallback?: FallbackKey;
}

/** Splits a failed call into messages next to fields and one general message. */
export function toFormErrors<F extends string>(
  error: unknown,
  options: FormErrorOptions<F>,
): FormErrors<F> {
  const result: FormErrors<F> = { fields: {}, general: null };
  if (isHandledError(error)) return result;
  if (!(error instanceof ApiError)) {
    result.general = errorMessage(error, options.fallback);
    return result;
  }
  const known = new Set<string>(options.fields);
  const fieldOf = (path: string): F | undefined => {
    const alias = options.pathAliases?.[path];
    if (alias) return alias;
    return known.has(path) ? (path as F) : undefined;
  };

  const codeField = options.codeFields?.[error.code];
  if (codeField) {
    result.fields[codeField] = errorMessage(error);
    return result;
  }
  if (error.issues?.length) {
    let unmatched: Message | null = null;
    for (const issue of error.issues) {
      const field = fieldOf(issue.path);
      if (field && !result.fields[field]) result.fields[field] = ruleMessage(issue.rule);
      else if (!field) unmatched ??= ruleMessage(issue.rule);
    }
    result.general = unmatched;
    return result;
  }
  result.general = errorMessage(error, options.fallback);
  return result;
}
