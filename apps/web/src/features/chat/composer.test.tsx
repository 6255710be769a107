import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it, vi } from 'vitest';
import { Composer } from './composer';

// The @ list loads group members; no group here. The sticker panel loads favourites.
vi.mock('./mention-picker', () => ({ MentionPicker: () => null }));
vi.mock('./faces', () => ({ FacePanel: () => null }));

function render(draft: string): string {
  return renderToStaticMarkup(
    <Composer
      initialDraft={draft}
      onDraft={() => {}}
      onTyping={() => {}}
      onSend={() => true}
      reply={null}
      onCancelReply={() => {}}
      focusRequest={0}
    />,
  );
}

/** The text box's start tag and its text. */
const textbox = (html: string) => /<textarea([^>]*)>([^<]*)<\/textarea>/.exec(html);

describe('Composer length limit', () => {
  it('shows no counter for an ordinary message, and lets the text set its direction', () => {
    const html = render('مرحبا');
    expect(html).not.toContain('/ 5,000');
    expect(textbox(html)?.[1]).toContain('dir="auto"');
  });

  it('counts near the limit, described to screen readers', () => {
    const html = render('a'.repeat(4812));
    expect(html).toContain('<span aria-hidden="true">4,812 / 5,000</span>');
    expect(html).toContain('4,812 of 5,000 characters');
    expect(html).not.toContain('tt-composer-over');
    const describedBy = /aria-describedby="([^"]+)"/.exec(textbox(html)![1]!)![1];
    expect(html).toContain(`id="${describedBy}" class="tt-composer-length" aria-live="polite"`);
  });

  it('keeps a draft over the limit whole and says why it cannot be sent', () => {
    const draft = 'a'.repeat(5231);
    const html = render(draft);
    const [, attributes, value] = textbox(html)!;
    expect(value).toBe(draft);
    expect(attributes).not.toMatch(/maxlength/i);
    expect(attributes).toContain('aria-invalid="true"');
    expect(html).toContain('class="tt-composer-count tt-composer-over"');
    expect(html).toContain('Messages can be at most 5,000 characters. This one has 5,231.');
  });
});

describe('Composer while editing', () => {
  it('says so above the box, with the words being changed and a way out', () => {
    const html = renderToStaticMarkup(
      <Composer
        initialDraft="a draft"
        onDraft={() => {}}
        onTyping={() => {}}
        onSend={() => true}
        reply={null}
        onCancelReply={() => {}}
        editing={{ seq: 3, text: 'Lunch at noon?' }}
        onCancelEdit={() => {}}
        focusRequest={0}
      />,
    );
    expect(html).toContain('<strong>Edit message</strong>');
    expect(html).toContain('Lunch at noon?');
    expect(html).toContain('aria-label="Cancel editing"');
  });
});

describe('Composer row', () => {
  function row(draft: string, props: Partial<Parameters<typeof Composer>[0]> = {}): string {
    return renderToStaticMarkup(
      <Composer
        initialDraft={draft}
        onDraft={() => {}}
        onTyping={() => {}}
        onSend={() => true}
        reply={null}
        onCancelReply={() => {}}
        focusRequest={0}
        shareKinds={['voice', 'image', 'location']}
        onVoice={() => {}}
        translationPreview={{ to: 'es', pickLanguage: false, from: 'en', source: 'server' }}
        {...props}
      />,
    );
  }
  /** The buttons of the row (the form), by their names, in order. */
  const rowButtons = (html: string) =>
    [...(/<form[^>]*>(.*)<\/form>/.exec(html)?.[1] ?? '').matchAll(/aria-label="([^"]+)"/g)].map(
      (match) => match[1],
    );

  it('offers the microphone while the field is empty, beside "+" and the emoji button', () => {
    const html = row('');
    expect(rowButtons(html)).toEqual(['More to send', 'Message', 'Emoji', 'Send a voice message']);
    expect(html).not.toContain('type="submit"');
  });

  it('turns the microphone into Send once there is text, blank space not counting', () => {
    expect(rowButtons(row('Hi Li Hua!'))).toEqual(['More to send', 'Message', 'Emoji', 'Send']);
    expect(row('Hi Li Hua!')).toMatch(/<button type="submit"[^>]*aria-label="Send"/);
    expect(rowButtons(row('   '))).toContain('Send a voice message');
  });

  it('keeps Send where no voice may be sent, and while editing', () => {
    expect(rowButtons(row('', { shareKinds: ['image'], onVoice: undefined }))).toContain('Send');
    const editing = row('', { editing: { seq: 3, text: '' } });
    expect(rowButtons(editing)).toContain('Send');
    expect(rowButtons(editing)).not.toContain('Send a voice message');
  });

  it('folds the translation preview into the "+" panel, as a switch', () => {
    const html = row('');
    expect(rowButtons(html)).not.toContain('Preview translation');
    const panelId = /aria-label="More to send" aria-expanded="false" aria-controls="([^"]+)"/.exec(
      html,
    )![1];
    const panel = new RegExp(
      `<div id="${panelId}" class="tt-share-panel" hidden="">(.*?)</div>`,
    ).exec(html)![1];
    expect(panel).toMatch(
      /<button type="button" class="tt-share-option" aria-pressed="false">.*Preview translation<\/button>/,
    );
    expect(panel).toContain('Photo');
    expect(panel).toContain('Location');
  });
});
