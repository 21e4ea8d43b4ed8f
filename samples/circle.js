// Exercises: an ES5 prototype class with numeric parameters and a method taking another instance of the same class (compare, equals), plus a negative-radius branch.

/*
 * A circle centred on the origin.  The radius may be zero (a point) but never
 * negative; areas and lengths are in the square of the unit / the unit of
 * the radius.
 */

var CIRCLE_EPSILON = 1e-9;

function Circle(radius) {
  if (radius < 0) {
    throw new RangeError('radius must not be negative: ' + radius);
  }
  this.radius = radius;
}

Circle.prototype.area = function () {
  return Math.PI * this.radius * this.radius;
};

Circle.prototype.circumference = function () {
  return 2 * Math.PI * this.radius;
};

/**
 * Grows (factor > 1) or shrinks (0 <= factor < 1) the circle in place.
 * A negative factor would turn the radius negative and is refused.
 */
Circle.prototype.scale = function (factor) {
  if (factor < 0) {
    throw new RangeError('cannot scale by a negative factor: ' + factor);
  }
  this.radius = this.radius * factor;
  return this;
};

/**
 * Orders circles by size: -1 when this one is smaller than `other`, 1 when
 * it is larger, 0 when both areas are equal (up to rounding).
 */
Circle.prototype.compare = function (other) {
  var difference = this.area() - other.area();
  if (Math.abs(difference) < CIRCLE_EPSILON) {
    return 0;
  }
  return difference < 0 ? -1 : 1;
};

/** Whether both circles have the same radius. */
Circle.prototype.equals = function (other) {
  if (other === this) {
    return true;
  }
  return Math.abs(this.radius - other.radius) < CIRCLE_EPSILON;
};

/**
 * Where the point (x, y) lies: 'inside', 'on' the circle's edge, or
 * 'outside'.
 */
Circle.prototype.contains = function (x, y) {
  var distanceSquared = x * x + y * y;
  var radiusSquared = this.radius * this.radius;
  if (Math.abs(distanceSquared - radiusSquared) < CIRCLE_EPSILON) {
    return 'on';
  }
  return distanceSquared < radiusSquared ? 'inside' : 'outside';
};
