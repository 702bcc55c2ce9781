/**
 * The acoustic stage on its own (`@callsight/analysis/signal`): sniff, decode and resample the
 * audio; FFT and features; speech activity; the speaker model (GMM, clustering, diarization); roles
 * from acoustic cues; the metrics that need no words. `Acoustic.ts` runs it. It loads none of the
 * text stage's language libraries, so what measures or uses the acoustic analysis alone (the
 * analysis benchmark) holds only what it needs.
 */
export * from "./Acoustic.js"
export * from "./Activity.js"
export * from "./Cluster.js"
export * from "./Decode.js"
export * from "./Diarize.js"
export * from "./Features.js"
export * from "./Fft.js"
export * from "./Gmm.js"
export * from "./Metrics.js"
export * from "./Resample.js"
export * from "./Roles.js"
export * from "./Sniff.js"
