/**
 * Setup file of every test file (vitest.config.ts `setupFiles`): after each test, one turn of the
 * event loop.
 *
 * A worker fork asks the main process to record each test's progress (`onTaskUpdate`) and waits
 * for the answer at most 60 s, a limit vitest 3 fixes (birpc's default; no setting reaches it).
 * Between the tests of a file the runner awaits promises only, so a file of synchronous tests (the
 * models' training, the analyses of whole calls) keeps its fork from reading any answer until the
 * file ends. Past 60 s the waiting calls time out and the run fails with every test passing: a
 * CI run did (2026-12-04), when the suite ran ~2× slower than usual (the sentence-end model's
 * training 37 s against 17 s; the summary tests, 34 s here, are synchronous too). Three tests of
 * 25 s of synchronous work in one file reproduce it here, and pass with this file. Node reads the
 * answers in the poll phase of a turn, which this gives (`setImmediate` runs after it): only a
 * single test blocking for 60 s on its own could still time out.
 */
import { setImmediate } from "node:timers/promises"
import { afterEach } from "vitest"

afterEach(() => setImmediate())
