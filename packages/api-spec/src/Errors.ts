/**
 * Typed errors of the interface. Each carries its HTTP status, so the server
 * encodes it and the client decodes it back into the same class.
 */
import { type HttpApi, type HttpApiGroup, HttpApiSchema } from "@effect/platform"
import { Schema } from "effect"

export class Unauthorized extends Schema.TaggedError<Unauthorized>()(
  "Unauthorized",
  { message: Schema.String },
  HttpApiSchema.annotations({ status: 401, description: "Missing or invalid credentials" })
) {}

export class Forbidden extends Schema.TaggedError<Forbidden>()(
  "Forbidden",
  { message: Schema.String },
  HttpApiSchema.annotations({ status: 403, description: "Valid credentials without the right to this operation" })
) {}

export class NotFound extends Schema.TaggedError<NotFound>()(
  "NotFound",
  { message: Schema.String },
  HttpApiSchema.annotations({ status: 404, description: "No such resource for this caller" })
) {}

export class Conflict extends Schema.TaggedError<Conflict>()(
  "Conflict",
  { message: Schema.String },
  HttpApiSchema.annotations({ status: 409, description: "The request conflicts with the resource's state" })
) {}

/** The resource was here and is gone for good (a call's recording removed by the retention policy). */
export class Gone extends Schema.TaggedError<Gone>()(
  "Gone",
  { message: Schema.String },
  HttpApiSchema.annotations({ status: 410, description: "The resource was removed for good" })
) {}

/**
 * A `Range` the resource cannot satisfy (it starts past the end): the answer's `Content-Range`
 * gives the whole size (`bytes`, an asterisk, a slash and the size), so the client can ask again.
 */
export class RangeNotSatisfiable extends Schema.TaggedError<RangeNotSatisfiable>()(
  "RangeNotSatisfiable",
  { message: Schema.String },
  HttpApiSchema.annotations({ status: 416, description: "The Range starts past the end; `Content-Range: bytes */<size>` says the size" })
) {}

export class PaymentRequired extends Schema.TaggedError<PaymentRequired>()(
  "PaymentRequired",
  { message: Schema.String },
  HttpApiSchema.annotations({ status: 402, description: "No credit or monthly ingest left" })
) {}

export class PayloadTooLarge extends Schema.TaggedError<PayloadTooLarge>()(
  "PayloadTooLarge",
  { message: Schema.String },
  HttpApiSchema.annotations({ status: 413, description: "The upload is over the size limit" })
) {}

export class UnsupportedMediaType extends Schema.TaggedError<UnsupportedMediaType>()(
  "UnsupportedMediaType",
  { message: Schema.String },
  HttpApiSchema.annotations({ status: 415, description: "The file is not in a supported format" })
) {}

/** One validation problem: where (`["query", "limit"]`), what, and its kind. */
export const ValidationIssue = Schema.Struct({
  loc: Schema.Array(Schema.Union(Schema.String, Schema.Number)),
  msg: Schema.String,
  type: Schema.String
})
export type ValidationIssue = typeof ValidationIssue.Type

export class ValidationFailed extends Schema.TaggedError<ValidationFailed>()(
  "ValidationFailed",
  { detail: Schema.Array(ValidationIssue) },
  HttpApiSchema.annotations({ status: 422, description: "The request failed validation" })
) {}

export class TooManyRequests extends Schema.TaggedError<TooManyRequests>()(
  "TooManyRequests",
  { message: Schema.String, retry_after_s: Schema.Number },
  HttpApiSchema.annotations({ status: 429, description: "Rate limited; retry after `Retry-After` seconds" })
) {}

export class InternalError extends Schema.TaggedError<InternalError>()(
  "InternalError",
  { message: Schema.String, trace_id: Schema.String },
  HttpApiSchema.annotations({ status: 500, description: "An unexpected failure; the trace id finds it in the logs" })
) {}

export class NotImplemented extends Schema.TaggedError<NotImplemented>()(
  "NotImplemented",
  { message: Schema.String, operation: Schema.String },
  HttpApiSchema.annotations({ status: 501, description: "This operation is declared but not built yet" })
) {}

export class ServiceUnavailable extends Schema.TaggedError<ServiceUnavailable>()(
  "ServiceUnavailable",
  { message: Schema.String },
  HttpApiSchema.annotations({ status: 503, description: "A dependency (the database) is unavailable" })
) {}

/**
 * The errors any operation may answer, declared on the whole API: on `CallsightApi` (Api.ts) and
 * on an API of some of its groups, which the CLI derives its clients from so that a command loads
 * the declarations of its own operations only (packages/cli, "The CLI's start").
 */
export const withApiErrors = <Id extends string, Groups extends HttpApiGroup.HttpApiGroup.Any, E, R>(
  api: HttpApi.HttpApi<Id, Groups, E, R>
) =>
  api
    .addError(ValidationFailed)
    .addError(InternalError)
    // declared on the whole API so the client knows it; the document shows it only where pending
    .addError(NotImplemented)
