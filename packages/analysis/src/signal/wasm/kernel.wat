;; The analysis' numeric kernels in WebAssembly with 128-bit SIMD (two doubles a lane pair).
;;
;; Every result is the JavaScript formula's to the bit: the same IEEE operations on the same
;; values in the same order per sum (WebAssembly has no fused multiply-add and never reorders
;; floating-point arithmetic); only independent sums run side by side in the two lanes.
;;
;; Built into kernelBytes.ts by `npm run build:wasm` (scripts/build-wasm.mjs, wabt); the test
;; Kernel.test.ts fails when that file is not this source's build.
(module
  ;; 1.5 MB: Kernel.ts' arena (1 MB) and the scratch the analysis uses, without growing (see there)
  (memory (export "memory") 24)

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
        (br $eachComponent))))

  ;; Two frames' real-input FFTs at once (Fft.ts, createPairFft): fft.js's realTransform, frame A
  ;; in every value's first lane, frame B in its second, lane by lane fft.js's operations in its
  ;; order but for the products by 1 (the first leg of each pass; at most the sign of a zero
  ;; differs, which no later sum, product or square can tell).
  ;;
  ;; $in: the inputs, slot j (16 bytes: A, B) at $in + 16j; $out: the complex outputs interleaved
  ;; ($csize slots: re, im, re, im, …); $bitrev: i32s; $table: fft.js's twiddles (doubles);
  ;; $firstLen 4 (a radix-2 first pass) or 8 (radix-4); $half: the first pass's quarter stride in
  ;; input slots; $step: the first radix-4 pass's step.
  (func (export "fftPair") (param $in i32) (param $out i32) (param $csize i32) (param $bitrev i32)
        (param $table i32) (param $firstLen i32) (param $half i32) (param $step i32)
    (local $outOff i32) (local $t i32) (local $off i32) (local $p i32) (local $end i32)
    (local $len i32) (local $quarter i32) (local $hquarter i32) (local $i i32) (local $k i32)
    (local $a i32) (local $b i32) (local $c i32) (local $d i32)
    (local $Ar v128) (local $Ai v128) (local $Br v128) (local $Bi v128)
    (local $Cr v128) (local $Ci v128) (local $Dr v128) (local $Di v128)
    (local $tr v128) (local $ti v128)
    (local $T0r v128) (local $T0i v128) (local $T1r v128) (local $T1i v128)
    (local $T2r v128) (local $T2i v128) (local $T3r v128) (local $T3i v128)
    (local $MBr v128) (local $MBi v128) (local $MCr v128) (local $MCi v128) (local $MDr v128) (local $MDi v128)
    (local.set $end (i32.add (local.get $out) (i32.shl (local.get $csize) (i32.const 4))))
    (local.set $p (local.get $out))
    (if (i32.eq (local.get $firstLen) (i32.const 4))
      (then
        ;; radix 2: out = (e + o, 0, e - o, 0)
        (block $done
          (loop $each
            (br_if $done (i32.ge_u (local.get $p) (local.get $end)))
            (local.set $off (i32.shr_u (i32.load (i32.add (local.get $bitrev) (i32.shl (local.get $t) (i32.const 2)))) (i32.const 1)))
            (local.set $Ar (v128.load (i32.add (local.get $in) (i32.shl (local.get $off) (i32.const 4)))))
            (local.set $Br (v128.load (i32.add (local.get $in) (i32.shl (i32.add (local.get $off) (local.get $half)) (i32.const 4)))))
            (v128.store (local.get $p) (f64x2.add (local.get $Ar) (local.get $Br)))
            (v128.store offset=16 (local.get $p) (v128.const i64x2 0 0))
            (v128.store offset=32 (local.get $p) (f64x2.sub (local.get $Ar) (local.get $Br)))
            (v128.store offset=48 (local.get $p) (v128.const i64x2 0 0))
            (local.set $p (i32.add (local.get $p) (i32.const 64)))
            (local.set $t (i32.add (local.get $t) (i32.const 1)))
            (br $each))))
      (else
        ;; radix 4 on real inputs
        (block $done
          (loop $each
            (br_if $done (i32.ge_u (local.get $p) (local.get $end)))
            (local.set $off (i32.shr_u (i32.load (i32.add (local.get $bitrev) (i32.shl (local.get $t) (i32.const 2)))) (i32.const 1)))
            (local.set $a (i32.add (local.get $in) (i32.shl (local.get $off) (i32.const 4))))
            (local.set $b (i32.add (local.get $a) (i32.shl (local.get $half) (i32.const 4))))
            (local.set $c (i32.add (local.get $b) (i32.shl (local.get $half) (i32.const 4))))
            (local.set $d (i32.add (local.get $c) (i32.shl (local.get $half) (i32.const 4))))
            (local.set $Ar (v128.load (local.get $a)))
            (local.set $Br (v128.load (local.get $b)))
            (local.set $Cr (v128.load (local.get $c)))
            (local.set $Dr (v128.load (local.get $d)))
            (local.set $T0r (f64x2.add (local.get $Ar) (local.get $Cr)))
            (local.set $T1r (f64x2.sub (local.get $Ar) (local.get $Cr)))
            (local.set $T2r (f64x2.add (local.get $Br) (local.get $Dr)))
            (local.set $T3r (f64x2.sub (local.get $Br) (local.get $Dr)))
            (v128.store (local.get $p) (f64x2.add (local.get $T0r) (local.get $T2r)))
            (v128.store offset=16 (local.get $p) (v128.const i64x2 0 0))
            (v128.store offset=32 (local.get $p) (local.get $T1r))
            (v128.store offset=48 (local.get $p) (f64x2.neg (local.get $T3r)))
            (v128.store offset=64 (local.get $p) (f64x2.sub (local.get $T0r) (local.get $T2r)))
            (v128.store offset=80 (local.get $p) (v128.const i64x2 0 0))
            (v128.store offset=96 (local.get $p) (local.get $T1r))
            (v128.store offset=112 (local.get $p) (local.get $T3r))
            (local.set $p (i32.add (local.get $p) (i32.const 128)))
            (local.set $t (i32.add (local.get $t) (i32.const 1)))
            (br $each)))))
    ;; the radix-4 passes
    (block $passesDone
      (loop $eachPass
        (br_if $passesDone (i32.lt_u (local.get $step) (i32.const 2)))
        (local.set $len (i32.shl (i32.div_u (local.get $csize) (local.get $step)) (i32.const 1)))
        (local.set $quarter (i32.shr_u (local.get $len) (i32.const 2)))
        (local.set $hquarter (i32.shr_u (local.get $quarter) (i32.const 1)))
        (local.set $outOff (i32.const 0))
        (block $groupsDone
          (loop $eachGroup
            (br_if $groupsDone (i32.ge_u (local.get $outOff) (local.get $csize)))
            ;; i = 0: the twiddles are 1
            (local.set $a (i32.add (local.get $out) (i32.shl (local.get $outOff) (i32.const 4))))
            (local.set $b (i32.add (local.get $a) (i32.shl (local.get $quarter) (i32.const 4))))
            (local.set $c (i32.add (local.get $b) (i32.shl (local.get $quarter) (i32.const 4))))
            (local.set $d (i32.add (local.get $c) (i32.shl (local.get $quarter) (i32.const 4))))
            (local.set $Ar (v128.load (local.get $a)))
            (local.set $Ai (v128.load offset=16 (local.get $a)))
            (local.set $Br (v128.load (local.get $b)))
            (local.set $Bi (v128.load offset=16 (local.get $b)))
            (local.set $Cr (v128.load (local.get $c)))
            (local.set $Ci (v128.load offset=16 (local.get $c)))
            (local.set $Dr (v128.load (local.get $d)))
            (local.set $Di (v128.load offset=16 (local.get $d)))
            (local.set $T0r (f64x2.add (local.get $Ar) (local.get $Cr)))
            (local.set $T0i (f64x2.add (local.get $Ai) (local.get $Ci)))
            (local.set $T1r (f64x2.sub (local.get $Ar) (local.get $Cr)))
            (local.set $T1i (f64x2.sub (local.get $Ai) (local.get $Ci)))
            (local.set $T2r (f64x2.add (local.get $Br) (local.get $Dr)))
            (local.set $T2i (f64x2.add (local.get $Bi) (local.get $Di)))
            (local.set $T3r (f64x2.sub (local.get $Br) (local.get $Dr)))
            (local.set $T3i (f64x2.sub (local.get $Bi) (local.get $Di)))
            (v128.store (local.get $a) (f64x2.add (local.get $T0r) (local.get $T2r)))
            (v128.store offset=16 (local.get $a) (f64x2.add (local.get $T0i) (local.get $T2i)))
            (v128.store (local.get $b) (f64x2.add (local.get $T1r) (local.get $T3i)))
            (v128.store offset=16 (local.get $b) (f64x2.sub (local.get $T1i) (local.get $T3r)))
            (v128.store (local.get $c) (f64x2.sub (local.get $T0r) (local.get $T2r)))
            (v128.store offset=16 (local.get $c) (f64x2.sub (local.get $T0i) (local.get $T2i)))
            (local.set $i (i32.const 2))
            (local.set $k (local.get $step))
            (block $butterfliesDone
              (loop $eachButterfly
                (br_if $butterfliesDone (i32.gt_u (local.get $i) (local.get $hquarter)))
                (local.set $a (i32.add (local.get $out) (i32.shl (i32.add (local.get $outOff) (local.get $i)) (i32.const 4))))
                (local.set $b (i32.add (local.get $a) (i32.shl (local.get $quarter) (i32.const 4))))
                (local.set $c (i32.add (local.get $b) (i32.shl (local.get $quarter) (i32.const 4))))
                (local.set $d (i32.add (local.get $c) (i32.shl (local.get $quarter) (i32.const 4))))
                (local.set $Ar (v128.load (local.get $a)))
                (local.set $Ai (v128.load offset=16 (local.get $a)))
                (local.set $Br (v128.load (local.get $b)))
                (local.set $Bi (v128.load offset=16 (local.get $b)))
                (local.set $Cr (v128.load (local.get $c)))
                (local.set $Ci (v128.load offset=16 (local.get $c)))
                (local.set $Dr (v128.load (local.get $d)))
                (local.set $Di (v128.load offset=16 (local.get $d)))
                ;; table[k], table[k + 1]; table[2k], …; table[3k], …
                (local.set $tr (v128.load64_splat (i32.add (local.get $table) (i32.shl (local.get $k) (i32.const 3)))))
                (local.set $ti (v128.load64_splat offset=8 (i32.add (local.get $table) (i32.shl (local.get $k) (i32.const 3)))))
                (local.set $MBr (f64x2.sub (f64x2.mul (local.get $Br) (local.get $tr)) (f64x2.mul (local.get $Bi) (local.get $ti))))
                (local.set $MBi (f64x2.add (f64x2.mul (local.get $Br) (local.get $ti)) (f64x2.mul (local.get $Bi) (local.get $tr))))
                (local.set $tr (v128.load64_splat (i32.add (local.get $table) (i32.shl (local.get $k) (i32.const 4)))))
                (local.set $ti (v128.load64_splat offset=8 (i32.add (local.get $table) (i32.shl (local.get $k) (i32.const 4)))))
                (local.set $MCr (f64x2.sub (f64x2.mul (local.get $Cr) (local.get $tr)) (f64x2.mul (local.get $Ci) (local.get $ti))))
                (local.set $MCi (f64x2.add (f64x2.mul (local.get $Cr) (local.get $ti)) (f64x2.mul (local.get $Ci) (local.get $tr))))
                (local.set $tr (v128.load64_splat (i32.add (local.get $table) (i32.mul (local.get $k) (i32.const 24)))))
                (local.set $ti (v128.load64_splat offset=8 (i32.add (local.get $table) (i32.mul (local.get $k) (i32.const 24)))))
                (local.set $MDr (f64x2.sub (f64x2.mul (local.get $Dr) (local.get $tr)) (f64x2.mul (local.get $Di) (local.get $ti))))
                (local.set $MDi (f64x2.add (f64x2.mul (local.get $Dr) (local.get $ti)) (f64x2.mul (local.get $Di) (local.get $tr))))
                (local.set $T0r (f64x2.add (local.get $Ar) (local.get $MCr)))
                (local.set $T0i (f64x2.add (local.get $Ai) (local.get $MCi)))
                (local.set $T1r (f64x2.sub (local.get $Ar) (local.get $MCr)))
                (local.set $T1i (f64x2.sub (local.get $Ai) (local.get $MCi)))
                (local.set $T2r (f64x2.add (local.get $MBr) (local.get $MDr)))
                (local.set $T2i (f64x2.add (local.get $MBi) (local.get $MDi)))
                (local.set $T3r (f64x2.sub (local.get $MBr) (local.get $MDr)))
                (local.set $T3i (f64x2.sub (local.get $MBi) (local.get $MDi)))
                (v128.store (local.get $a) (f64x2.add (local.get $T0r) (local.get $T2r)))
                (v128.store offset=16 (local.get $a) (f64x2.add (local.get $T0i) (local.get $T2i)))
                (v128.store (local.get $b) (f64x2.add (local.get $T1r) (local.get $T3i)))
                (v128.store offset=16 (local.get $b) (f64x2.sub (local.get $T1i) (local.get $T3r)))
                (if (i32.ne (local.get $i) (local.get $hquarter))
                  (then
                    ;; the mirrored outputs (fft.js's "flipped case")
                    (local.set $a (i32.add (local.get $out) (i32.shl (i32.sub (i32.add (local.get $outOff) (local.get $quarter)) (local.get $i)) (i32.const 4))))
                    (local.set $b (i32.add (local.get $out) (i32.shl (i32.sub (i32.add (local.get $outOff) (i32.shl (local.get $quarter) (i32.const 1))) (local.get $i)) (i32.const 4))))
                    (v128.store (local.get $a) (f64x2.sub (local.get $T1r) (local.get $T3i)))
                    (v128.store offset=16 (local.get $a) (f64x2.sub (f64x2.neg (local.get $T1i)) (local.get $T3r)))
                    (v128.store (local.get $b) (f64x2.sub (local.get $T0r) (local.get $T2r)))
                    (v128.store offset=16 (local.get $b) (f64x2.sub (local.get $T2i) (local.get $T0i)))))
                (local.set $i (i32.add (local.get $i) (i32.const 2)))
                (local.set $k (i32.add (local.get $k) (local.get $step)))
                (br $eachButterfly)))
            (local.set $outOff (i32.add (local.get $outOff) (local.get $len)))
            (br $eachGroup)))
        (local.set $step (i32.shr_u (local.get $step) (i32.const 2)))
        (br $eachPass))))

  ;; The power spectrum of two transformed frames: re² + im² of the complex values at $out (slot
  ;; 2k: re, 2k + 1: im) into slot k at $power, for $bins bins.
  (func (export "powerPair") (param $out i32) (param $power i32) (param $bins i32)
    (local $re v128) (local $im v128)
    (block $done
      (loop $each
        (br_if $done (i32.eqz (local.get $bins)))
        (local.set $re (v128.load (local.get $out)))
        (local.set $im (v128.load offset=16 (local.get $out)))
        (v128.store (local.get $power) (f64x2.add (f64x2.mul (local.get $re) (local.get $re)) (f64x2.mul (local.get $im) (local.get $im))))
        (local.set $out (i32.add (local.get $out) (i32.const 32)))
        (local.set $power (i32.add (local.get $power) (i32.const 16)))
        (local.set $bins (i32.sub (local.get $bins) (i32.const 1)))
        (br $each))))

  ;; Two frames' mel filterbank (Features.ts, mfcc): band m's energy Σ_k weight_m,k · power[first_m + k]
  ;; over its bins in order, both frames side by side; $power: slots of two doubles (bins), $firsts
  ;; and $counts: i32 per band, $weights: the bands' weights (doubles) one band after the other.
  (func (export "melPair") (param $power i32) (param $firsts i32) (param $counts i32) (param $weights i32)
        (param $bands i32) (param $out i32)
    (local $sum v128) (local $p i32) (local $n i32)
    (block $bandsDone
      (loop $eachBand
        (br_if $bandsDone (i32.eqz (local.get $bands)))
        (local.set $sum (v128.const i64x2 0 0))
        (local.set $p (i32.add (local.get $power) (i32.shl (i32.load (local.get $firsts)) (i32.const 4))))
        (local.set $n (i32.load (local.get $counts)))
        (block $binsDone
          (loop $eachBin
            (br_if $binsDone (i32.eqz (local.get $n)))
            (local.set $sum (f64x2.add (local.get $sum)
              (f64x2.mul (v128.load64_splat (local.get $weights)) (v128.load (local.get $p)))))
            (local.set $weights (i32.add (local.get $weights) (i32.const 8)))
            (local.set $p (i32.add (local.get $p) (i32.const 16)))
            (local.set $n (i32.sub (local.get $n) (i32.const 1)))
            (br $eachBin)))
        (v128.store (local.get $out) (local.get $sum))
        (local.set $out (i32.add (local.get $out) (i32.const 16)))
        (local.set $firsts (i32.add (local.get $firsts) (i32.const 4)))
        (local.set $counts (i32.add (local.get $counts) (i32.const 4)))
        (local.set $bands (i32.sub (local.get $bands) (i32.const 1)))
        (br $eachBand))))

  ;; Two frames' cepstra (Features.ts, mfcc): row r's Σ_b dct[r, b] · logMel[b] over the bands in
  ;; order, both frames side by side; $logMel: slots of two doubles; $dct: $rows × $bands doubles.
  (func (export "dctPair") (param $logMel i32) (param $dct i32) (param $rows i32) (param $bands i32) (param $out i32)
    (local $sum v128) (local $l i32) (local $b i32)
    (block $rowsDone
      (loop $eachRow
        (br_if $rowsDone (i32.eqz (local.get $rows)))
        (local.set $sum (v128.const i64x2 0 0))
        (local.set $l (local.get $logMel))
        (local.set $b (local.get $bands))
        (block $bandsDone
          (loop $eachBand
            (br_if $bandsDone (i32.eqz (local.get $b)))
            (local.set $sum (f64x2.add (local.get $sum)
              (f64x2.mul (v128.load64_splat (local.get $dct)) (v128.load (local.get $l)))))
            (local.set $dct (i32.add (local.get $dct) (i32.const 8)))
            (local.set $l (i32.add (local.get $l) (i32.const 16)))
            (local.set $b (i32.sub (local.get $b) (i32.const 1)))
            (br $eachBand)))
        (v128.store (local.get $out) (local.get $sum))
        (local.set $out (i32.add (local.get $out) (i32.const 16)))
        (local.set $rows (i32.sub (local.get $rows) (i32.const 1)))
        (br $eachRow))))

  ;; Two frames' inputs (Features.ts, analyse): frame A's samples at $samples, frame B's $hop
  ;; samples later (floats), less their means, pre-emphasised (x - 0.97 · the previous x; the first
  ;; x is its own previous) and windowed: slot i at $out = ((x_i - 0.97 · x_i-1) · window_i) for A and B.
  (func (export "windowPair") (param $samples i32) (param $hop i32) (param $meanA f64) (param $meanB f64)
        (param $window i32) (param $n i32) (param $out i32)
    (local $means v128) (local $x v128) (local $previous v128) (local $b i32)
    (local.set $means (f64x2.replace_lane 1 (f64x2.splat (local.get $meanA)) (local.get $meanB)))
    (local.set $b (i32.add (local.get $samples) (i32.shl (local.get $hop) (i32.const 2))))
    (local.set $previous
      (f64x2.sub
        (f64x2.replace_lane 1 (f64x2.splat (f64.promote_f32 (f32.load (local.get $samples)))) (f64.promote_f32 (f32.load (local.get $b))))
        (local.get $means)))
    (block $done
      (loop $each
        (br_if $done (i32.eqz (local.get $n)))
        (local.set $x
          (f64x2.sub
            (f64x2.replace_lane 1 (f64x2.splat (f64.promote_f32 (f32.load (local.get $samples)))) (f64.promote_f32 (f32.load (local.get $b))))
            (local.get $means)))
        (v128.store (local.get $out)
          (f64x2.mul
            (f64x2.sub (local.get $x) (f64x2.mul (f64x2.splat (f64.const 0.97)) (local.get $previous)))
            (v128.load64_splat (local.get $window))))
        (local.set $previous (local.get $x))
        (local.set $samples (i32.add (local.get $samples) (i32.const 4)))
        (local.set $b (i32.add (local.get $b) (i32.const 4)))
        (local.set $window (i32.add (local.get $window) (i32.const 8)))
        (local.set $out (i32.add (local.get $out) (i32.const 16)))
        (local.set $n (i32.sub (local.get $n) (i32.const 1)))
        (br $each))))

  ;; Two frames' speech-band sums (Features.ts, band), for their flatness and energy; the
  ;; logarithms stay in JavaScript. Over the bins $low..$high of the power spectra at $power
  ;; (slot k: bin k of A and of B), with p = power + $eps: the products of p over each run of
  ;; $chunk bins (the last one may be shorter) and the sum of p, each in bin order. At $out, a
  ;; slot (A, B) each: the runs' products, then the sums, then 1 where some p was not ≤ $max
  ;; (or NaN), else 0.
  (func (export "bandPair") (param $power i32) (param $low i32) (param $high i32) (param $chunk i32)
        (param $eps f64) (param $max f64) (param $out i32)
    (local $p v128) (local $sum v128) (local $product v128) (local $outside v128)
    (local $epsilon v128) (local $limit v128) (local $k i32) (local $end i32)
    (local.set $epsilon (f64x2.splat (local.get $eps)))
    (local.set $limit (f64x2.splat (local.get $max)))
    (local.set $sum (v128.const i64x2 0 0))
    (local.set $outside (v128.const i64x2 0 0))
    (local.set $k (local.get $low))
    (block $runsDone
      (loop $eachRun
        (br_if $runsDone (i32.gt_u (local.get $k) (local.get $high)))
        ;; this run's bins: k..end - 1
        (local.set $end (i32.add (local.get $k) (local.get $chunk)))
        (if (i32.gt_u (local.get $end) (i32.add (local.get $high) (i32.const 1)))
          (then (local.set $end (i32.add (local.get $high) (i32.const 1)))))
        (local.set $product (f64x2.splat (f64.const 1)))
        (block $binsDone
          (loop $eachBin
            (br_if $binsDone (i32.ge_u (local.get $k) (local.get $end)))
            (local.set $p (f64x2.add
              (v128.load (i32.add (local.get $power) (i32.shl (local.get $k) (i32.const 4))))
              (local.get $epsilon)))
            (local.set $sum (f64x2.add (local.get $sum) (local.get $p)))
            (local.set $product (f64x2.mul (local.get $product) (local.get $p)))
            (local.set $outside (v128.or (local.get $outside) (v128.not (f64x2.le (local.get $p) (local.get $limit)))))
            (local.set $k (i32.add (local.get $k) (i32.const 1)))
            (br $eachBin)))
        (v128.store (local.get $out) (local.get $product))
        (local.set $out (i32.add (local.get $out) (i32.const 16)))
        (br $eachRun)))
    (v128.store (local.get $out) (local.get $sum))
    (v128.store offset=16 (local.get $out) (v128.and (local.get $outside) (f64x2.splat (f64.const 1)))))

  ;; Two frames' pitch (Features.ts, pitch): the peak search Features.ts did in JavaScript frame
  ;; by frame, both lanes side by side, each lane its own frame's (a lane's work is skipped only
  ;; where it could not change that lane's values).
  ;;
  ;; $corr: the autocorrelations, the pitch transform's outputs (slot 2L: lag L of A and of B;
  ;; slot 2L + 1, the imaginary parts, unread); $window: the window's autocorrelation, a double
  ;; per lag. With r0 the lag-0 value and w the window's, each lag L in $minLag..$maxLag in
  ;; order: its c / r0 / w replaces best (from $threshold) when larger, but a c below
  ;; best · r0 · $margin · w is skipped without dividing (it cannot be larger: Features.ts,
  ;; BOUND_MARGIN). When best rose above $threshold (and r0 > 0), the period is the first lag
  ;; whose c is a peak (not below either neighbour) and whose c / r0 / w is at least
  ;; $fraction · best, refined by a parabola through the peak (`period`). Writes A's pitch and
  ;; B's at $out: $rate / the period, Hz, or 0 when unvoiced (no such lag).
  (func (export "pitchPair") (param $corr i32) (param $window i32) (param $minLag i32) (param $maxLag i32)
        (param $threshold f64) (param $margin f64) (param $fraction f64) (param $rate f64) (param $out i32)
    (local $r0 v128) (local $best v128) (local $bound v128) (local $least v128)
    (local $c v128) (local $w v128) (local $v v128) (local $take v128) (local $found v128) (local $lags v128)
    (local $lag i32) (local $at i32)
    (local.set $r0 (v128.load (local.get $corr)))
    (local.set $best (f64x2.splat (local.get $threshold)))
    (local.set $bound (f64x2.mul (f64x2.mul (local.get $best) (local.get $r0)) (f64x2.splat (local.get $margin))))
    ;; the highest corrected value, best
    (local.set $lag (local.get $minLag))
    (block $lagsDone
      (loop $eachLag
        (br_if $lagsDone (i32.gt_u (local.get $lag) (local.get $maxLag)))
        (local.set $c (v128.load (i32.add (local.get $corr) (i32.shl (local.get $lag) (i32.const 5)))))
        (local.set $w (v128.load64_splat (i32.add (local.get $window) (i32.shl (local.get $lag) (i32.const 3)))))
        ;; taken unless c < bound · w (a NaN is taken, and loses to best)
        (local.set $take (v128.not (f64x2.lt (local.get $c) (f64x2.mul (local.get $bound) (local.get $w)))))
        (if (v128.any_true (local.get $take))
          (then
            (local.set $v (f64x2.div (f64x2.div (local.get $c) (local.get $r0)) (local.get $w)))
            (local.set $best (v128.bitselect (local.get $v) (local.get $best)
              (v128.and (local.get $take) (f64x2.gt (local.get $v) (local.get $best)))))
            ;; a lane whose best did not change gets the same bound again
            (local.set $bound (f64x2.mul (f64x2.mul (local.get $best) (local.get $r0)) (f64x2.splat (local.get $margin))))))
        (local.set $lag (i32.add (local.get $lag) (i32.const 1)))
        (br $eachLag)))
    ;; the period's lag; an unvoiced lane (r0 ≤ 0, or best still $threshold) counts as found at lag 0
    (local.set $least (f64x2.mul (f64x2.splat (local.get $fraction)) (local.get $best)))
    (local.set $found (v128.or
      (f64x2.le (local.get $r0) (f64x2.splat (f64.const 0)))
      (f64x2.eq (local.get $best) (f64x2.splat (local.get $threshold)))))
    (local.set $lags (v128.const i64x2 0 0))
    (local.set $lag (local.get $minLag))
    (block $lagsDone
      (loop $eachLag
        (br_if $lagsDone (i32.gt_u (local.get $lag) (local.get $maxLag)))
        (br_if $lagsDone (i64x2.all_true (local.get $found)))
        (local.set $at (i32.add (local.get $corr) (i32.shl (local.get $lag) (i32.const 5))))
        (local.set $c (v128.load (local.get $at)))
        (local.set $w (v128.load64_splat (i32.add (local.get $window) (i32.shl (local.get $lag) (i32.const 3)))))
        (local.set $take
          (v128.andnot
            (v128.and
              (v128.and
                (f64x2.ge (local.get $c) (v128.load (i32.sub (local.get $at) (i32.const 32))))
                (f64x2.ge (local.get $c) (v128.load offset=32 (local.get $at))))
              (f64x2.ge (f64x2.div (f64x2.div (local.get $c) (local.get $r0)) (local.get $w)) (local.get $least)))
            (local.get $found)))
        (local.set $lags (v128.bitselect (i64x2.splat (i64.extend_i32_u (local.get $lag))) (local.get $lags) (local.get $take)))
        (local.set $found (v128.or (local.get $found) (local.get $take)))
        (local.set $lag (i32.add (local.get $lag) (i32.const 1)))
        (br $eachLag)))
    (f64.store (local.get $out)
      (call $period (local.get $corr) (i32.wrap_i64 (i64x2.extract_lane 0 (local.get $lags))) (local.get $rate)))
    (f64.store offset=8 (local.get $out)
      (call $period (i32.add (local.get $corr) (i32.const 8)) (i32.wrap_i64 (i64x2.extract_lane 1 (local.get $lags))) (local.get $rate))))

  ;; One lane's pitch from its period's lag (pitchPair): 0 for lag 0 (unvoiced), else $rate /
  ;; (lag + shift), the shift the vertex of the parabola through the lags' values a, b, c at
  ;; lag - 1, lag, lag + 1 (0.5 · (a - c) / (a - 2b + c) when that denominator is negative, else 0).
  ;; $corr: the lane's value at lag 0 (its lag L 32 bytes further on per lag).
  (func $period (param $corr i32) (param $lag i32) (param $rate f64) (result f64)
    (local $at i32) (local $a f64) (local $b f64) (local $c f64) (local $denominator f64) (local $shift f64)
    (if (i32.eqz (local.get $lag)) (then (return (f64.const 0))))
    (local.set $at (i32.add (local.get $corr) (i32.shl (local.get $lag) (i32.const 5))))
    (local.set $a (f64.load (i32.sub (local.get $at) (i32.const 32))))
    (local.set $b (f64.load (local.get $at)))
    (local.set $c (f64.load offset=32 (local.get $at)))
    (local.set $denominator (f64.add (f64.sub (local.get $a) (f64.mul (f64.const 2) (local.get $b))) (local.get $c)))
    (if (f64.lt (local.get $denominator) (f64.const 0))
      (then (local.set $shift (f64.div (f64.mul (f64.const 0.5) (f64.sub (local.get $a) (local.get $c))) (local.get $denominator)))))
    (f64.div (local.get $rate) (f64.add (f64.convert_i32_u (local.get $lag)) (local.get $shift)))))
