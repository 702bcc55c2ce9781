import { defineConfig } from "tsup"

export default defineConfig({
  entry: ["src/index.ts"],
  format: ["esm"],
  target: "node20",
  // composite (for `tsc -b`) would make the declaration build ask for every file of the project
  dts: { compilerOptions: { composite: false } },
  clean: true,
  sourcemap: true
})
