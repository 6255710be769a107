export interface LegalSection {
  heading: string;
  paragraphs: readonly string[];
  items?: readonly string[];
}

export type LegalDocumentKind = 'agreement' | 'service' | 'privacy';

/** One language's user agreement, terms of service and privacy policy. */
export type LegalTexts = Record<LegalDocumentKind, readonly LegalSection[]>;

/** When the texts last changed, shown at the top of each. */
export const LEGAL_UPDATED = Date.UTC(2026, 10, 22);
