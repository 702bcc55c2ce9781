/**
 * The analysis engine (`@callsight/analysis`), loaded when it is first needed: by a worker that has
 * claimed a call to analyse, or a request for a call's evidence report. Its code is megabytes (the
 * learned models' weights, the lexicons, the NLP and audio decoding libraries) that a server would
 * otherwise compile and evaluate before it listens; the first analysis or report of a process pays
 * for it instead, once (Node keeps the loaded module). The pieces needed at hand (sniffing an
 * upload, the dimensions' labels, HTML escaping) come from `@callsight/analysis/light`, which loads
 * none of it.
 */
import { Effect } from "effect"

export type AnalysisEngine = typeof import("@callsight/analysis")

/** The engine's module, loaded on first use. */
export const analysisEngine: Effect.Effect<AnalysisEngine> = Effect.promise(() => import("@callsight/analysis"))
