#!/usr/bin/env node
// Measures Flycatcher on the benchmark methods of its report's evaluation (chapter 7 of the report in
// jdd08/Flycatcher; the classes fetched into corpus/report-cache by corpus/report-fetch.sh): for each
// file, `flycatcher generate FILE --timeout 1 --seed 1` without hints (no --class, --method or value
// generators), then for each method the report names, the statements and branches Flycatcher reports
// covered, and whether its class's exported suite passes under `node --test`. Prints a Markdown table.
//
//   node corpus/report.mjs [--bin target/release/flycatcher] [--timeout 1] [--seed 1] [--budget UNITS]
//                          [--out DIR]
//
// `--timeout 1` is a wall-clock cap: on a busy machine a method stops there with fewer candidates
// ("time cap" in the stop column). `--budget 20000` (what --timeout 1 gives a 2026 machine) with a
// large `--timeout` measures the same work on any machine and under any load.
// The report's table names 23 methods; the code names the splay tree's `splay` `splay_`, and the
// red-black tree's `insert` and `contains` are its Node's. Three of its methods cannot be fully covered:
// - BinarySearchTree's `size`: its counting callback is never called (its `traverse` ignores it);
// - its `remove`: the root case assigns the children alone (`replacement.right = this._root.right`)
//   only when `replacementParent === null`, but that variable starts `undefined` and is only ever set
//   to a node (a root whose left child has no right child throws there instead);
// - Poker's `RankHandInt`, 42 of its statements: a straight flush is looked for only when a flush
//   scored exactly 123, which needs its five kickers to be 2s (worth 0), and four 2s score four of a
//   kind first (40 assignments and the message); and the two-pair line scoring 28 tests the 6s and 5s
//   that the line scoring 31 took.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { here, option, root } from './common.mjs';

const bin = path.resolve(root, option('--bin', 'target/release/flycatcher'));
const timeout = option('--timeout', '1');
const seed = option('--seed', '1');
const budget = option('--budget', null);
const outRoot = path.resolve(option('--out', path.join(here, 'report-cache', 'out')));
const cache = path.join(here, 'report-cache');

// The report's benchmark methods, by file and class, in the order of its table.
const benchmark = [
  ['triangleType.js', 'Triangle', ['getType']],
  ['linkedList.js', 'LinkedList', ['append', 'remove', 'prepend', 'insertAfter', 'insertBefore', 'at']],
  ['bst.js', 'BinarySearchTree', ['add', 'contains', 'remove', 'size']],
  ['redblack.js', 'Node', ['insert', 'contains']],
  ['splaytree.js', 'SplayTree', ['splay_', 'insert', 'remove', 'findMax', 'findGreatestLessThan']],
  ['luhn.js', 'Luhn', ['isValidIdentifier']],
  ['base64.js', 'Base64', ['encode', 'decode']],
  ['sha1.js', 'Sha1', ['hash']],
  ['poker.js', 'Poker', ['RankHandInt']],
];
const unreachable = new Set(['BinarySearchTree.size', 'BinarySearchTree.remove', 'Poker.RankHandInt']);

// `node --test` on one suite, in its folder: "green (N)" or "F of N fail".
const nodeTest = (file) => {
  if (!fs.existsSync(file)) return 'no suite';
  const run = spawnSync(process.execPath, ['--test', file], { cwd: path.dirname(file), encoding: 'utf8', timeout: 10 * 60 * 1000 });
  const count = (what) => Number((run.stdout.match(new RegExp(`^# ${what} (\\d+)`, 'm')) || [])[1] || 0);
  return run.status === 0 ? `green (${count('pass')})` : `${count('fail')} of ${count('tests')} fail`;
};

const missing = benchmark.filter(([file]) => !fs.existsSync(path.join(cache, file)));
if (missing.length) {
  console.error(`not fetched: ${missing.map(([f]) => f).join(', ')} (run corpus/report-fetch.sh)`);
  process.exit(1);
}

const percent = (n, of) => (of ? `${((100 * n) / of).toFixed(0)} %` : '-');
const lines = ['| class | method | lines | branches | stop | node --test |', '|---|---|---|---|---|---|'];
let full = 0;
let reachable = 0;
let fullReachable = 0;
let total = 0;
for (const [file, className, methods] of benchmark) {
  const out = path.join(outRoot, path.basename(file, '.js'));
  const report = `${out}.json`;
  fs.rmSync(out, { recursive: true, force: true });
  fs.rmSync(report, { force: true });
  const run = spawnSync(bin, ['generate', path.join(cache, file), '--seed', seed, '--timeout', timeout, '--out', out, '--report', report, '-q', ...(budget ? ['--budget', budget] : [])], {
    encoding: 'utf8',
    timeout: 30 * 60 * 1000,
  });
  const json = fs.existsSync(report) ? JSON.parse(fs.readFileSync(report, 'utf8')) : { classes: [] };
  const measured = json.classes.find((c) => c.name === className);
  const suite = nodeTest(path.join(out, `${className}.test.js`));
  for (const name of methods) {
    total += 1;
    const key = `${className}.${name}`;
    if (!unreachable.has(key)) reachable += 1;
    const m = measured?.methods.find((x) => x.name === name);
    if (!m) {
      lines.push(`| ${className} | ${name} | not tested (generate exit ${run.status ?? run.signal}) | | | ${suite} |`);
      continue;
    }
    const covered = m.covered === m.statements;
    if (covered) {
      full += 1;
      if (!unreachable.has(key)) fullReachable += 1;
    }
    const lineCell = `${m.covered}/${m.statements} (${percent(m.covered, m.statements)})${covered ? '' : ' **partial**'}`;
    const branchCell = `${m.branches_covered}/${m.branches} (${percent(m.branches_covered, m.branches)})`;
    lines.push(`| ${className} | ${name}${unreachable.has(key) ? ' (unreachable statements)' : ''} | ${lineCell} | ${branchCell} | ${m.stop} | ${suite} |`);
  }
}
console.log(lines.join('\n'));
console.log(`\nFully covered (lines): ${full} of ${total}; of the ${reachable} fully reachable, ${fullReachable}.`);
