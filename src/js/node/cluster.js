// Node's `cluster` module, host-free, as the primary process has it (a test file under `node --test` is
// one): an `EventEmitter` that says it is the primary (`isPrimary`, `isMaster`), has no workers and empty
// `settings`, so a library choosing its path by them (a lock kept in the primary) loads and runs as under
// Node. Its scheduling policy answers as on Linux, where Node 20 answers `SCHED_RR` (Windows:
// `SCHED_NONE`): read in a test it names the host, as `process.platform` does. What starts or stops
// workers (`fork`, `setupPrimary`, which reads the host's command line, `disconnect`, `Worker`) reaches
// the host. Follows `node/host.js`, whose `standIn` it uses.
const EventEmitter = require('events');
const { hostAccess } = globalThis.__fc$nodeErrors;

const cluster = new EventEmitter();
cluster.isWorker = false;
cluster.isMaster = true;
cluster.isPrimary = true;
cluster.Worker = standIn('cluster.Worker');
cluster.workers = Object.create(null);
cluster.settings = {};
cluster.SCHED_NONE = 1;
cluster.SCHED_RR = 2;
Object.defineProperty(cluster, 'schedulingPolicy', {
  get() {
    hostAccess('cluster.schedulingPolicy, which names the host');
    return cluster.SCHED_RR;
  },
  // A library choosing a policy makes it a plain value, as in Node.
  set(value) {
    Object.defineProperty(cluster, 'schedulingPolicy', { value, writable: true, enumerable: true, configurable: true });
  },
  enumerable: true,
  configurable: true,
});
cluster.setupPrimary = standIn('cluster.setupPrimary');
cluster.setupMaster = cluster.setupPrimary;
cluster.fork = standIn('cluster.fork');
cluster.disconnect = standIn('cluster.disconnect');
module.exports = cluster;
