/**
 * lib/WireJson.ts: an answer written as it is, only for a schema whose type is its encoded form.
 * The compile-time guard is checked by the type-check of this file (`@ts-expect-error` fails the
 * build when the line below it compiles).
 */
import { describe, expect, it } from "@effect/vitest"
import { HttpServerResponse } from "@effect/platform"
import { Schema } from "effect"
import { wireJson } from "../src/lib/WireJson.js"

const Id = Schema.String.pipe(Schema.brand("Id"))
const Answer = Schema.Struct({ ids: Schema.Array(Id), n: Schema.Number, at: Schema.NullOr(Schema.String) })

describe("wireJson", () => {
  it("writes the value as JSON, 200, application/json", () => {
    const value = { ids: [Id.make("a"), Id.make("b")], n: 2, at: null }
    const response = wireJson(Answer, value)
    expect(response.status).toBe(200)
    expect(response.body._tag).toBe("Uint8Array")
    const body = response.body as HttpServerResponse.HttpServerResponse["body"] & { readonly body: Uint8Array; readonly contentType: string }
    expect(body.contentType).toBe("application/json")
    expect(JSON.parse(new TextDecoder().decode(body.body))).toEqual(value)
  })

  it("does not take a schema that changes a value on the wire", () => {
    const Dated = Schema.Struct({ at: Schema.Date })
    const Counted = Schema.Struct({ n: Schema.NumberFromString })
    const Renamed = Schema.Struct({ n: Schema.propertySignature(Schema.Number).pipe(Schema.fromKey("count")) })
    // @ts-expect-error a Date is written as a string: the schema must encode it
    expect(() => wireJson(Dated, { at: new Date(0) })).not.toThrow()
    // @ts-expect-error a number from a string
    expect(() => wireJson(Counted, { n: 1 })).not.toThrow()
    // @ts-expect-error a key renamed on the wire
    expect(() => wireJson(Renamed, { n: 1 })).not.toThrow()
  })
})
