import { toFieldIssues, VERIFICATION_CODE_LENGTH } from '@teltlk/protocol';
import { ruleMessage, type Message } from './error-message';

type ZodErrorLike = Parameters<typeof toFieldIssues>[0];

/** Any protocol schema: the client checks with the very rules the server applies. */
export interface Checkable {
  safeParse(value: unknown): { success: true } | { success: false; error: ZodErrorLike };
}

/** The first rule a value breaks, as a message, or null when it passes. */
export function checkField(schema: Checkable, value: unknown): Message | null {
  const result = schema.safeParse(value);
  if (result.success) return null;
  const [first] = toFieldIssues(result.error);
  return ruleMessage(first?.rule ?? 'invalid');
}

/** Checks a new password and its confirmation. */
export function checkPasswordPair(
  schema: Checkable,
  password: string,
  confirmation: string,
): { password: Message | null; confirmation: Message | null } {
  const passwordError = checkField(schema, password);
  const confirmationError: Message | null =
    confirmation.length === 0
      ? { key: 'rule.required' }
      : confirmation !== password
        ? { key: 'form.passwordMismatch' }
        : null;
  return { password: passwordError, confirmation: confirmationError };
}

/** Keeps only the errors that are set, so a form knows whether it may submit. */
export function hasErrors(errors: Record<string, Message | null | undefined>): boolean {
  return Object.values(errors).some((value) => value != null);
}

/** Keeps the digits of whatever was typed or pasted, up to the code length. */
export function normaliseCode(raw: string): string {
  return raw.replace(/\D/g, '').slice(0, VERIFICATION_CODE_LENGTH);
}
