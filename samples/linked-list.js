// Exercises: an ES5 plain-script class whose parameters are instances of a second class (Node), inferred from link accesses only, with branches on the list's state.

/*
 * A doubly linked circular list.
 *
 * The list stores Node objects and threads them together through their
 * `next` and `prev` links; the last node's `next` is the head and the head's
 * `prev` is the last node.  The list never looks at a node's payload, so any
 * value can be kept in `data`.
 */

/**
 * One element of a LinkedList.
 * @param {*} data the payload, kept as is
 */
function Node(data) {
  this.data = data;
  this.next = null;
  this.prev = null;
}

function LinkedList() {
  this.head = null;
  this.length = 0;
}

/** Whether the list holds no node. */
LinkedList.prototype.isEmpty = function () {
  return this.head === null;
};

/** The number of nodes in the list. */
LinkedList.prototype.size = function () {
  return this.length;
};

/**
 * Appends a node at the end of the list.
 * A node can belong to one list only, once: a linked node is refused.
 */
LinkedList.prototype.add = function (node) {
  if (node.next || node.prev) {
    throw new Error('node is already linked');
  }
  if (this.head === null) {
    // A single node is its own neighbour on both sides.
    node.next = node;
    node.prev = node;
    this.head = node;
  } else {
    var tail = this.head.prev;
    tail.next = node;
    node.prev = tail;
    node.next = this.head;
    this.head.prev = node;
  }
  this.length++;
  return this;
};

/**
 * Inserts a node so that it ends up at position `index`
 * (0 makes it the new head, size() appends it).
 */
LinkedList.prototype.insertAt = function (index, node) {
  if (index < 0 || index > this.length || index % 1 !== 0) {
    throw new RangeError('index out of bounds: ' + index);
  }
  if (index === this.length) {
    return this.add(node);
  }
  if (node.next || node.prev) {
    throw new Error('node is already linked');
  }
  var before = this.get(index);
  node.next = before;
  node.prev = before.prev;
  before.prev.next = node;
  before.prev = node;
  if (index === 0) {
    this.head = node;
  }
  this.length++;
  return this;
};

/**
 * Returns the node at position `index`, walking from whichever end is
 * closer.
 */
LinkedList.prototype.get = function (index) {
  if (index < 0 || index >= this.length || index % 1 !== 0) {
    throw new RangeError('index out of bounds: ' + index);
  }
  var current = this.head;
  var i;
  if (index <= this.length / 2) {
    for (i = 0; i < index; i++) {
      current = current.next;
    }
  } else {
    for (i = this.length; i > index; i--) {
      current = current.prev;
    }
  }
  return current;
};

/**
 * Unlinks `node`, which must be a node of this list.  Returns false for a
 * node that is not linked at all.
 */
LinkedList.prototype.remove = function (node) {
  if (!node.next) {
    return false;
  }
  if (this.length === 1) {
    this.head = null;
  } else {
    node.prev.next = node.next;
    node.next.prev = node.prev;
    if (node === this.head) {
      this.head = node.next;
    }
  }
  node.next = null;
  node.prev = null;
  this.length--;
  return true;
};

/** The nodes, head first, in a new array. */
LinkedList.prototype.toArray = function () {
  var result = [];
  var current = this.head;
  for (var i = 0; i < this.length; i++) {
    result.push(current);
    current = current.next;
  }
  return result;
};

/** Removes every node, unlinking each so that it can be added again. */
LinkedList.prototype.clear = function () {
  var nodes = this.toArray();
  for (var i = 0; i < nodes.length; i++) {
    nodes[i].next = null;
    nodes[i].prev = null;
  }
  this.head = null;
  this.length = 0;
};
