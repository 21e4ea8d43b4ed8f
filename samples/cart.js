// Exercises: an array of class instances (known by forEach, then by the elements' own members), an optional argument (typeof undefined) and a callback whose result is a string.

/** An item for sale. */
function Item(name, price) {
  this.name = name;
  this.price = price;
}

/** Items, priced and labelled. */
function Cart() {
  this.items = [];
}

/** Adds every item of `items`; an item without a price of 0 or more is refused. Returns the count. */
Cart.prototype.addAll = function (items) {
  var self = this;
  items.forEach(function (item) {
    if (!(item.price >= 0)) {
      throw new RangeError('an item needs a price of 0 or more');
    }
    self.items.push(item);
  });
  return this.items.length;
};

/** The sum of the prices, less `percent` off when it is given. */
Cart.prototype.total = function (percent) {
  var sum = 0;
  for (var i = 0; i < this.items.length; i++) {
    sum += this.items[i].price;
  }
  if (typeof percent === 'undefined') {
    return sum;
  }
  return sum - (sum * percent) / 100;
};

/** The name of the cheapest item, or null for an empty cart. */
Cart.prototype.cheapest = function () {
  if (this.items.length === 0) {
    return null;
  }
  var best = this.items[0];
  for (var i = 1; i < this.items.length; i++) {
    if (this.items[i].price < best.price) {
      best = this.items[i];
    }
  }
  return best.name;
};

/** One line per item, as `label(item)` writes it; a label that is not a string is refused. */
Cart.prototype.lines = function (label) {
  var out = [];
  for (var i = 0; i < this.items.length; i++) {
    var text = label(this.items[i]);
    if (typeof text !== 'string') {
      throw new TypeError('a label must be a string');
    }
    out.push(text);
  }
  return out;
};
