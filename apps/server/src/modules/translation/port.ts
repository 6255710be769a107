import type { Db } from '../../db/schema.js';

/**
 * What other modules change of the translations table, handed out by the translation
 * module that owns it.
 */

/**
 * Forgets a message's translations, made of words it no longer has (it was edited), in
 * the editing transaction.
 */
export async function forgetTranslations(db: Db, messageId: string): Promise<void> {
  await db.deleteFrom('translations').where('message_id', '=', messageId).execute();
}
