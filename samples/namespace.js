// Exercises: classes reached through a nested namespace object (Geo.Point, Geo.Shapes.Rect), constructors that take other classes, and a class assigned to an undeclared global.

/*
 * A little 2-D geometry kit, published under the `Geo` namespace so that it
 * can be dropped into a page next to other scripts.  Coordinates grow to the
 * right (x) and downwards (y), as on a screen.
 */

var Geo = Geo || {};
Geo.Shapes = Geo.Shapes || {};

/** A point on the plane. */
Geo.Point = function (x, y) {
  this.x = x;
  this.y = y;
};

/** Euclidean distance to another point. */
Geo.Point.prototype.distanceTo = function (other) {
  var dx = other.x - this.x;
  var dy = other.y - this.y;
  return Math.sqrt(dx * dx + dy * dy);
};

/** A new point, moved by (dx, dy). */
Geo.Point.prototype.translate = function (dx, dy) {
  return new Geo.Point(this.x + dx, this.y + dy);
};

Geo.Point.prototype.equals = function (other) {
  return this.x === other.x && this.y === other.y;
};

/**
 * An axis-aligned rectangle.
 * @param {Geo.Point} topLeft the corner with the smallest x and y
 */
Geo.Shapes.Rect = function (topLeft, width, height) {
  if (width < 0 || height < 0) {
    throw new RangeError('a rectangle cannot have a negative size');
  }
  this.topLeft = topLeft;
  this.width = width;
  this.height = height;
};

Geo.Shapes.Rect.prototype.area = function () {
  return this.width * this.height;
};

Geo.Shapes.Rect.prototype.center = function () {
  return new Geo.Point(this.topLeft.x + this.width / 2, this.topLeft.y + this.height / 2);
};

/** Whether `point` lies inside or on the edge of the rectangle. */
Geo.Shapes.Rect.prototype.contains = function (point) {
  var left = this.topLeft.x;
  var top = this.topLeft.y;
  if (point.x < left || point.x > left + this.width) {
    return false;
  }
  if (point.y < top || point.y > top + this.height) {
    return false;
  }
  return true;
};

/** Whether two rectangles overlap (touching edges count). */
Geo.Shapes.Rect.prototype.intersects = function (other) {
  var a = this.topLeft;
  var b = other.topLeft;
  return a.x <= b.x + other.width && b.x <= a.x + this.width &&
    a.y <= b.y + other.height && b.y <= a.y + this.height;
};

/*
 * A point quadtree over a rectangle: each cell keeps up to `capacity` points
 * and then splits into four.  Declared as an implicit global, the way the
 * rest of the application expects to find it.
 */
QuadTree = function (bounds, capacity) {
  this.bounds = bounds;
  this.capacity = capacity > 0 ? Math.floor(capacity) : 4;
  this.points = [];
  this.children = null;
  this.depth = 0;
};

// Deep enough for any screen; also stops endless splitting on repeated points.
QuadTree.MAX_DEPTH = 8;

/** Adds a point; returns false when it lies outside the tree's bounds. */
QuadTree.prototype.insert = function (point) {
  if (!this.bounds.contains(point)) {
    return false;
  }
  if (this.children === null) {
    if (this.points.length < this.capacity || this.depth >= QuadTree.MAX_DEPTH) {
      this.points.push(point);
      return true;
    }
    this.split();
  }
  // Children are numbered in reading order: top-left, top-right,
  // bottom-left, bottom-right.
  var b = this.bounds;
  var right = point.x >= b.topLeft.x + b.width / 2 ? 1 : 0;
  var bottom = point.y >= b.topLeft.y + b.height / 2 ? 2 : 0;
  return this.children[right + bottom].insert(point);
};

/** Splits a full cell into four and hands its points down. */
QuadTree.prototype.split = function () {
  if (this.children !== null) {
    return;
  }
  var b = this.bounds;
  var w = b.width / 2;
  var h = b.height / 2;
  var x = b.topLeft.x;
  var y = b.topLeft.y;
  var corners = [
    new Geo.Point(x, y), new Geo.Point(x + w, y),
    new Geo.Point(x, y + h), new Geo.Point(x + w, y + h)
  ];
  this.children = [];
  for (var i = 0; i < corners.length; i++) {
    var child = new QuadTree(new Geo.Shapes.Rect(corners[i], w, h), this.capacity);
    child.depth = this.depth + 1;
    this.children.push(child);
  }
  var points = this.points;
  this.points = [];
  for (var j = 0; j < points.length; j++) {
    this.insert(points[j]);
  }
};

/** The points that lie inside `range` (a Geo.Shapes.Rect). */
QuadTree.prototype.query = function (range) {
  var found = [];
  if (!this.bounds.intersects(range)) {
    return found;
  }
  for (var i = 0; i < this.points.length; i++) {
    if (range.contains(this.points[i])) {
      found.push(this.points[i]);
    }
  }
  if (this.children !== null) {
    for (var k = 0; k < this.children.length; k++) {
      found = found.concat(this.children[k].query(range));
    }
  }
  return found;
};

/** How many points the tree holds. */
QuadTree.prototype.size = function () {
  var count = this.points.length;
  if (this.children !== null) {
    for (var i = 0; i < this.children.length; i++) {
      count += this.children[i].size();
    }
  }
  return count;
};
