// Exercises `flycatcher record`: an entry script (run after isbn.js and linked-list.js, like script tags of a page) that really uses IsbnValidator and LinkedList, with realistic ISBNs.

/*
 * A reading list: book numbers typed by people are checked, converted to
 * ISBN-10 for an old catalogue, and kept in order in a linked list.
 *
 *   flycatcher record samples/demo-reading-list.js samples/isbn.js samples/linked-list.js
 */

var validator = new IsbnValidator();
var lenient = new IsbnValidator(false);
var readingList = new LinkedList();

var typed = [
  '978-0-306-40615-7',
  '9780306406157',
  '978-0-13-110362-7',
  '978-1-4028-9462-6',
  '979-10-90636-07-1',
  '978-0-306-40615-8',
  '-978-0-306-40615-7',
  '978--0-306-40615-7',
  '978-0-201-63361-0',
  '97802016336',
  'not an isbn'
];

var accepted = [];
typed.forEach(function (code) {
  if (validator.isValid(code)) {
    var node = new Node(validator.normalize(code));
    readingList.add(node);
    accepted.push(node);
    var old;
    try {
      old = validator.toIsbn10(code);
    } catch (e) {
      old = 'error: ' + e.message;
    }
    console.log(code, 'ok; ISBN-10:', old === null ? 'none' : old);
  } else {
    console.log(code, 'rejected; normalized:', validator.normalize(code), 'leniently:', lenient.normalize(code));
  }
});

try {
  validator.toIsbn10('978-0-306-40615-8');
} catch (e) {
  console.log('toIsbn10 refused:', e.message);
}
console.log('check digit of 978030640615:', validator.checkDigit('978030640615'));
try {
  validator.checkDigit('12345');
} catch (e) {
  console.log('checkDigit refused:', e.message);
}

console.log('reading list:', readingList.size(), 'books');
var second = readingList.get(1);
console.log('second book:', second.data, 'last book:', readingList.get(readingList.size() - 1).data);
readingList.remove(accepted[0]);
var extra = new Node('9780131103627');
readingList.insertAt(1, extra);
try {
  readingList.add(extra);
} catch (e) {
  console.log('add refused:', e.message);
}
console.log('after changes:', readingList.toArray().map(function (node) { return node.data; }).join(', '));
console.log('empty?', readingList.isEmpty());
readingList.clear();
console.log('cleared; empty?', readingList.isEmpty(), 'size', readingList.size());
