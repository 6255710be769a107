import type { ConversationView } from '@teltlk/im-sdk';
import { usePageTexts } from '../../i18n/pages';
import { useMe } from '../../api/queries';
import { paths, withQuery } from '../../app/paths';
import { LinkRow } from '../list-row';
import { translationSummary } from './translation-view';

/** The "Translation" row of chat and group settings: off, or the language, opening `tongue`. */
export function TranslationSettingRow({ view }: { view: ConversationView }) {
  const { t } = usePageTexts();
  const me = useMe();
  return (
    <li>
      <LinkRow
        to={withQuery(paths.tongue, { conversationId: view.id })}
        label={t('translation.title')}
        value={translationSummary(view, me.data?.motherTongue ?? null, t('chat.off')) ?? undefined}
      />
    </li>
  );
}
