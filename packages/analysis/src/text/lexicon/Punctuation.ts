/**
 * The end punctuation of a provider word: the helper that sentence and clause ends (`Tokens.ts`)
 * and questions (`Questions.ts`) share.
 */

/** Whether a provider word ends in one of `chars`, once closing quotes and brackets are set aside. */
export const ends = (raw: string, chars: RegExp) => chars.test(raw.replace(/["'”’)\]]+$/, ""))
