/**
 * Operations declared but not built yet answer 501 with the typed `NotImplemented` error, never a
 * made-up answer. Which ones is `Pending` in api-spec, one list per group; `handlePending` gives
 * a group's handlers the 501 handler of each listed operation, and the compiler then asks for
 * the handlers of the others.
 */
import { NotImplemented } from "@callsight/api-spec"
import type { HttpApiBuilder, HttpApiEndpoint } from "@effect/platform"
import { Effect } from "effect"

/** The handler of one operation not built yet. */
const notImplemented = (endpoint: HttpApiEndpoint.HttpApiEndpoint.AnyWithProps) => {
  const operation = `${endpoint.method} ${endpoint.path.replace(/:(\w+)/g, "{$1}")}`
  return () => Effect.fail(new NotImplemented({ operation, message: `${operation} is not implemented yet` }))
}

/** The group's handlers with the listed operations answering 501; the others are left to handle. */
export const handlePending = <
  E,
  P,
  R,
  Endpoints extends HttpApiEndpoint.HttpApiEndpoint.Any,
  const Names extends ReadonlyArray<HttpApiEndpoint.HttpApiEndpoint.Name<Endpoints>>
>(
  handlers: HttpApiBuilder.Handlers<E, P, R, Endpoints>,
  names: Names
): HttpApiBuilder.Handlers<E, P, R, HttpApiEndpoint.HttpApiEndpoint.ExcludeName<Endpoints, Names[number]>> => {
  const endpoints = handlers.group.endpoints as Record<string, HttpApiEndpoint.HttpApiEndpoint.AnyWithProps>
  // `handle` narrows the type one name at a time; a loop over a list cannot follow it.
  type Loose = { readonly handle: (name: string, handler: () => Effect.Effect<never, NotImplemented>) => Loose }
  let out = handlers as unknown as Loose
  for (const name of names) out = out.handle(name, notImplemented(endpoints[name]!))
  return out as unknown as HttpApiBuilder.Handlers<E, P, R, HttpApiEndpoint.HttpApiEndpoint.ExcludeName<Endpoints, Names[number]>>
}
