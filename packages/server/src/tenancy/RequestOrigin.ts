/**
 * Where a request comes from: the client's address and user agent, for audit rows, sessions and
 * rate limits. The socket's address by default; behind a proxy the service trusts
 * (`TRUST_PROXY=true`), the first address of `X-Forwarded-For`. Never trust that header without
 * a proxy that sets it: anyone could name any address and slip past the per-address limit.
 */
import { HttpServerRequest } from "@effect/platform"
import { Effect, Option } from "effect"
import { AppConfig } from "../config.js"

export interface Origin {
  readonly ip: string | null
  readonly userAgent: string | null
}

/** `::ffff:127.0.0.1` (an IPv4 client on a dual-stack socket) → `127.0.0.1`. */
const normalize = (address: string): string => address.trim().replace(/^::ffff:(\d+\.\d+\.\d+\.\d+)$/, "$1")

export class RequestOrigin extends Effect.Service<RequestOrigin>()("RequestOrigin", {
  effect: Effect.gen(function* () {
    const config = yield* AppConfig
    const current: Effect.Effect<Origin, never, HttpServerRequest.HttpServerRequest> = Effect.map(
      HttpServerRequest.HttpServerRequest,
      (request) => {
        const forwarded = config.trustProxy ? request.headers["x-forwarded-for"]?.split(",")[0]?.trim() : undefined
        const address = forwarded !== undefined && forwarded !== "" ? forwarded : Option.getOrUndefined(request.remoteAddress)
        return {
          ip: address === undefined ? null : normalize(address),
          userAgent: request.headers["user-agent"]?.slice(0, 500) ?? null
        }
      }
    )
    return { current } as const
  })
}) {}
