// Exercises: the classic triangle classifier: numeric constructor arguments whose equalities and sums pick the branch, with validation and degenerate cases.

/*
 * A triangle given by the lengths of its three sides, in any order.
 *
 *   new Triangle(3, 4, 5).classify();   // 'scalene'
 *   new Triangle(3, 4, 5).isRight();    // true
 *   new Triangle(1, 2, 3).classify();   // 'degenerate' (a flat triangle)
 */

// Relative tolerance for comparing lengths computed with floating point.
var TRIANGLE_TOLERANCE = 1e-10;

function Triangle(a, b, c) {
  this.a = a;
  this.b = b;
  this.c = c;
}

/** The sides, shortest first. */
Triangle.prototype.sortedSides = function () {
  return [this.a, this.b, this.c].sort(function (x, y) {
    return x - y;
  });
};

/**
 * 'equilateral', 'isosceles' or 'scalene' for a proper triangle;
 * 'degenerate' when the sides are positive but the triangle is flat
 * (the two shorter sides add up to the longest); 'invalid' otherwise.
 */
Triangle.prototype.classify = function () {
  var sides = this.sortedSides();
  var shortest = sides[0];
  var middle = sides[1];
  var longest = sides[2];

  for (var i = 0; i < sides.length; i++) {
    // Written so that NaN fails too: zero, negative, NaN and infinite
    // lengths make no triangle.
    if (!(sides[i] > 0) || sides[i] === Infinity) {
      return 'invalid';
    }
  }
  if (shortest + middle < longest) {
    return 'invalid';
  }
  if (shortest + middle === longest) {
    return 'degenerate';
  }
  if (shortest === longest) {
    return 'equilateral';
  }
  if (shortest === middle || middle === longest) {
    return 'isosceles';
  }
  return 'scalene';
};

Triangle.prototype.perimeter = function () {
  return this.a + this.b + this.c;
};

/**
 * The area, by Heron's formula.  Throws for side lengths that do not make
 * a triangle; a degenerate triangle has area 0.
 */
Triangle.prototype.area = function () {
  var kind = this.classify();
  if (kind === 'invalid') {
    throw new RangeError('not a triangle: ' + this.a + ', ' + this.b + ', ' + this.c);
  }
  if (kind === 'degenerate') {
    return 0;
  }
  var s = (this.a + this.b + this.c) / 2;
  return Math.sqrt(s * (s - this.a) * (s - this.b) * (s - this.c));
};

/** Whether the triangle has a right angle (Pythagoras, up to rounding). */
Triangle.prototype.isRight = function () {
  var kind = this.classify();
  if (kind === 'invalid' || kind === 'degenerate') {
    return false;
  }
  var sides = this.sortedSides();
  var legs = sides[0] * sides[0] + sides[1] * sides[1];
  var hypotenuse = sides[2] * sides[2];
  return Math.abs(legs - hypotenuse) <= TRIANGLE_TOLERANCE * hypotenuse;
};
