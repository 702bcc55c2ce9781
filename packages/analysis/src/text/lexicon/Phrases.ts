/**
 * The pattern builder of the lexicon: phrases as whole words of the plain text (`Tokens.ts`). Every
 * module of cues writes its patterns with it.
 */

/** A pattern matching any of the phrases as whole words (each phrase may use regex syntax). */
export const phrases = (...list: ReadonlyArray<string>): RegExp => new RegExp(`(?:^|\\s)(?:${list.join("|")})(?=\\s|$)`)
