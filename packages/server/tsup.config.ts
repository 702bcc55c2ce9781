import { defineConfig } from "tsup"

export default defineConfig({
  entry: ["src/index.ts"],
  format: ["esm"],
  target: "node20",
  // Run, not imported by outside code: no declarations (type checking is `tsc -b`).
  dts: false,
  clean: true,
  sourcemap: true
})
