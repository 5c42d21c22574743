(module
  (memory (export "memory") 1)
  ;; The resampler's polyphase filter (src/audio/fir-kernel.ts; assemble with `npx tsx scripts/assemble-wasm.ts`).
  ;;
  ;; run(buf, table, taps, out, start, lastStart, frac, stepWhole, stepFrac, up) -> outputs written
  ;; buf, table, out: byte addresses of f32 arrays in this memory. table holds `up` rows of `taps` coefficients,
  ;; taps a multiple of 4 (rows padded with zeros). Output n is the dot product of row frac_n with
  ;; buf[start_n, start_n + taps); then start and frac step as Resampler.run does: start += stepWhole,
  ;; frac += stepFrac, and past `up` frac wraps and start moves one more. Outputs go on while start <= lastStart.
  ;; Sums run in four lanes of single precision, eight taps a turn, then four.
  (func $polyphaseFir (export "run")
    (param $buf i32) (param $table i32) (param $taps i32) (param $out i32)
    (param $start i32) (param $lastStart i32) (param $frac i32)
    (param $stepWhole i32) (param $stepFrac i32) (param $up i32)
    (result i32)
    (local $n i32) (local $x i32) (local $h i32) (local $end i32)
    (local $acc0 v128) (local $acc1 v128) (local $rowBytes i32)
    (local.set $rowBytes (i32.shl (local.get $taps) (i32.const 2)))
    (block $done
      (loop $outputs
        (br_if $done (i32.gt_s (local.get $start) (local.get $lastStart)))
        (local.set $x (i32.add (local.get $buf) (i32.shl (local.get $start) (i32.const 2))))
        (local.set $h (i32.add (local.get $table) (i32.mul (local.get $frac) (local.get $rowBytes))))
        (local.set $end (i32.add (local.get $h) (local.get $rowBytes)))
        (local.set $acc0 (v128.const f32x4 0 0 0 0))
        (local.set $acc1 (v128.const f32x4 0 0 0 0))
        ;; eight taps a turn while at least eight remain, then four
        (block $tail
          (loop $taps8
            (br_if $tail (i32.gt_u (i32.add (local.get $h) (i32.const 32)) (local.get $end)))
            (local.set $acc0 (f32x4.add (local.get $acc0)
              (f32x4.mul (v128.load (local.get $x)) (v128.load (local.get $h)))))
            (local.set $acc1 (f32x4.add (local.get $acc1)
              (f32x4.mul (v128.load offset=16 (local.get $x)) (v128.load offset=16 (local.get $h)))))
            (local.set $x (i32.add (local.get $x) (i32.const 32)))
            (local.set $h (i32.add (local.get $h) (i32.const 32)))
            (br $taps8)))
        (if (i32.lt_u (local.get $h) (local.get $end))
          (then
            (local.set $acc0 (f32x4.add (local.get $acc0)
              (f32x4.mul (v128.load (local.get $x)) (v128.load (local.get $h)))))))
        (local.set $acc0 (f32x4.add (local.get $acc0) (local.get $acc1)))
        (f32.store
          (i32.add (local.get $out) (i32.shl (local.get $n) (i32.const 2)))
          (f32.add
            (f32.add (f32x4.extract_lane 0 (local.get $acc0)) (f32x4.extract_lane 1 (local.get $acc0)))
            (f32.add (f32x4.extract_lane 2 (local.get $acc0)) (f32x4.extract_lane 3 (local.get $acc0)))))
        (local.set $n (i32.add (local.get $n) (i32.const 1)))
        (local.set $start (i32.add (local.get $start) (local.get $stepWhole)))
        (local.set $frac (i32.add (local.get $frac) (local.get $stepFrac)))
        (if (i32.ge_u (local.get $frac) (local.get $up))
          (then
            (local.set $frac (i32.sub (local.get $frac) (local.get $up)))
            (local.set $start (i32.add (local.get $start) (i32.const 1)))))
        (br $outputs)))
    (local.get $n)))
