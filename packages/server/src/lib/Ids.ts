/** Identifiers and secrets: readable prefixes (docs/domain.md), random bodies, SHA-256 for storage. */
import { createHash, randomBytes, timingSafeEqual } from "node:crypto"

/** `cli_3f9c0a…`: a prefix that says what it is, 80 random bits. */
export const newId = (prefix: string): string => `${prefix}_${randomBytes(10).toString("hex")}`

/** A secret of 32 random bytes, e.g. an API key `csk_…`. */
export const newSecret = (prefix: string): string => `${prefix}_${randomBytes(32).toString("base64url")}`

/** What is shown of a secret after it was created: its first 12 characters. */
export const secretPrefix = (secret: string): string => secret.slice(0, 12)

export const sha256Hex = (value: string): string => createHash("sha256").update(value).digest("hex")

/** Compares two hex digests in constant time. */
export const digestsEqual = (a: string, b: string): boolean =>
  a.length === b.length && timingSafeEqual(Buffer.from(a, "hex"), Buffer.from(b, "hex"))
