/** Schemas shared by several groups. */
import { Schema } from "effect"

// A NUL anywhere, or a UTF-16 surrogate without its partner.
const UNSAFE_TEXT = /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/

/** Whether a string is text the service can keep: no NUL character, no unpaired surrogate. */
export const isSafeText = (s: string): boolean => !UNSAFE_TEXT.test(s)

/**
 * Text sent by a client: any string but one with a NUL character (PostgreSQL cannot store it) or
 * an unpaired UTF-16 surrogate (not text: it cannot be encoded as UTF-8). Every string a request
 * carries, in its path, query, headers or body, is this.
 */
export const Text = Schema.String.pipe(
  Schema.filter((s) => isSafeText(s) || "must not contain a NUL character or an unpaired surrogate", {
    jsonSchema: {}
  })
)

/** Text with no space at either end and at least one character. */
export const NonEmptyTrimmedText = Text.pipe(Schema.trimmed(), Schema.nonEmptyString())

/** Ids are text branded by what they identify, so one kind cannot be passed for another. */
export const ClientId = Text.pipe(Schema.brand("ClientId")).annotations({ description: "A tenant's id (`cli_…`)" })
export type ClientId = typeof ClientId.Type
export const UserId = Text.pipe(Schema.brand("UserId")).annotations({ description: "A portal user's id (`usr_…`)" })
export type UserId = typeof UserId.Type
export const CallId = Text.pipe(Schema.brand("CallId")).annotations({ description: "An analysis call's id (`call_…`)" })
export type CallId = typeof CallId.Type
export const CloserId = Text.pipe(Schema.brand("CloserId")).annotations({ description: "A closer's id (`clo_…`)" })
export type CloserId = typeof CloserId.Type
export const KeyId = Text.pipe(Schema.brand("KeyId")).annotations({ description: "A tenant API key's id (`key_…`)" })
export type KeyId = typeof KeyId.Type

/** ISO-8601 UTC instant on the wire (`2026-11-21T10:00:00.000Z`). */
export const Timestamp = Schema.String.annotations({
  description: "ISO-8601 UTC timestamp",
  examples: ["2026-11-21T10:00:00.000Z"]
})

/**
 * The date part names a day of the calendar and the whole parses: `Date.parse` alone takes
 * 2026-02-30 as March 2.
 */
const realDate = (s: string) => {
  const [year, month, day] = s.slice(0, 10).split("-").map(Number) as [number, number, number]
  const date = new Date(Date.UTC(year, month - 1, day))
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day &&
    !Number.isNaN(Date.parse(s))
}

/** A date-time sent by a client: ISO 8601 with a time zone, or a plain date (midnight UTC). */
export const TimestampInput = Text.pipe(
  Schema.pattern(/^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2}))?$/, {
    message: () => "must be an ISO-8601 date-time with a time zone (2026-11-21T10:00:00Z) or a date (2026-11-21)"
  }),
  Schema.filter((s) => realDate(s) || "must be a real date")
).annotations({ description: "ISO-8601 date-time with a time zone, or a date", examples: ["2026-11-21T10:00:00Z"] })

export const Money = Schema.Struct({
  amount: Schema.Number,
  currency: Schema.String
})

/**
 * A record whose keys are text, checked by the record itself: a refined key schema would turn the
 * OpenAPI document's `additionalProperties` into `patternProperties`, which generators do not follow.
 */
export const TextRecord = <V extends Schema.Schema.All, K extends Schema.Schema<string, string, never> = typeof Schema.String>(
  value: V,
  key: K = Schema.String as unknown as K
) =>
  Schema.Record({ key, value }).pipe(
    Schema.filter((record) => Object.keys(record).every(isSafeText) || "its keys must not contain a NUL character or an unpaired surrogate", {
      jsonSchema: {}
    })
  )

/** Whether every string of a JSON value, keys included, is safe text. */
const isSafeJson = (value: unknown): boolean =>
  typeof value === "string"
    ? isSafeText(value)
    : Array.isArray(value)
    ? value.every(isSafeJson)
    : typeof value === "object" && value !== null
    ? Object.entries(value).every(([key, v]) => isSafeText(key) && isSafeJson(v))
    : true

/** A free-form JSON object (the spec's `Payload` bodies). */
export const Payload = Schema.Record({ key: Schema.String, value: Schema.Unknown }).pipe(
  Schema.filter((payload) => isSafeJson(payload) || "must not contain a NUL character or an unpaired surrogate", { jsonSchema: {} })
).annotations({
  title: "Payload",
  description: "A free-form JSON object"
})

/** Query integer from the URL (`?limit=20`). */
export const IntFromString = Schema.NumberFromString.pipe(Schema.int())

/**
 * An optional integer query parameter with bounds and a default. On the wire it is a string,
 * so the OpenAPI document is told the integer it stands for.
 */
export const queryInt = (options: {
  readonly min: number
  readonly max: number
  readonly default: number
  readonly description?: string
}) =>
  Schema.optionalWith(
    IntFromString.pipe(Schema.between(options.min, options.max)).annotations({
      jsonSchema: {
        type: "integer",
        minimum: options.min,
        maximum: options.max,
        default: options.default,
        ...(options.description === undefined ? {} : { description: options.description })
      }
    }),
    { default: () => options.default }
  )

/** An optional boolean query parameter (`true` / `false`) with a default. */
export const queryBoolean = (defaultValue: boolean, description?: string) =>
  Schema.optionalWith(
    Schema.BooleanFromString.annotations({
      jsonSchema: { type: "boolean", default: defaultValue, ...(description === undefined ? {} : { description }) }
    }),
    { default: () => defaultValue }
  )

export const EmailAddress = Text.pipe(
  Schema.trimmed(),
  Schema.maxLength(254),
  Schema.pattern(/^[^\s@]+@[^\s@]+\.[^\s@]+$/, { message: () => "must be an e-mail address" })
).annotations({ description: "An e-mail address", examples: ["ana@example.com"] })

export const Plan = Schema.Literal("trial", "starter", "growth", "scale")
export type Plan = typeof Plan.Type

export const Role = Schema.Literal("owner", "admin", "member")

export const PeriodType = Schema.Literal("day", "week", "month", "quarter")
export type PeriodType = typeof PeriodType.Type

/** Whether `YYYY-MM-DD` names a day of the calendar (not 2026-02-30). */
const isCalendarDay = (day: string): boolean => {
  const [y, m, d] = day.split("-").map(Number) as [number, number, number]
  const date = new Date(Date.UTC(y, m - 1, d))
  return date.getUTCFullYear() === y && date.getUTCMonth() === m - 1 && date.getUTCDate() === d
}

/**
 * `period_start`: any day inside the period, `YYYY-MM-DD` (UTC), or an ISO-8601 date-time with a
 * zone (its UTC day); the service normalises it to the period's first day. Empty (the spec makes
 * it nullable) or absent: the current period.
 */
export const PeriodStart = Text.pipe(
  Schema.pattern(/^(\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2}))?)?$/, {
    message: () => "must be a day as YYYY-MM-DD (any day inside the period), or an ISO-8601 date-time with a time zone"
  }),
  Schema.filter((s) => s === "" || (isCalendarDay(s.slice(0, 10)) && !Number.isNaN(Date.parse(s))) || "must be a real calendar day")
).annotations({
  description: "Any day inside the period (YYYY-MM-DD, UTC); normalised to the period's first day. Absent or empty: the current period",
  examples: ["2026-11-21"]
})

/** Period query set A of the spec, alone. */
export const PeriodParams = Schema.Struct({
  period_type: Schema.optionalWith(PeriodType.annotations({ default: "week" }), { default: () => "week" as const }),
  period_start: Schema.optional(PeriodStart)
})

/** `periods`: 1–26, default 8. */
export const Periods = queryInt({ min: 1, max: 26, default: 8, description: "Trailing periods" })

/** `include_test_data`: boolean, default false. */
export const IncludeTestData = queryBoolean(false, "Include tenants and calls marked as test data")

/** Optional `client_id` query filter of the admin operations. */
export const OptionalClientId = Schema.Struct({ client_id: Schema.optional(ClientId) })

/** Required `client_id` query of the assistant operations. */
export const RequiredClientId = Schema.Struct({ client_id: ClientId })

/**
 * A JSON request body that refuses fields it does not declare, at any depth (422), as the OpenAPI
 * document's `additionalProperties: false` says. The platform (0.97) decodes payloads with the
 * default parse options, which drop such fields; a `parseOptions` annotation applies to the schema
 * it is on and everything inside. It sits on an identity transformation around the body, because
 * annotating the body itself would drop its identifier and inline it in the OpenAPI document.
 */
export const strictBody = <A, I, R>(schema: Schema.Schema<A, I, R>) =>
  Schema.transform(schema, Schema.typeSchema(schema), { strict: true, decode: (a) => a, encode: (a) => a }).annotations({
    parseOptions: { onExcessProperty: "error" }
  })
