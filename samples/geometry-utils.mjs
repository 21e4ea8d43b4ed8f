// Exercises: a helper ES module with plain exported functions (no classes) imported by shapes.mjs.

/** Rounds `value` to `places` decimals, for display and stable comparisons. */
export function roundTo(value, places = 2) {
  const factor = 10 ** places;
  return Math.round(value * factor) / factor;
}

/** Throws a RangeError unless `value` is a finite number greater than zero. */
export function requirePositive(name, value) {
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0) {
    throw new RangeError(`${name} must be a positive number, got ${value}`);
  }
  return value;
}

/** Length of the hypotenuse of a right triangle with legs `a` and `b`. */
export function hypotenuse(a, b) {
  return Math.sqrt(a * a + b * b);
}
