// A compile-time check that two types are the same (not merely assignable both ways: an optional
// field one of them lacks is a difference too). Structural differences in how they are written
// (an intersection against the flattened object) do not count: both are flattened first.

type Flat<T> = T extends readonly unknown[]
  ? { [K in keyof T]: Flat<T[K]> }
  : T extends object
    ? { [K in keyof T]: Flat<T[K]> }
    : T;

/** `true` when A and B are the same type, else `false`. */
export type SameType<A, B> =
  (<T>() => T extends Flat<A> ? 1 : 2) extends <T>() => T extends Flat<B> ? 1 : 2 ? true : false;
