;; The float16 range check of half-range.ts, in WebAssembly text: the bytes in HALF_RANGE_WASM are
;; this file assembled (tests/server/upscale/half-range.test.ts assembles it again and compares).
;; pastRange(at, n) answers 1 when any of the n float16 values from byte `at` of the memory has all
;; five exponent bits set (infinite or not a number), else 0. Eight values per SIMD step, then the
;; tail. The memory is imported: half-range.ts gives the module its own block to copy maps into,
;; or the memory of an aligned pool's buffer, whose maps it checks where they are.
(module
  (import "env" "memory" (memory 1))
  (func (export "pastRange") (param $at i32) (param $n i32) (result i32)
    (local $i i32) (local $end i32) (local $stop i32) (local $acc v128) (local $exp v128)
    (local.set $exp (i16x8.splat (i32.const 0x7c00)))
    (local.set $i (local.get $at))
    ;; the end of the values, and of their whole 16-byte steps
    (local.set $stop (i32.add (local.get $at) (i32.shl (local.get $n) (i32.const 1))))
    (local.set $end
      (i32.add (local.get $at) (i32.and (i32.shl (local.get $n) (i32.const 1)) (i32.const -16))))
    (block $done
      (loop $steps
        (br_if $done (i32.ge_u (local.get $i) (local.get $end)))
        ;; lanes whose exponent bits are all set become all ones in $acc
        (local.set $acc
          (v128.or (local.get $acc)
            (i16x8.eq (v128.and (v128.load (local.get $i)) (local.get $exp)) (local.get $exp))))
        (local.set $i (i32.add (local.get $i) (i32.const 16)))
        (br $steps)))
    (if (v128.any_true (local.get $acc)) (then (return (i32.const 1))))
    (block $tail_done
      (loop $tail
        (br_if $tail_done (i32.ge_u (local.get $i) (local.get $stop)))
        (if (i32.eq (i32.and (i32.load16_u (local.get $i)) (i32.const 0x7c00)) (i32.const 0x7c00))
          (then (return (i32.const 1))))
        (local.set $i (i32.add (local.get $i) (i32.const 2)))
        (br $tail)))
    (i32.const 0)))
