// Node's `tty` module, host-free, as code sees it under `node --test`, where exported suites run: the
// runner gives each test file pipes for its standard streams (a terminal included), so no descriptor is a
// terminal and `isatty` answers false (a logger choosing colours, supports-color while it loads). Opening a
// terminal's stream (`ReadStream`, `WriteStream`) reaches the host. Follows `node/host.js`, whose
// `standIn` it uses.
module.exports = {
  // Node answers false for what is not a descriptor too.
  isatty(fd) {
    return false;
  },
  ReadStream: standIn('tty.ReadStream'),
  WriteStream: standIn('tty.WriteStream'),
};
