#!/usr/bin/env node
// Measures Flycatcher on the corpus (corpus/packages.txt, fetched by corpus/fetch.sh): for each package,
// `flycatcher generate` on the entry Node loads, then the exported suite under `node --test`, then c8's
// line coverage of the package's own files under that suite. Prints a Markdown table.
//
//   node corpus/table.mjs [--bin target/release/flycatcher] [--timeout 1] [--seed 1] [--only NAME]...
//                         [--out DIR] [--json FILE]
//
// A package is measured on its directory when `generate` takes directories (`--dir`), else on the
// file `require` (or, for ES-module-only packages, `import`) resolves it to.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { args, here, option, packages as corpusPackages, root } from './common.mjs';

const bin = path.resolve(root, option('--bin', 'target/release/flycatcher'));
const timeout = option('--timeout', '1');
const seed = option('--seed', '1');
const outRoot = path.resolve(option('--out', path.join(here, 'cache', 'out')));
const byDirectory = args.includes('--dir');
const c8 = path.join(root, 'tests/runners/node_modules/.bin/c8');

const packages = corpusPackages();

// The file Node loads for the package: `require` first, `import` for ES-module-only packages.
const entryOf = (p) => {
  const base = path.dirname(p.dir);
  const link = path.join(base, 'node_modules', p.name);
  fs.mkdirSync(path.dirname(link), { recursive: true });
  if (!fs.existsSync(link)) fs.symlinkSync(p.dir, link, 'dir');
  const resolve = (code, type) =>
    spawnSync(process.execPath, type ? ['--input-type=module', '-e', code] : ['-e', code], { cwd: base, encoding: 'utf8' });
  const cjs = resolve(`console.log(require.resolve(${JSON.stringify(p.name)}))`);
  if (cjs.status === 0) return fs.realpathSync(cjs.stdout.trim());
  const esm = resolve(`console.log(import.meta.resolve(${JSON.stringify(p.name)}))`, 'module');
  if (esm.status === 0) return fs.realpathSync(fileURLToPath(esm.stdout.trim()));
  return null;
};

const rows = [];
for (const p of packages) {
  const row = { package: p.spec, shape: p.shape };
  rows.push(row);
  if (!fs.existsSync(p.dir)) {
    row.note = 'not fetched (run corpus/fetch.sh)';
    continue;
  }
  const target = byDirectory ? p.dir : entryOf(p);
  if (!target) {
    row.note = 'Node cannot load it';
    continue;
  }
  const out = path.join(outRoot, p.spec.replace('/', '+'));
  fs.rmSync(out, { recursive: true, force: true });
  const report = `${out}.report.json`;
  const started = Date.now();
  const run = spawnSync(bin, ['generate', target, '--seed', seed, '--timeout', timeout, '--out', out, '--report', report, '-q'], {
    encoding: 'utf8',
    timeout: 20 * 60 * 1000,
  });
  row.seconds = ((Date.now() - started) / 1000).toFixed(1);
  if (run.status !== 0) {
    row.note = `generate exit ${run.status ?? run.signal}: ${(run.stderr || '').trim().split('\n').pop().slice(0, 120)}`;
  }
  if (fs.existsSync(report)) {
    const json = JSON.parse(fs.readFileSync(report, 'utf8'));
    const methods = json.classes.flatMap((c) => c.methods);
    row.methods = `${methods.filter((m) => m.covered === m.statements).length}/${methods.length}`;
  }
  const suites = fs.existsSync(out) ? fs.readdirSync(out).filter((f) => /\.test\.(c|m)?js$/.test(f) && !f.includes('.failing.')) : [];
  if (suites.length === 0) {
    row.node = 'no suite';
    continue;
  }
  const files = suites.map((f) => path.join(out, f));
  const test = spawnSync(process.execPath, ['--test', ...files], { encoding: 'utf8', timeout: 10 * 60 * 1000 });
  const count = (what) => Number((test.stdout.match(new RegExp(`^# ${what} (\\d+)`, 'm')) || [])[1] || 0);
  row.node = test.status === 0 ? `green (${count('pass')})` : `${count('fail')} of ${count('tests')} fail`;
  const coverage = path.join(out, 'coverage');
  // c8 measures the files below its working directory: the package's own, not the suite's.
  spawnSync(c8, ['--reporter=json-summary', '--reports-dir', coverage, process.execPath, '--test', ...files], {
    cwd: p.dir,
    encoding: 'utf8',
    timeout: 10 * 60 * 1000,
  });
  const summary = path.join(coverage, 'coverage-summary.json');
  if (fs.existsSync(summary)) row.lines = `${JSON.parse(fs.readFileSync(summary, 'utf8')).total.lines.pct}%`;
}

const columns = ['package', 'shape', 'methods', 'node', 'lines', 'seconds', 'note'];
console.log(`| ${columns.join(' | ')} |`);
console.log(`|${columns.map(() => '---').join('|')}|`);
for (const row of rows) console.log(`| ${columns.map((c) => row[c] ?? '').join(' | ')} |`);
const jsonPath = option('--json');
if (jsonPath) fs.writeFileSync(jsonPath, JSON.stringify(rows, null, 2) + '\n');
