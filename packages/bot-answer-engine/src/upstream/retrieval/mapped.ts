/**
 * `list.map(fn)` as an array V8 builds alike in every tier. Where V8's optimising compiler inlines
 * `Array.prototype.map`, the array it returns has holes allowed (created at its full length, then
 * filled), while the interpreter's is packed: code compiled on the interpreter's packed arrays
 * then meets a holey one, is thrown away ("wrong map") and compiled again, one use at a time. An
 * array grown by `push` from an empty literal is packed in every tier.
 */
export function mapped<T, U>(list: readonly T[], fn: (item: T, index: number) => U): U[] {
  const out: U[] = [];
  for (let i = 0; i < list.length; i++) out.push(fn(list[i]!, i));
  return out;
}
