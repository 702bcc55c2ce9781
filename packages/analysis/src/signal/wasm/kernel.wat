;; The analysis' numeric kernels in WebAssembly with 128-bit SIMD (two doubles a lane pair).
;;
;; Every result is the JavaScript formula's to the bit: the same IEEE operations on the same
;; values in the same order per sum (WebAssembly has no fused multiply-add and never reorders
;; floating-point arithmetic); only independent sums run side by side in the two lanes.
;;
;; Built into kernelBytes.ts by `npm run build:wasm` (scripts/build-wasm.mjs, wabt); the test
;; Kernel.test.ts fails when that file is not this source's build.
(module
  (memory (export "memory") 1)

  ;; A diagonal Gaussian mixture's per-component log densities (Gmm.ts, componentScores).
  ;;
  ;; The mixture's block at $block: grouped means, then grouped precisions ($groups × $dims × 8
  ;; doubles each: group g, dimension d, component 8g + j at ((g · dims + d) · 8 + j)), then the
  ;; constants ($groups × 8 doubles, zero-padded). $x: $dims floats. Writes $groups × 8 doubles
  ;; at $out: constant - 0.5 · Σ_d (x_d - mean)² · precision, each sum over d in order.
  (func (export "gmmScores") (param $block i32) (param $groups i32) (param $dims i32) (param $x i32) (param $out i32)
    (local $means i32) (local $precisions i32) (local $constants i32) (local $stride i32)
    (local $q0 v128) (local $q1 v128) (local $q2 v128) (local $q3 v128)
    (local $v v128) (local $e v128) (local $d i32) (local $xp i32)
    (local.set $stride (i32.shl (i32.mul (local.get $groups) (local.get $dims)) (i32.const 6)))
    (local.set $means (local.get $block))
    (local.set $precisions (i32.add (local.get $block) (local.get $stride)))
    (local.set $constants (i32.add (local.get $precisions) (local.get $stride)))
    (block $groupsDone
      (loop $eachGroup
        (br_if $groupsDone (i32.eqz (local.get $groups)))
        (local.set $q0 (v128.const i64x2 0 0))
        (local.set $q1 (v128.const i64x2 0 0))
        (local.set $q2 (v128.const i64x2 0 0))
        (local.set $q3 (v128.const i64x2 0 0))
        (local.set $d (local.get $dims))
        (local.set $xp (local.get $x))
        (block $dimsDone
          (loop $eachDim
            (br_if $dimsDone (i32.eqz (local.get $d)))
            (local.set $v (f64x2.splat (f64.promote_f32 (f32.load (local.get $xp)))))
            (local.set $e (f64x2.sub (local.get $v) (v128.load (local.get $means))))
            (local.set $q0 (f64x2.add (local.get $q0)
              (f64x2.mul (f64x2.mul (local.get $e) (local.get $e)) (v128.load (local.get $precisions)))))
            (local.set $e (f64x2.sub (local.get $v) (v128.load offset=16 (local.get $means))))
            (local.set $q1 (f64x2.add (local.get $q1)
              (f64x2.mul (f64x2.mul (local.get $e) (local.get $e)) (v128.load offset=16 (local.get $precisions)))))
            (local.set $e (f64x2.sub (local.get $v) (v128.load offset=32 (local.get $means))))
            (local.set $q2 (f64x2.add (local.get $q2)
              (f64x2.mul (f64x2.mul (local.get $e) (local.get $e)) (v128.load offset=32 (local.get $precisions)))))
            (local.set $e (f64x2.sub (local.get $v) (v128.load offset=48 (local.get $means))))
            (local.set $q3 (f64x2.add (local.get $q3)
              (f64x2.mul (f64x2.mul (local.get $e) (local.get $e)) (v128.load offset=48 (local.get $precisions)))))
            (local.set $means (i32.add (local.get $means) (i32.const 64)))
            (local.set $precisions (i32.add (local.get $precisions) (i32.const 64)))
            (local.set $xp (i32.add (local.get $xp) (i32.const 4)))
            (local.set $d (i32.sub (local.get $d) (i32.const 1)))
            (br $eachDim)))
        (v128.store (local.get $out)
          (f64x2.sub (v128.load (local.get $constants)) (f64x2.mul (f64x2.splat (f64.const 0.5)) (local.get $q0))))
        (v128.store offset=16 (local.get $out)
          (f64x2.sub (v128.load offset=16 (local.get $constants)) (f64x2.mul (f64x2.splat (f64.const 0.5)) (local.get $q1))))
        (v128.store offset=32 (local.get $out)
          (f64x2.sub (v128.load offset=32 (local.get $constants)) (f64x2.mul (f64x2.splat (f64.const 0.5)) (local.get $q2))))
        (v128.store offset=48 (local.get $out)
          (f64x2.sub (v128.load offset=48 (local.get $constants)) (f64x2.mul (f64x2.splat (f64.const 0.5)) (local.get $q3))))
        (local.set $constants (i32.add (local.get $constants) (i32.const 64)))
        (local.set $out (i32.add (local.get $out) (i32.const 64)))
        (local.set $groups (i32.sub (local.get $groups) (i32.const 1)))
        (br $eachGroup))))

  ;; The expectation step's sums of a mixture's training (Gmm.ts, trainGmm), for one row: for
  ;; each of the $k components whose responsibility r (a double at $r + 8c) is at least 1e-4,
  ;; sumW[c] += r, and for every dimension d, sumX[c, d] += r · x_d and sumXX[c, d] += r · x_d · x_d
  ;; ($x: $dims floats; the sums: doubles, component-major). Two dimensions side by side.
  (func (export "gmmAccumulate") (param $x i32) (param $r i32) (param $k i32) (param $dims i32)
        (param $sumW i32) (param $sumX i32) (param $sumXX i32)
    (local $rc f64) (local $rv v128) (local $xv v128) (local $p v128) (local $d i32) (local $at i32)
    (local $xs f64) (local $ps f64)
    (block $componentsDone
      (loop $eachComponent
        (br_if $componentsDone (i32.eqz (local.get $k)))
        (local.set $rc (f64.load (local.get $r)))
        (if (i32.eqz (f64.lt (local.get $rc) (f64.const 1e-4)))
          (then
            (f64.store (local.get $sumW) (f64.add (f64.load (local.get $sumW)) (local.get $rc)))
            (local.set $rv (f64x2.splat (local.get $rc)))
            (local.set $d (i32.const 0))
            (block $pairsDone
              (loop $eachPair
                (br_if $pairsDone (i32.gt_u (i32.add (local.get $d) (i32.const 2)) (local.get $dims)))
                (local.set $xv (f64x2.promote_low_f32x4 (v128.load64_zero (i32.add (local.get $x) (i32.shl (local.get $d) (i32.const 2))))))
                (local.set $p (f64x2.mul (local.get $rv) (local.get $xv)))
                (local.set $at (i32.shl (local.get $d) (i32.const 3)))
                (v128.store (i32.add (local.get $sumX) (local.get $at))
                  (f64x2.add (v128.load (i32.add (local.get $sumX) (local.get $at))) (local.get $p)))
                (v128.store (i32.add (local.get $sumXX) (local.get $at))
                  (f64x2.add (v128.load (i32.add (local.get $sumXX) (local.get $at))) (f64x2.mul (local.get $p) (local.get $xv))))
                (local.set $d (i32.add (local.get $d) (i32.const 2)))
                (br $eachPair)))
            (if (i32.lt_u (local.get $d) (local.get $dims))
              (then
                ;; an odd number of dimensions: the last one alone
                (local.set $xs (f64.promote_f32 (f32.load (i32.add (local.get $x) (i32.shl (local.get $d) (i32.const 2))))))
                (local.set $ps (f64.mul (local.get $rc) (local.get $xs)))
                (local.set $at (i32.shl (local.get $d) (i32.const 3)))
                (f64.store (i32.add (local.get $sumX) (local.get $at))
                  (f64.add (f64.load (i32.add (local.get $sumX) (local.get $at))) (local.get $ps)))
                (f64.store (i32.add (local.get $sumXX) (local.get $at))
                  (f64.add (f64.load (i32.add (local.get $sumXX) (local.get $at))) (f64.mul (local.get $ps) (local.get $xs))))))))
        (local.set $r (i32.add (local.get $r) (i32.const 8)))
        (local.set $sumW (i32.add (local.get $sumW) (i32.const 8)))
        (local.set $sumX (i32.add (local.get $sumX) (i32.shl (local.get $dims) (i32.const 3))))
        (local.set $sumXX (i32.add (local.get $sumXX) (i32.shl (local.get $dims) (i32.const 3))))
        (local.set $k (i32.sub (local.get $k) (i32.const 1)))
        (br $eachComponent)))))
