/**
 * Operations declared in api-spec whose issue has not landed answer 501 with the typed
 * `NotImplemented` error, never a made-up answer. The README lists them.
 */
import { CallsightApi, NotImplemented } from "@callsight/api-spec"
import { type HttpApi, HttpApiBuilder, HttpApiGroup } from "@effect/platform"
import { Effect, type Layer } from "effect"

type Groups = typeof CallsightApi extends HttpApi.HttpApi<any, infer G extends HttpApiGroup.HttpApiGroup.Any, any, any> ? G
  : never
type GroupName = HttpApiGroup.HttpApiGroup.Name<Groups>

/** The handler of one unbuilt operation. */
export const notImplemented = (operation: string) => () =>
  Effect.fail(new NotImplemented({ operation, message: `${operation} is not implemented yet` }))

/** A group none of whose operations is built yet: every one answers 501. */
export const unbuiltGroup = <const Name extends GroupName>(
  name: Name
): Layer.Layer<HttpApiGroup.ApiGroup<"callsight", Name>> =>
  // The loop below handles every endpoint of the group, which the types cannot follow.
  HttpApiBuilder.group(CallsightApi, name, (handlers) => {
    const group = (CallsightApi as any).groups[name] as HttpApiGroup.HttpApiGroup.AnyWithProps
    let all: any = handlers
    for (const endpoint of Object.values(group.endpoints)) {
      all = all.handle(endpoint.name, notImplemented(`${endpoint.method} ${endpoint.path}`))
    }
    return all
  }) as Layer.Layer<HttpApiGroup.ApiGroup<"callsight", Name>>
