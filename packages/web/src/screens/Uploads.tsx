/**
 * Upload from the browser: drop recordings (or choose them), each sent by the typed client's
 * `uploadAudio` (one idempotency key per file, so a retry never makes a second call), its progress
 * shown, then its analysis followed live (`getAnalysis` every few seconds until it is completed or
 * failed). The calls list refreshes as each upload is accepted and as each analysis ends.
 */
import { useQueryClient } from "@tanstack/react-query"
import { useEffect, useRef, useState } from "react"
import { Link } from "wouter"
import { ApiError, call } from "../api.js"
import { Panel } from "../ui/kit.js"

const ACCEPT = ".mp3,.wav,.m4a,audio/mpeg,audio/wav,audio/x-wav,audio/mp4,audio/x-m4a"

interface Upload {
  readonly key: string
  readonly name: string
  readonly sent: number
  readonly total: number
  readonly callId?: string
  readonly status?: string
  readonly progress?: number
  readonly error?: string
}

export const Uploads = () => {
  const [uploads, setUploads] = useState<ReadonlyArray<Upload>>([])
  const [over, setOver] = useState(false)
  const input = useRef<HTMLInputElement>(null)
  const queries = useQueryClient()
  const update = (key: string, change: Partial<Upload>) => setUploads((all) => all.map((u) => (u.key === key ? { ...u, ...change } : u)))

  const send = (file: File) => {
    const key = crypto.randomUUID()
    setUploads((all) => [{ key, name: file.name, sent: 0, total: file.size }, ...all])
    call((c) => c.uploadAudio(file, { idempotencyKey: key, onProgress: (p) => update(key, { sent: p.sent, total: p.total }) }))
      .then((accepted) => {
        update(key, { callId: accepted.call_id, status: accepted.status })
        void queries.invalidateQueries({ queryKey: ["calls"] })
      })
      .catch((error: unknown) => update(key, { error: error instanceof ApiError ? error.message : String(error) }))
  }

  // each accepted upload's analysis, followed until it ends
  const inFlight = uploads.filter((u) => u.callId !== undefined && u.status !== "completed" && u.status !== "failed")
  useEffect(() => {
    if (inFlight.length === 0) return
    const timer = setInterval(() => {
      for (const u of inFlight) {
        call((c) => c.getAnalysis(u.callId!)).then((s) => {
          update(u.key, { status: s.status, progress: s.progress })
          if (s.status === "completed" || s.status === "failed") void queries.invalidateQueries({ queryKey: ["calls"] })
        }).catch(() => undefined)
      }
    }, 3000)
    return () => clearInterval(timer)
  }, [inFlight.map((u) => `${u.key}:${u.status}`).join(",")])

  return (
    <Panel title="Upload recordings">
      <div
        className={over ? "dropzone over" : "dropzone"}
        onDragOver={(e) => { e.preventDefault(); setOver(true) }}
        onDragLeave={() => setOver(false)}
        onDrop={(e) => {
          e.preventDefault()
          setOver(false)
          for (const file of Array.from(e.dataTransfer.files)) send(file)
        }}
      >
        <p>Drop MP3, WAV or M4A recordings here, or</p>
        <label className="button-like">
          <span className="visually-hidden">Choose recordings to upload</span>
          <input
            ref={input}
            type="file"
            accept={ACCEPT}
            multiple
            onChange={(e) => {
              for (const file of Array.from(e.target.files ?? [])) send(file)
              if (input.current !== null) input.current.value = ""
            }}
          />
        </label>
        <p className="muted">Each analysis takes one credit when it completes.</p>
      </div>
      {uploads.length === 0 ? null : (
        <ul className="uploads" aria-live="polite">
          {uploads.map((u) => (
            <li key={u.key}>
              <span>{u.name}</span>{" "}
              {u.error !== undefined ? <span className="failure" role="alert">{u.error}</span>
                : u.callId === undefined ? (
                  <>
                    <progress max={Math.max(u.total, 1)} value={u.sent} aria-label={`Uploading ${u.name}`} /> <span className="muted">uploading</span>
                  </>
                ) : (
                  <>
                    <Link href={`/calls/${u.callId}`}>{u.status}</Link>
                    {u.status === "processing" && u.progress !== undefined
                      ? <progress max={100} value={u.progress} aria-label={`Analysing ${u.name}`} />
                      : null}
                  </>
                )}
            </li>
          ))}
        </ul>
      )}
    </Panel>
  )
}
