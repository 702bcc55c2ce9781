import { defineConfig } from "tsup"

export default defineConfig({
  // index: the command tree as a library; main: the executable that bin/callsight.js imports
  entry: ["src/index.ts", "src/main.ts"],
  format: ["esm"],
  target: "node20",
  // composite (for `tsc -b`) would make the declaration build ask for every file of the project
  dts: { compilerOptions: { composite: false } },
  clean: true,
  sourcemap: true
})
