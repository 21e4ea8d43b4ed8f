// Exercises: methods that never return on some inputs (endless loop, endless recursion, unbounded allocation, exponential time) and throw on others, while behaving on ordinary ones.

/*
 * Small number-sequence utilities, written the straightforward way: each
 * is correct for the inputs it was meant for (non-negative integers of a
 * reasonable size) and has no guard against the others.
 */

function Sequences() {
  this.calls = 0;
}

/**
 * Steps of the Collatz process from n down to 1 (halve even numbers,
 * triple and add one to odd ones).
 * Never ends for 0 and for negative numbers, which cycle without reaching 1.
 */
Sequences.prototype.collatzSteps = function (n) {
  this.calls++;
  var steps = 0;
  while (n !== 1) {
    n = n % 2 === 0 ? n / 2 : 3 * n + 1;
    steps++;
  }
  return steps;
};

/**
 * The smallest prime greater than n.
 * Never ends when n is not a number (NaN never becomes prime).
 */
Sequences.prototype.nextPrime = function (n) {
  this.calls++;
  var candidate = Math.floor(n) + 1;
  while (true) {
    if (this.isPrime(candidate)) {
      return candidate;
    }
    candidate++;
  }
};

/** Whether n is a prime number (trial division). */
Sequences.prototype.isPrime = function (n) {
  if (n < 2 || n % 1 !== 0) {
    return false;
  }
  for (var d = 2; d * d <= n; d++) {
    if (n % d === 0) {
      return false;
    }
  }
  return true;
};

/**
 * n!, recursively.  Throws beyond 170!, which is too large for a number;
 * recurses until the stack overflows for negative or fractional n.
 */
Sequences.prototype.factorial = function (n) {
  this.calls++;
  if (n > 170) {
    throw new RangeError('factorial(' + n + ') does not fit in a number');
  }
  if (n === 0 || n === 1) {
    return 1;
  }
  return n * this.factorial(n - 1);
};

/**
 * The n-th Fibonacci number, by the textbook double recursion: fine up to
 * about 25, takes seconds from about 35, and for larger n effectively forever.
 */
Sequences.prototype.fibonacci = function (n) {
  this.calls++;
  if (n < 2) {
    return n;
  }
  return this.fibonacci(n - 1) + this.fibonacci(n - 2);
};

/**
 * The integers 0, 1, ..., count - 1.
 * Fills memory without end when count is negative or fractional, since the
 * loop only stops at exactly `count`.
 */
Sequences.prototype.range = function (count) {
  this.calls++;
  var result = [];
  for (var i = 0; i !== count; i++) {
    result.push(i);
  }
  return result;
};

/** `part` as a percentage of `whole`, rounded to one decimal. */
Sequences.prototype.percent = function (part, whole) {
  if (whole === 0) {
    throw new RangeError('percent of nothing');
  }
  return Math.round(part / whole * 1000) / 10;
};
