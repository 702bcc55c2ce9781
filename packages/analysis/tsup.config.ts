import { defineConfig } from "tsup"

export default defineConfig({
  // the whole engine, the acoustic stage alone (`@callsight/analysis/signal`), and the small pieces
  // the server uses without loading the engine (`@callsight/analysis/light`)
  entry: { index: "src/index.ts", signal: "src/signal/index.ts", light: "src/light.ts" },
  format: ["esm"],
  target: "node20",
  // The server imports the build at run time; eval/, bench/ and the tests read the source. No
  // declarations (type checking is `tsc -b`).
  dts: false,
  // no clean: a build only adds and overwrites files, never deletes one a running service may still load
  clean: false,
  sourcemap: true
})
