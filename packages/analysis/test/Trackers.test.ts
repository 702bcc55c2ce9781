/** Trackers: terms found in a call's turns (whole words, stems, phrases, case and diacritics). */
import { describe, expect, it } from "@effect/vitest"
import { compileTrackerTerms, findTrackerMentions, type TrackerTurn } from "../src/text/Trackers.js"

const turn = (text: string, speaker = "S1", start = 0): TrackerTurn => ({ speaker, start, text })
const find = (terms: ReadonlyArray<string>, turns: ReadonlyArray<TrackerTurn>) =>
  findTrackerMentions(compileTrackerTerms(terms), turns)

describe("findTrackerMentions", () => {
  it("matches whole words only: AI is not in said, Gong is not in Gongfu", () => {
    expect(find(["AI"], [turn("He said the rain was fine, paid for it.")])).toEqual([])
    expect(find(["Gong"], [turn("We tried Gongfu tea")])).toEqual([])
    expect(find(["AI"], [turn("Our AI assistant, and ai again.")]).map((m) => m.matched)).toEqual(["AI", "ai"])
  })

  it("ignores case and diacritics, and quotes the words as said", () => {
    const mentions = find(["nestle"], [turn("We buy from NESTLÉ and Nestle.", "S2", 12.5)])
    expect(mentions).toEqual([
      { term: "nestle", speaker: "S2", start: 12.5, matched: "NESTLÉ", quote: "We buy from NESTLÉ and Nestle." },
      { term: "nestle", speaker: "S2", start: 12.5, matched: "Nestle", quote: "We buy from NESTLÉ and Nestle." }
    ])
    expect(find(["Nestlé"], [turn("nestle")]).length).toBe(1)
  })

  it("matches by Porter2 stem: pricing, prices and priced are the term price; precise is not", () => {
    const text = "Pricing is high. The prices went up. It was priced badly. Be precise. A price."
    expect(find(["price"], [turn(text)]).map((m) => m.matched)).toEqual(["Pricing", "prices", "priced", "price"])
    expect(find(["pricing"], [turn(text)]).length).toBe(4)
  })

  it("a quoted term is matched without stemming", () => {
    expect(find(['"price"'], [turn("Pricing, prices, price.")]).map((m) => m.matched)).toEqual(["price"])
  })

  it("matches a phrase across word boundaries within a turn, stems included", () => {
    const turns = [
      turn("We signed an annual contract last year.", "S1", 3),
      turn("Annual, contracts are fine; annual-contract too.", "S2", 9),
      turn("annual", "S1", 20),
      turn("contract", "S2", 25)
    ]
    const mentions = find(["annual contract"], turns)
    expect(mentions.map((m) => [m.start, m.matched])).toEqual([
      [3, "annual contract"],
      [9, "Annual, contracts"],
      [9, "annual-contract"]
    ])
  })

  it("counts the longer term where two terms start at the same word, and each word once", () => {
    const mentions = find(["contract", "annual contract"], [turn("The annual contract and the contract.")])
    expect(mentions.map((m) => [m.term, m.matched])).toEqual([
      ["annual contract", "annual contract"],
      ["contract", "contract"]
    ])
  })

  it("quotes are exact substrings of the turn: the sentence around the words", () => {
    const text = "Hi there. We are also looking at Gong's product, honestly! Anything else?"
    const [m] = find(["gong"], [turn(text)])
    expect(m?.matched).toBe("Gong's")
    expect(m?.quote).toBe("We are also looking at Gong's product, honestly!")
    expect(text.includes(m!.quote)).toBe(true)
    const long = `${"word ".repeat(200)}Chorus ${"more ".repeat(200)}`
    const [c] = find(["chorus"], [turn(long)])
    expect(long.includes(c!.quote)).toBe(true)
    expect(c!.quote.length).toBeLessThanOrEqual(250)
    expect(c!.quote).toContain("Chorus")
  })

  it("leaves out terms without a word, and finds nothing in empty turns", () => {
    expect(find(["", "  ", "!!"], [turn("anything at all")])).toEqual([])
    expect(find(["price"], [turn("")])).toEqual([])
  })

  it("numbers are compared as they are: 2026 is not 2025", () => {
    expect(find(["Q4 2026"], [turn("by Q4 2026, not Q4 2025")]).map((m) => m.matched)).toEqual(["Q4 2026"])
  })
})

describe("competitor names", () => {
  it("without stems a name is matched as written: Excel is not 'excellent', Siemens is not 'Siemen'", () => {
    const turns = [{ speaker: "S2", start: 0, text: "Excellent, we run it all in Excel today. Siemen said Siemens logs it." }]
    const stemmed = findTrackerMentions(compileTrackerTerms(["Excel"]), turns).map((m) => m.matched)
    expect(stemmed).toEqual(["Excellent", "Excel"])
    const exact = compileTrackerTerms(["Excel", "Siemens"], { stem: false })
    expect(findTrackerMentions(exact, turns).map((m) => m.matched)).toEqual(["Excel", "Siemens"])
  })
})
