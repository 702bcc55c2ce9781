import { defineConfig } from "tsup"

export default defineConfig({
  entry: ["src/index.ts"],
  format: ["esm"],
  target: "node20",
  // composite (for `tsc -b`) would make the declaration build ask for every file of the project
  dts: { compilerOptions: { composite: false } },
  // no clean: a build only adds and overwrites files, never deletes one a running service may still load
  clean: false,
  sourcemap: true
})
