import { defineConfig } from "tsup"

export default defineConfig({
  entry: ["src/index.ts"],
  format: ["esm"],
  target: "node20",
  // The declaration is bundled in (code and types) from its sources: the package stands alone,
  // installable from `npm pack` without the private workspace package @callsight/api-spec.
  noExternal: ["@callsight/api-spec"],
  esbuildOptions: (options) => {
    options.conditions = ["source"]
  },
  // composite (for `tsc -b`) would make the declaration build ask for every file of the project
  dts: { resolve: ["@callsight/api-spec"], compilerOptions: { composite: false } },
  // no clean: a build only adds and overwrites files, never deletes one a running service may still load
  clean: false,
  sourcemap: true
})
