import { defineConfig } from "tsup"

export default defineConfig({
  // index: the command tree as a library; main: the executable that bin/callsight.js imports
  entry: ["src/index.ts", "src/main.ts"],
  format: ["esm"],
  target: "node20",
  dts: true,
  clean: true,
  sourcemap: true
})
