/**
 * lib/Redact.ts: a secret is blanked out of a text in every form a provider, an HTTP client or a
 * serialiser may give it back: raw, percent-encoded (`encodeURIComponent`, form-encoded with `+`
 * for spaces, either case of hex), JSON-escaped (and `\uXXXX`), HTML-escaped, base64 and base64url
 * (alone, and inside a longer base64 text at each of the 3 byte alignments, as in
 * `Basic base64(user:key)`), hex; secrets shorter than 8 characters are left alone.
 */
import { describe, expect, it } from "@effect/vitest"
import { Option, Redacted } from "effect"
import { MIN_SECRET_LENGTH, REDACTED, redact, redactedExcerpt, redactedValuesOf } from "../src/lib/Redact.js"

const RESERVED = "dg+key/with=reserved&chars%20x"
const SPACED = "key with spaces + plus & amp = eq"
const UNICODE = "clé-sécrète-ключ-🔑-鍵"
const QUOTED = "a\"quoted\\back/slash\nline\ttab"

const b64 = (s: string) => Buffer.from(s, "utf8").toString("base64")
const b64url = (s: string) => Buffer.from(s, "utf8").toString("base64url")
const form = (s: string) => new URLSearchParams({ x: s }).toString().slice(2)
const json = (s: string) => JSON.stringify(s).slice(1, -1)
/** JSON with every non-ASCII character as \uXXXX (Python's json.dumps, PHP's json_encode). */
const asciiJson = (s: string) => json(s).replace(/[^\x00-\x7f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`)

/** Every form the module promises to find, by name. */
const formsOf = (s: string): Record<string, string> => ({
  raw: s,
  encodeURIComponent: encodeURIComponent(s),
  "encodeURIComponent, lower-case hex": encodeURIComponent(s).replace(/%[0-9A-F]{2}/g, (h) => h.toLowerCase()),
  encodeURI: encodeURI(s),
  "form-encoded": form(s),
  "form-encoded, lower-case hex": form(s).replace(/%[0-9A-F]{2}/g, (h) => h.toLowerCase()),
  "JSON-escaped": json(s),
  "JSON-escaped, ASCII only": asciiJson(s),
  "JSON-escaped twice": json(json(s)),
  "HTML-escaped": s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;").replace(/'/g, "&#39;"),
  base64: b64(s),
  base64url: b64url(s),
  hex: Buffer.from(s, "utf8").toString("hex"),
  "HEX": Buffer.from(s, "utf8").toString("hex").toUpperCase()
})

/** Whether any recognisable piece of the secret is left: its raw text, or long runs of its encodings. */
const leaks = (text: string, s: string) =>
  [s, encodeURIComponent(s), form(s), json(s), b64(s).slice(2, -3), b64url(s).slice(2, -3)].some((f) => f.length >= 6 && text.includes(f))

describe("redact", () => {
  for (const secret of [RESERVED, SPACED, UNICODE, QUOTED]) {
    describe(`the secret ${JSON.stringify(secret)}`, () => {
      for (const [name, encoded] of Object.entries(formsOf(secret))) {
        it(`is blanked ${name}`, () => {
          const text = `before ${encoded} after`
          const out = redact(text, [secret])
          expect(out).toBe(`before ${REDACTED} after`)
          expect(leaks(out, secret)).toBe(false)
        })
      }

      it("is blanked in base64 inside a longer base64 text, at each of the 3 byte alignments", () => {
        for (const prefix of ["", "a", "ab", "abc", "user:", "user12:", "x"]) {
          for (const suffix of ["", "!", "!?", "!?#"]) {
            const encoded = b64(`${prefix}${secret}${suffix}`)
            const out = redact(`Authorization: Basic ${encoded}`, [secret])
            expect(out, `${prefix}|${suffix}`).toContain(REDACTED)
            // at most a few characters of the secret's edges stay (2 of the first group, 3 of the last)
            const left = out.replace("Authorization: Basic ", "").replace(REDACTED, "")
            expect(left.length, `${prefix}|${suffix}`).toBeLessThanOrEqual(Math.ceil((prefix.length + suffix.length) * 4 / 3) + 2 + 4 + 2)
            const decodedLeft = Buffer.from(out.split(REDACTED)[0]!.replace("Authorization: Basic ", ""), "base64").toString("utf8")
            expect(decodedLeft.length).toBeLessThanOrEqual(prefix.length + 1)
            // base64url, the same
            const url = redact(Buffer.from(`${prefix}${secret}${suffix}`, "utf8").toString("base64url"), [secret])
            expect(url).toContain(REDACTED)
          }
        }
      })

      it("is blanked wherever it occurs, however many times, and in a text that mixes the forms", () => {
        const forms = Object.values(formsOf(secret))
        const text = forms.map((f, i) => `${i}:${f}`).join(" | ")
        const out = redact(text, [secret])
        expect(out.split(REDACTED).length - 1).toBe(forms.length)
        expect(leaks(out, secret)).toBe(false)
      })
    })
  }

  it("a secret written half raw and half encoded is blanked", () => {
    const half = RESERVED.slice(0, 10) + encodeURIComponent(RESERVED.slice(10))
    expect(redact(`k=${half};`, [RESERVED])).toBe(`k=${REDACTED};`)
  })

  it("a Basic header of user:key is blanked as a whole when the whole is a secret, and the key in it when only the key is", () => {
    const header = `Basic ${b64(`api:${RESERVED}`)}`
    expect(redact(header, [`api:${RESERVED}`])).toMatch(new RegExp(`^Basic ${REDACTED.replace(/[[\]]/g, "\\$&")}.{0,3}$`))
    const out = redact(header, [RESERVED])
    expect(out.startsWith("Basic YXBp")).toBe(true) // "api" stays: it is no secret
    expect(out).toContain(REDACTED)
  })

  it("short secrets (under 8 characters) are left alone: blanking them would wreck the text", () => {
    expect(MIN_SECRET_LENGTH).toBe(8)
    const text = "Deepgram answered with HTTP 401: the key was refused"
    expect(redact(text, ["a", "key", "HTTP", "401", "refused"])).toBe(text)
    expect(redact("x 1234567 y", ["1234567"])).toBe("x 1234567 y")
    expect(redact("x 12345678 y", ["12345678"])).toBe(`x ${REDACTED} y`)
  })

  it("takes Redacted values, skips null, undefined and empty ones, and blanks the longest secret first", () => {
    const long = "sk-live-abcdefgh-0123456789"
    const inner = "abcdefgh-0123"
    expect(redact(`${long} and ${inner}`, [null, undefined, "", Redacted.make(inner), long])).toBe(`${REDACTED} and ${REDACTED}`)
  })

  it("leaves a text without the secret as it is, and the same text blanked twice stays the same", () => {
    const text = "nothing to see: {\"error\":\"Invalid credentials\"} ZGVtbw== %2F"
    expect(redact(text, [RESERVED, UNICODE])).toBe(text)
    const once = redact(`x ${RESERVED} y`, [RESERVED])
    expect(redact(once, [RESERVED])).toBe(once)
  })

  it("redactedExcerpt blanks before it cuts (a cut through the secret would leave a part of it)", () => {
    const text = `${"w".repeat(290)} ${RESERVED} tail`
    const out = redactedExcerpt(text, [RESERVED], 300)
    expect(out).not.toContain(RESERVED.slice(0, 9))
    expect(out.length).toBeLessThanOrEqual(301)
    expect(redactedExcerpt("a\n  b\tc", [])).toBe("a b c")
    // a long text whose whitespace collapses: wherever the secret falls, no part of it comes out
    for (let at = 0; at < 2600; at += 7) {
      const long = `${" ".repeat(at)}${encodeURIComponent(RESERVED)}${" ".repeat(3000)}`
      const excerpt = redactedExcerpt(long, [RESERVED], 300)
      // nothing but the placeholder, or the start of it where the cut falls through it
      expect(REDACTED.startsWith(excerpt.replace("…", "").trim()), excerpt).toBe(true)
    }
  })

  it("redactedValuesOf finds the Redacted values of a configuration, in Options and nested, and the passwords of URLs", () => {
    const config = {
      port: 8080,
      name: "not a secret",
      key: Redacted.make("top-level-secret"),
      optional: Option.some(Redacted.make("optional-secret")),
      absent: Option.none(),
      nested: { clientSecret: Option.some(Redacted.make("nested-secret")), url: "https://example.com" },
      database: Option.some(Redacted.make("postgres://user:p%40ssw0rd-long@db:5432/x"))
    }
    expect(redactedValuesOf(config).sort()).toEqual(
      ["top-level-secret", "optional-secret", "nested-secret", "postgres://user:p%40ssw0rd-long@db:5432/x", "p@ssw0rd-long"].sort()
    )
  })
})
