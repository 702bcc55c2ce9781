/**
 * The web app's build (docs/architecture.md, "The web app"): Vite 8 with React, served by the
 * service under `/app/` (the `base`), into `dist/` (index.html and hashed assets; like every build
 * of the repository it adds and overwrites files, never deletes them). In development
 * (`npm run dev -w @callsight/web`) the API is proxied to a service on :8080.
 */
import react from "@vitejs/plugin-react"
import { defineConfig } from "vite"

export default defineConfig({
  base: "/app/",
  plugins: [react()],
  resolve: { conditions: ["source"] },
  // the build adds and overwrites, never deletes (a running service keeps serving what it loaded)
  build: { outDir: "dist", emptyOutDir: false, sourcemap: false, target: "es2022", chunkSizeWarningLimit: 900 },
  server: {
    proxy: { "/v1": "http://localhost:8080", "/sign-in": "http://localhost:8080", "/reporting": "http://localhost:8080" }
  }
})
