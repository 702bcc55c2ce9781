/**
 * Blanking secrets out of a text, in every form a provider (or an HTTP client naming a URL, or a
 * log line quoting a body) may give them back: one function, `redact`, that every message made of
 * an outside answer goes through before it is shown, logged or stored.
 *
 * A secret is found however each of its characters is written, one character at a time, so a
 * secret written half one way and half another is found too:
 * - as itself;
 * - percent-encoded (`encodeURIComponent`, `encodeURI`, RFC 3986 or `application/x-www-form-urlencoded`
 *   by `URLSearchParams`): any character as the `%XX` of its UTF-8 bytes, the hex digits in either
 *   case (`%2B`, `%2b`), and a space also as `+`;
 * - JSON-escaped (`JSON.stringify(s).slice(1, -1)`, and the other serialisers' habits): `\"`, `\\`,
 *   `\/`, `\n` and the like, and any character as `\uXXXX` of its UTF-16 code units (either case);
 *   and escaped twice (JSON inside a JSON string: `\\\"`, `\\u00e9`);
 * - HTML-escaped: `&amp;`, `&lt;`, `&gt;`, `&quot;`, `&#39;` and the numeric references of these five.
 *
 * And as a whole:
 * - base64 and base64url of its UTF-8 bytes: alone (with its last characters and padding), and
 *   inside a longer base64 text such as `Basic base64(user:key)`, where the secret may begin at any
 *   of the 3 byte positions of a base64
 *   group, so it is encoded behind 0, 1 and 2 bytes and only the characters that depend on the
 *   secret's bytes alone are looked for (the edge characters, shared with the bytes around it, are
 *   dropped). One or two characters at each edge may stay: they say at most a few bits.
 * - hex of its UTF-8 bytes (either case).
 *
 * Short secrets: a secret of fewer than `MIN_SECRET_LENGTH` (8) characters is NOT blanked. Blanking
 * `a` or `abc` everywhere would wreck every text it touches (and blank the same letters out of the
 * provider's name, the status, the words of the message), while a secret that short protects
 * nothing anyway: the keys, tokens and passwords this service sends are far longer (providers' keys
 * run to 32 characters and more). Empty, null and undefined entries are skipped.
 *
 * Longer secrets are blanked first, so a secret that contains another one goes whole.
 */
import { Option, Redacted } from "effect"

/** What a secret is replaced with. */
export const REDACTED = "[redacted]"

/** Secrets shorter than this are not blanked (see the module's comment). */
export const MIN_SECRET_LENGTH = 8

export type SecretInput = string | Redacted.Redacted<string> | null | undefined

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\/-]/g, "\\$&")

/** A hex number as a pattern that takes its letters in either case. */
const hexPattern = (value: number, width: number) =>
  value
    .toString(16)
    .padStart(width, "0")
    .replace(/[a-f]/g, (d) => `[${d}${d.toUpperCase()}]`)

const utf8 = (text: string) => new TextEncoder().encode(text)

const JSON_SHORT: Readonly<Record<string, string>> = { "\"": "\"", "\\": "\\", "/": "/", "\b": "b", "\f": "f", "\n": "n", "\r": "r", "\t": "t" }

const HTML_NAMED: Readonly<Record<string, string>> = { "&": "amp", "<": "lt", ">": "gt", "\"": "quot", "'": "(?:apos|#39)" }

/** Every way one character (a code point) may be written, as a pattern. */
const charPattern = (char: string): string => {
  const ways = [escapeRegExp(char)]
  // percent-encoded: the %XX of each UTF-8 byte, either case; a space also as `+` (form encoding)
  ways.push(Array.from(utf8(char), (b) => `%${hexPattern(b, 2)}`).join(""))
  if (char === " ") ways.push("\\+")
  // JSON-escaped: the short escapes, and \uXXXX of each UTF-16 code unit; and escaped twice
  // (JSON in a JSON string: `\\\"`, `\\u00e9`)
  const short = JSON_SHORT[char]
  if (short !== undefined) {
    ways.push(`\\\\${escapeRegExp(short)}`)
    ways.push(escapeRegExp(JSON.stringify(JSON.stringify(char).slice(1, -1)).slice(1, -1)))
  }
  for (const slashes of ["\\\\", "\\\\\\\\"]) {
    const units: Array<string> = []
    for (let i = 0; i < char.length; i++) units.push(`${slashes}u${hexPattern(char.charCodeAt(i), 4)}`)
    ways.push(units.join(""))
  }
  // HTML-escaped
  const named = HTML_NAMED[char]
  if (named !== undefined) {
    const code = char.codePointAt(0)!
    ways.push(`&${named};`, `&#0*${code};`, `&#[xX]0*${hexPattern(code, 1)};`)
  }
  return ways.length === 1 ? ways[0]! : `(?:${ways.join("|")})`
}

const base64Of = (bytes: Uint8Array) => Buffer.from(bytes).toString("base64")

/** The base64 characters that depend on the secret's bytes alone, behind 0, 1 and 2 bytes. */
const base64Cores = (secret: string): Array<string> => {
  const bytes = utf8(secret)
  const cores: Array<string> = []
  for (let shift = 0; shift < 3; shift++) {
    const padded = new Uint8Array(shift + bytes.length)
    padded.set(bytes, shift)
    const encoded = base64Of(padded).replace(/=+$/, "")
    const from = Math.ceil((shift * 8) / 6)
    const to = Math.floor(((shift + bytes.length) * 8) / 6)
    const core = encoded.slice(from, to)
    if (core.length >= 4) cores.push(core)
  }
  return cores
}

/** The pattern that finds one secret in any of its forms. */
const secretPattern = (secret: string): string => {
  const perChar = Array.from(secret, charPattern).join("")
  // the whole base64 of the secret alone first (with its last characters and padding), then the cores
  const whole = new Set<string>([base64Of(utf8(secret)), Buffer.from(utf8(secret)).toString("base64url")])
  for (const core of base64Cores(secret)) {
    whole.add(core)
    whole.add(core.replace(/\+/g, "-").replace(/\//g, "_"))
  }
  const hex = Array.from(utf8(secret), (b) => hexPattern(b, 2)).join("")
  return [perChar, ...Array.from(whole, escapeRegExp), hex].join("|")
}

const cache = new Map<string, RegExp>()

const patternOf = (secret: string): RegExp => {
  let found = cache.get(secret)
  if (found === undefined) {
    found = new RegExp(secretPattern(secret), "g")
    if (cache.size > 256) cache.clear()
    cache.set(secret, found)
  }
  return found
}

/** The secrets as strings, long enough to be blanked, longest first, each once. */
export const secretsOf = (secrets: Iterable<SecretInput>): Array<string> => {
  const out = new Set<string>()
  for (const s of secrets) {
    if (s === null || s === undefined) continue
    const value = typeof s === "string" ? s : Redacted.value(s)
    if (value.length >= MIN_SECRET_LENGTH) out.add(value)
  }
  return [...out].sort((a, b) => b.length - a.length)
}

/** `text` with every secret of `secrets` (in any of its forms, see the module) replaced by `[redacted]`. */
export const redact = (text: string, secrets: Iterable<SecretInput>): string => {
  let result = text
  for (const secret of secretsOf(secrets)) {
    const pattern = patternOf(secret)
    pattern.lastIndex = 0
    result = result.replace(pattern, REDACTED)
  }
  return result
}

/** `text` on one line, blanked of `secrets`, cut to `max` characters: for an upstream's words in a log line. */
export const redactedExcerpt = (text: string, secrets: Iterable<SecretInput>, max = 300): string => {
  const list = secretsOf(secrets)
  // Blanked before it is cut: a cut through a secret would leave a part of it that no longer
  // matches. A long text (an HTML error page) is first cut well beyond `max`, blanked, and the
  // cut's last `tail` characters dropped: a secret cut there (16 characters a character at most,
  // however it is encoded) lay whole within them, and nothing before them moved.
  const tail = 16 * (list[0]?.length ?? 0) + 64
  const long = text.length > max + 2 * tail
  const blanked = long ? redact(text.slice(0, max + 2 * tail), list).slice(0, -tail) : redact(text, list)
  const line = blanked.replace(/\s+/g, " ").trim()
  return line.length > max || long ? `${line.slice(0, max)}…` : line
}

/**
 * Every secret held in a configuration (or any object): the values of its `Redacted` fields, also
 * inside an `Option` and in nested objects, and the password of those that are URLs (a database or
 * SMTP URL). What a second line of defence blanks when it cannot know which secret was used.
 */
export const redactedValuesOf = (value: unknown, depth = 3): Array<string> => {
  const found: Array<string> = []
  const visit = (v: unknown, left: number): void => {
    if (v === null || typeof v !== "object") return
    if (Redacted.isRedacted(v)) {
      const secret = Redacted.value(v as Redacted.Redacted<unknown>)
      if (typeof secret !== "string") return
      found.push(secret)
      try {
        const url = new URL(secret)
        if (url.password !== "") found.push(decodeURIComponent(url.password))
      } catch {
        // not a URL
      }
      return
    }
    if (left <= 0) return
    if (Option.isOption(v)) {
      if (Option.isSome(v)) visit(v.value, left)
      return
    }
    if (Array.isArray(v)) {
      for (const item of v) visit(item, left - 1)
      return
    }
    if (Object.getPrototypeOf(v) !== Object.prototype) return
    for (const item of Object.values(v)) visit(item, left - 1)
  }
  visit(value, depth)
  return found
}
