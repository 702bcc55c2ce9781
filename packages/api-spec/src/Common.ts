/** Schemas shared by several groups. */
import { Schema } from "effect"

/** ISO-8601 UTC instant on the wire (`2026-11-21T10:00:00.000Z`). */
export const Timestamp = Schema.String.annotations({
  description: "ISO-8601 UTC timestamp",
  examples: ["2026-11-21T10:00:00.000Z"]
})

/** A date-time sent by a client: ISO 8601 with a time zone, or a plain date (midnight UTC). */
export const TimestampInput = Schema.String.pipe(
  Schema.pattern(/^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2}))?$/, {
    message: () => "must be an ISO-8601 date-time with a time zone (2026-11-21T10:00:00Z) or a date (2026-11-21)"
  }),
  Schema.filter((s) => !Number.isNaN(Date.parse(s)) || "must be a real date")
).annotations({ description: "ISO-8601 date-time with a time zone, or a date", examples: ["2026-11-21T10:00:00Z"] })

export const Money = Schema.Struct({
  amount: Schema.Number,
  currency: Schema.String
})

/** A free-form JSON object (the spec's `Payload` bodies). */
export const Payload = Schema.Record({ key: Schema.String, value: Schema.Unknown }).annotations({
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

export const EmailAddress = Schema.String.pipe(
  Schema.trimmed(),
  Schema.maxLength(254),
  Schema.pattern(/^[^\s@]+@[^\s@]+\.[^\s@]+$/, { message: () => "must be an e-mail address" })
).annotations({ description: "An e-mail address", examples: ["ana@example.com"] })

export const Plan = Schema.Literal("trial", "starter", "growth", "scale")
export type Plan = typeof Plan.Type

export const Role = Schema.Literal("owner", "admin", "member")

export const PeriodType = Schema.Literal("day", "week", "month", "quarter")

/** Period query set A of the spec, alone. */
export const PeriodParams = Schema.Struct({
  period_type: Schema.optionalWith(PeriodType.annotations({ default: "week" }), { default: () => "week" as const }),
  period_start: Schema.optional(Schema.String.annotations({ description: "Start of the period; the current one when absent" }))
})

/** `periods`: 1–26, default 8. */
export const Periods = queryInt({ min: 1, max: 26, default: 8, description: "Trailing periods" })

/** `include_test_data`: boolean, default false. */
export const IncludeTestData = queryBoolean(false, "Include tenants and calls marked as test data")

/** Optional `client_id` query filter of the admin operations. */
export const OptionalClientId = Schema.Struct({ client_id: Schema.optional(Schema.String) })

/** Required `client_id` query of the assistant operations. */
export const RequiredClientId = Schema.Struct({ client_id: Schema.String })
