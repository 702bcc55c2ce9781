/** The app's entry: the query cache and the app, mounted on `#root`. */
import { QueryClient, QueryClientProvider } from "@tanstack/react-query"
import { StrictMode } from "react"
import { createRoot } from "react-dom/client"
import { Router } from "wouter"
import { ApiError } from "./api.js"
import { App } from "./App.js"
import "./ui/app.css"

const queries = new QueryClient({
  defaultOptions: {
    queries: {
      // a refused request (4xx) is not tried again; the client already retries what is worth it
      retry: false,
      refetchOnWindowFocus: false,
      staleTime: 15_000
    },
    mutations: { retry: false }
  }
})

export const isApiError = (error: unknown): error is ApiError => error instanceof ApiError

createRoot(document.getElementById("root")!).render(
  <StrictMode>
    <QueryClientProvider client={queries}>
      <Router base="/app">
        <App />
      </Router>
    </QueryClientProvider>
  </StrictMode>
)
