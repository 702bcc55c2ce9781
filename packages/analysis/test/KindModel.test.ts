/**
 * The objection kind model (issue 14, callsight-1.21): its committed weights are exactly what the
 * train part of the evaluation gives (training is deterministic, and reads no test call); it names
 * what plain push-back is about, lines written here and in no call of the evaluation; and the
 * rules' kind decides where the words say little.
 */
import { describe, expect, it } from "@effect/vitest"
import { readFileSync } from "node:fs"
import { trainKindModel } from "../../../eval/train-kinds.js"
import { trainIds } from "../../../eval/turn-model.js"
import { KIND_MODEL, objectionKindOf } from "../src/models/KindModel.js"
import { plain } from "../src/text/lexicon/Tokens.js"

const said = (text: string) => text.split(/(?<=[.?!])\s+/).map((s) => ({ plain: plain(s), question: s.endsWith("?") }))

describe("the objection kind model", () => {
  it("is what the train part gives, and the train part holds no test call", () => {
    const split = JSON.parse(readFileSync(new URL("../../../eval/split.json", import.meta.url), "utf8")) as { test: Array<string> }
    const ids = trainIds()
    expect(ids.filter((id) => split.test.includes(id))).toEqual([])
    expect(trainKindModel(ids)).toEqual(KIND_MODEL)
    expect(KIND_MODEL.classes).toEqual(["price", "budget", "timing", "authority", "need", "competitor"])
  }, 60_000)

  it.each([
    ["Honestly, that's more than we pay for the whole phone system.", "price"],
    ["There's nothing left in this year's budget for it.", "budget"],
    ["Ring me again after the summer, we're flat out until September.", "timing"],
    ["I can't commit to anything until our managing director has seen it.", "authority"],
    ["I'm not convinced my drivers would ever use it, to be honest.", "need"],
    ["We've had a quote from another supplier, and they're about a third cheaper.", "competitor"]
  ] as const)("reads the kind of %s → %s, with no rules' kind", (line, kind) => {
    expect(objectionKindOf(said(line), null)).toBe(kind)
  })

  it("takes the rules' kind where the words say little, not where they say something else", () => {
    // alone, the model reads a bare "Not this year." by the words it shares with budget objections
    expect(objectionKindOf(said("Not this year."), null)).toBe("budget")
    expect(objectionKindOf(said("Not this year."), "timing")).toBe("timing")
    // no annotated call gave a security review a kind, so the words say little: the rules' need stands
    const security = said("Our security policy says customer data can't leave the country.")
    expect(objectionKindOf(security, "need")).toBe("need")
    // a quote from another supplier is about the competitor, whatever price phrase the rules heard in it
    expect(objectionKindOf(said("We've had a quote from another supplier, and they're about a third cheaper."), "price")).toBe("competitor")
  })
})
