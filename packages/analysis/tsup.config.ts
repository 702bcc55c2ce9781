import { defineConfig } from "tsup"

export default defineConfig({
  entry: ["src/index.ts"],
  format: ["esm"],
  target: "node20",
  // The server imports the build at run time; eval/, bench/ and the tests read the source. No
  // declarations (type checking is `tsc -b`).
  dts: false,
  clean: true,
  sourcemap: true
})
