import nodemailer from 'nodemailer';

export interface EmailMessage {
  to: string;
  subject: string;
  text: string;
}

export interface SmsMessage {
  /** E.164 phone number. */
  to: string;
  text: string;
}

/** Sends one email; rejects when the provider did not accept it. */
export interface EmailProvider {
  send(message: EmailMessage): Promise<void>;
}

/** Sends one SMS; rejects when the provider did not accept it. Add gateways by implementing this. */
export interface SmsProvider {
  send(message: SmsMessage): Promise<void>;
}

const PROVIDER_TIMEOUT_MS = 15_000;

export function smtpEmailProvider(url: string, from: string): EmailProvider {
  const transport = nodemailer.createTransport(url);
  return {
    async send({ to, subject, text }) {
      await transport.sendMail({ from, to, subject, text });
    },
  };
}

/** POSTs `{ to, text }` as JSON; any non-2xx answer is a failure. */
export function webhookSmsProvider(url: string, fetchImpl: typeof fetch = fetch): SmsProvider {
  return {
    async send({ to, text }) {
      const response = await fetchImpl(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ to, text }),
        signal: AbortSignal.timeout(PROVIDER_TIMEOUT_MS),
      });
      if (!response.ok) throw new Error(`SMS webhook answered ${response.status}`);
    },
  };
}
