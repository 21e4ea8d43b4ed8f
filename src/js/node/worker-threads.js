// Node's `worker_threads` module, host-free, as the main thread has it (a test file under `node --test`
// runs there): `isMainThread`, no `parentPort` nor `workerData`, thread 0, no resource limits, and no
// environment data set, so a library choosing its path by them loads and runs as under Node. Starting a
// thread (`Worker`), message ports and channels (which the sandbox's globals lack too), and what moves or
// marks values for other threads reach the host. Follows `node/host.js`, whose `standIn` it uses.
module.exports = {
  isMainThread: true,
  MessagePort: standIn('worker_threads.MessagePort'),
  MessageChannel: standIn('worker_threads.MessageChannel'),
  markAsUntransferable: standIn('worker_threads.markAsUntransferable'),
  moveMessagePortToContext: standIn('worker_threads.moveMessagePortToContext'),
  receiveMessageOnPort: standIn('worker_threads.receiveMessageOnPort'),
  resourceLimits: {},
  postMessageToThread: standIn('worker_threads.postMessageToThread'),
  threadId: 0,
  SHARE_ENV: Symbol.for('nodejs.worker_threads.SHARE_ENV'),
  Worker: standIn('worker_threads.Worker'),
  parentPort: null,
  workerData: null,
  BroadcastChannel: standIn('worker_threads.BroadcastChannel'),
  // Setting data for the threads this one starts is host access, so none is ever set here: as in Node's
  // main thread before any is set, every key reads undefined.
  setEnvironmentData: standIn('worker_threads.setEnvironmentData'),
  getEnvironmentData(key) {
    return undefined;
  },
};
