// A class parameter that must be put into a state first (Warehouse#receive needs a non-empty, sealed Shipment) and a parameter compared with null.
function Shipment(origin) {
  this.origin = origin;
  this.lines = [];
  this.sealed = false;
}

Shipment.prototype.add = function (sku, quantity) {
  if (this.sealed) throw new Error('shipment is sealed');
  if (quantity <= 0) throw new RangeError('quantity must be positive');
  this.lines.push({ sku: sku, quantity: quantity });
  return this.lines.length;
};

Shipment.prototype.seal = function () {
  this.sealed = true;
};

Shipment.prototype.isEmpty = function () {
  return this.lines.length === 0;
};

function Warehouse() {
  this.stock = {};
}

Warehouse.prototype.receive = function (shipment) {
  if (shipment.isEmpty()) return 0;
  if (!shipment.sealed) throw new Error('unsealed shipment');
  var units = 0;
  for (var i = 0; i < shipment.lines.length; i++) {
    var line = shipment.lines[i];
    this.stock[line.sku] = (this.stock[line.sku] || 0) + line.quantity;
    units += line.quantity;
  }
  return units;
};

// The units of one SKU, or of every SKU when sku is null or omitted.
Warehouse.prototype.count = function (sku) {
  if (sku == null) {
    var total = 0;
    for (var key in this.stock) total += this.stock[key];
    return total;
  }
  return this.stock[sku] || 0;
};
