// Exercises: ES6 classes in an ES module: an inheritance chain with super calls, getters and a setter, a static method, and an import from a sibling module.

import { hypotenuse, requirePositive, roundTo } from './geometry-utils.mjs';

/**
 * The base of all shapes.  Subclasses provide `area()` and `perimeter()`;
 * everything else is written in terms of those two.
 */
export class Shape {
  constructor(name) {
    this.name = name;
  }

  area() {
    throw new Error(`${this.constructor.name} does not define area()`);
  }

  perimeter() {
    throw new Error(`${this.constructor.name} does not define perimeter()`);
  }

  /** A one-line description, areas rounded to two decimals. */
  describe() {
    return `${this.name} with area ${roundTo(this.area())} and perimeter ${roundTo(this.perimeter())}`;
  }

  /** Whether this shape covers more surface than `other`. */
  isLargerThan(other) {
    return this.area() > other.area();
  }

  /** A comparator for `Array.prototype.sort`: smallest area first. */
  static byArea(a, b) {
    return a.area() - b.area();
  }
}

export class Rectangle extends Shape {
  constructor(width, height) {
    super('rectangle');
    this.width = requirePositive('width', width);
    this.height = requirePositive('height', height);
  }

  area() {
    return this.width * this.height;
  }

  perimeter() {
    return 2 * (this.width + this.height);
  }

  get diagonal() {
    return hypotenuse(this.width, this.height);
  }

  get isSquare() {
    return this.width === this.height;
  }

  /** A new rectangle `factor` times as large in each direction. */
  scaled(factor) {
    return new Rectangle(this.width * factor, this.height * factor);
  }
}

export class Square extends Rectangle {
  constructor(side) {
    super(side, side);
    this.name = 'square';
  }

  get side() {
    return this.width;
  }

  set side(length) {
    this.width = this.height = requirePositive('side', length);
  }

  /** Squares stay squares when scaled. */
  scaled(factor) {
    return new Square(super.scaled(factor).width);
  }

  /** The largest square that fits inside `rectangle`. */
  static inscribedIn(rectangle) {
    return new Square(Math.min(rectangle.width, rectangle.height));
  }
}
