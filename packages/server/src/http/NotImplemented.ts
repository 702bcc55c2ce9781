/**
 * Operations declared in api-spec whose issue has not landed answer 501 with the typed
 * `NotImplemented` error, never a made-up answer. The README lists them.
 */
import { CallsightApi, NotImplemented } from "@callsight/api-spec"
import { type HttpApi, HttpApiBuilder, type HttpApiEndpoint, HttpApiGroup } from "@effect/platform"
import { Chunk, Effect, type Layer } from "effect"

type Groups = typeof CallsightApi extends HttpApi.HttpApi<any, infer G extends HttpApiGroup.HttpApiGroup.Any, any, any> ? G
  : never
type GroupName = HttpApiGroup.HttpApiGroup.Name<Groups>

/** The handler of one unbuilt operation. */
export const notImplemented = (operation: string) => () =>
  Effect.fail(new NotImplemented({ operation, message: `${operation} is not implemented yet` }))

/**
 * Handles, with `notImplemented`, every endpoint of a group's handlers not handled yet. The
 * handlers keep the handled endpoints in a chunk; the types cannot follow the loop, hence `any`.
 */
export const rest = <E, P, R, Endpoints extends HttpApiEndpoint.HttpApiEndpoint.Any>(
  handlers: HttpApiBuilder.Handlers<E, P, R, Endpoints>
): HttpApiBuilder.Handlers<E, P, R, never> => {
  const h = handlers as any
  const handled = new Set(Chunk.toReadonlyArray(h.handlers).map((item: any) => item.endpoint.name))
  let all = h
  for (const endpoint of Object.values(h.group.endpoints) as Array<HttpApiEndpoint.HttpApiEndpoint.AnyWithProps>) {
    if (!handled.has(endpoint.name)) all = all.handle(endpoint.name, notImplemented(`${endpoint.method} ${endpoint.path}`))
  }
  return all
}

/** A group none of whose operations is built yet: every one answers 501. */
export const unbuiltGroup = <const Name extends GroupName>(
  name: Name
): Layer.Layer<HttpApiGroup.ApiGroup<"callsight", Name>> =>
  HttpApiBuilder.group(CallsightApi, name, (handlers) => rest(handlers as any) as any) as Layer.Layer<
    HttpApiGroup.ApiGroup<"callsight", Name>
  >
