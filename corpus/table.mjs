#!/usr/bin/env node
// Measures Flycatcher on the corpus (corpus/packages.txt, fetched by corpus/fetch.sh): for each package,
// `flycatcher generate` on the entry Node loads, then the exported suite under its runner, then the line
// coverage of the package's own files under that suite (corpus/coverage.mjs: c8's report, on the files
// that ran). Prints a Markdown table.
//
//   node corpus/table.mjs [--bin target/release/flycatcher] [--timeout 1] [--budget N] [--seed 1] [--only NAME]...
//                         [--dir] [--out DIR] [--json FILE]
//
// A package is measured on its directory when `generate` takes directories (`--dir`), else on the
// file `require` (or, for ES-module-only packages, `import`) resolves it to. A `typescript-src` package
// is measured on the `.ts` entry its row names (on that entry's folder with `--dir`).
//
// Columns: methods fully covered; `node`, the suite under `node --test` (through tsx for a TypeScript
// suite); `vitest`, a second suite generated with `--format vitest` under vitest (TypeScript suites
// only); `tsc`, `tsc --noEmit` with a strict tsconfig over the TypeScript suites (errors in the suites,
// and apart those in the package's own sources); `lines`, the coverage of the package's files (of its
// `.ts` sources for `typescript-src`) under the node suite; `renamed`, the node suite's tests that fail
// once the package's underscore members are renamed (corpus/refactor.mjs: a refactoring that changes no
// behaviour, so every failure is an assertion on private state).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { args, here, option, packages as corpusPackages, root } from './common.mjs';
import { lineCoverage } from './coverage.mjs';
import { refactorCheck } from './refactor.mjs';

const bin = path.resolve(root, option('--bin', 'target/release/flycatcher'));
const timeout = option('--timeout', '1');
const seed = option('--seed', '1');
// A counted budget per method (`generate --budget`): rows that do not depend on the machine's load, where
// `--timeout` alone caps by time on a busy machine (give a `--timeout` large enough not to cap then).
const budget = option('--budget');
const outRoot = path.resolve(option('--out', path.join(here, 'cache', 'out')));
const byDirectory = args.includes('--dir');

// The runners and tools of tests/runners, as a TypeScript project would have them installed.
const runnerModules = path.join(root, 'tests/runners/node_modules');
const fromRunners = createRequire(path.join(runnerModules, '..', 'package.json'));
const tsx = fromRunners.resolve('tsx');
const vitestCli = path.join(path.dirname(fromRunners.resolve('vitest/package.json')), 'vitest.mjs');
const tsc = path.join(path.dirname(fromRunners.resolve('typescript/package.json')), 'bin', 'tsc');
const minutes = (n) => n * 60 * 1000;

const packages = corpusPackages();

// The file Node loads for the package: `require` first, `import` for ES-module-only packages.
const entryOf = (p) => {
  const base = path.dirname(p.dir);
  const link = path.join(base, 'node_modules', p.name);
  fs.mkdirSync(path.dirname(link), { recursive: true });
  // A link another checkout made may point into a folder that is gone: make it point here.
  if (fs.lstatSync(link, { throwIfNoEntry: false }) && !fs.existsSync(link)) fs.unlinkSync(link);
  if (!fs.existsSync(link)) fs.symlinkSync(p.dir, link, 'dir');
  const resolve = (code, type) =>
    spawnSync(process.execPath, type ? ['--input-type=module', '-e', code] : ['-e', code], { cwd: base, encoding: 'utf8' });
  // A package named like a Node built-in (`events`, `buffer`) resolves to the built-in by name: ask for
  // the folder's path then, which Node resolves through the package's `main`.
  const builtin = `require('module').isBuiltin(${JSON.stringify(p.name)})`;
  const cjs = resolve(`console.log(require.resolve(${builtin} ? require('path').resolve(${JSON.stringify(link)}) : ${JSON.stringify(p.name)}))`);
  if (cjs.status === 0) return fs.realpathSync(cjs.stdout.trim());
  const esm = resolve(`console.log(import.meta.resolve(${JSON.stringify(p.name)}))`, 'module');
  if (esm.status === 0) return fs.realpathSync(fileURLToPath(esm.stdout.trim()));
  return null;
};

const generate = (target, out, report, extra = []) =>
  spawnSync(bin, ['generate', target, '--seed', seed, '--timeout', timeout, '--out', out, '--report', report, '-q', ...(budget ? ['--budget', budget] : []), ...extra], {
    encoding: 'utf8',
    timeout: minutes(20),
  });
const lastLine = (text) => (text || '').trim().split('\n').pop().slice(0, 120);

// The suites written into `dir`: `<Class>.test.js` or `.test.ts` (and their .cjs/.mjs/.cts/.mts kin);
// `failing` adds the `.failing.` suites of skipped tests.
const suitesIn = (dir, failing = false) =>
  fs.existsSync(dir)
    ? fs
        .readdirSync(dir)
        .filter((f) => /\.test\.(c|m)?(j|t)s$/.test(f) && (failing || !f.includes('.failing.')))
        .map((f) => path.join(dir, f))
    : [];
const isTypeScript = (file) => /\.(c|m)?ts$/.test(file);

// `node --test` on the suites (through tsx when they are TypeScript), run in the package's folder as its
// own tests are (tsx reads the tsconfig.json of the folder it runs in: its `target` decides whether class
// fields declared without a value exist): "green (passed)" or "F of N fail".
const nodeTest = (files, typescript, cwd) => {
  const run = spawnSync(process.execPath, [...(typescript ? ['--import', tsx] : []), '--test', ...files.map((f) => path.resolve(f))], {
    cwd,
    encoding: 'utf8',
    timeout: minutes(10),
  });
  const count = (what) => Number((run.stdout.match(new RegExp(`^# ${what} (\\d+)`, 'm')) || [])[1] || 0);
  return run.status === 0 ? `green (${count('pass')})` : `${count('fail')} of ${count('tests')} fail`;
};

// vitest on the suites of `dir`, with a config of its own there (no cache written among the runners), and
// the `oxc` option a suite's header asks for (the code's tsconfig.json extends a file the package does not
// ship, which stops vite's transform unless given the options inline).
const vitest = (dir) => {
  const config = path.join(dir, 'vitest.config.mjs');
  const results = path.join(dir, 'vitest-results.json');
  const settings = { cacheDir: path.join(dir, '.vite'), test: { include: ['*.test.?(c|m)ts'], exclude: ['*.failing.test.*'] } };
  for (const suite of suitesIn(dir)) {
    const asked = fs.readFileSync(suite, 'utf8').match(/^\/\/ .*run with this `oxc` option in the vitest configuration: (\{.*\})$/m);
    if (asked) settings.oxc = JSON.parse(asked[1]);
  }
  fs.writeFileSync(config, `export default ${JSON.stringify(settings)};\n`);
  const run = spawnSync(process.execPath, [vitestCli, 'run', '--root', dir, '--config', config, '--reporter=json', '--outputFile', results], {
    cwd: dir,
    encoding: 'utf8',
    timeout: minutes(10),
  });
  if (!fs.existsSync(results)) return `no result (exit ${run.status ?? run.signal}): ${lastLine(run.stderr)}`;
  const json = JSON.parse(fs.readFileSync(results, 'utf8'));
  return json.success ? `green (${json.numPassedTests})` : `${json.numFailedTests} of ${json.numTotalTests} fail`;
};

// `tsc --noEmit` over the suites, strict, with a tsconfig beside them that takes every import style a
// TypeScript package uses (extensionless, `.js` naming a `.ts`, `.ts`). Errors are counted apart: in
// the suites (ours) and in the package's own sources (the code under test, theirs).
const typeCheck = (out, files) => {
  const tsconfig = path.join(out, 'tsconfig.json');
  const compilerOptions = {
    strict: true,
    noEmit: true,
    target: 'ES2022',
    lib: ['ES2022', 'DOM'],
    module: 'ESNext',
    moduleResolution: 'Bundler',
    allowImportingTsExtensions: true,
    esModuleInterop: true,
    skipLibCheck: true,
    types: ['node'],
  };
  fs.writeFileSync(tsconfig, JSON.stringify({ compilerOptions, files: files.map((f) => path.relative(out, f)) }, null, 2) + '\n');
  // From `out`, where tsc's messages name files relative to.
  const run = spawnSync(process.execPath, [tsc, '-p', tsconfig, '--pretty', 'false'], { cwd: out, encoding: 'utf8', timeout: minutes(10) });
  if (run.status === 0) return 'clean';
  const errors = [...run.stdout.matchAll(/^(.+?)\(\d+,\d+\): error TS\d+/gm)].map((m) => path.resolve(out, m[1]));
  // Errors of no line are of the program tsc was given (two suites whose names differ in case alone,
  // TS1149): the suites' too.
  const unplaced = run.stdout.match(/^error TS\d+/gm)?.length ?? 0;
  if (errors.length + unplaced === 0) return `exit ${run.status ?? run.signal}: ${lastLine(run.stdout || run.stderr)}`;
  const ours = errors.filter((f) => !path.relative(out, f).startsWith('..')).length + unplaced;
  const theirs = errors.length + unplaced - ours;
  return `${ours} error${ours === 1 ? '' : 's'}${theirs ? ` (+${theirs} in the package)` : ''}`;
};

// Suites import `vitest` (and tsc finds @types/node) from the out folder, as from a project's own: a link
// to the runners' real folder (a link left by another checkout is replaced).
fs.mkdirSync(outRoot, { recursive: true });
const modules = path.join(outRoot, 'node_modules');
const runnersReal = fs.realpathSync(runnerModules);
const linked = fs.lstatSync(modules, { throwIfNoEntry: false });
if (linked?.isSymbolicLink() && fs.readlinkSync(modules) !== runnersReal) fs.rmSync(modules);
if (!fs.lstatSync(modules, { throwIfNoEntry: false })) fs.symlinkSync(runnersReal, modules, 'dir');

const rows = [];
for (const p of packages) {
  const row = { package: p.spec, shape: p.shape };
  rows.push(row);
  if (!fs.existsSync(p.dir)) {
    row.note = 'not fetched (run corpus/fetch.sh)';
    continue;
  }
  const target = p.entry ? (byDirectory ? path.dirname(p.entry) : p.entry) : byDirectory ? p.dir : entryOf(p);
  if (!target) {
    row.note = 'Node cannot load it';
    continue;
  }
  const out = path.join(outRoot, p.spec.replace('/', '+'));
  fs.rmSync(out, { recursive: true, force: true });
  const report = `${out}.report.json`;
  fs.rmSync(report, { force: true });
  const started = Date.now();
  const run = generate(target, out, report);
  row.seconds = ((Date.now() - started) / 1000).toFixed(1);
  if (run.status !== 0) {
    // Paths inside the package, relative to it, so that the reason fits in the column.
    let said = run.stderr || '';
    for (const prefix of new Set([p.dir, fs.realpathSync(p.dir)])) said = said.replaceAll(`${prefix}/`, '');
    row.note = `generate exit ${run.status ?? run.signal}: ${lastLine(said.replace(/^flycatcher: /gm, ''))}`;
  }
  if (fs.existsSync(report)) {
    const json = JSON.parse(fs.readFileSync(report, 'utf8'));
    const methods = json.classes.flatMap((c) => c.methods);
    row.methods = `${methods.filter((m) => m.covered === m.statements).length}/${methods.length}`;
  }
  const files = suitesIn(out);
  if (files.length === 0) {
    row.node = 'no suite';
    continue;
  }
  const typescript = files.some(isTypeScript);
  row.node = nodeTest(files, typescript, p.dir);
  row.renamed = refactorCheck(p, files, tsx);
  row.vitest = 'n/a';
  row.tsc = 'n/a';
  if (typescript) {
    const vitestOut = path.join(out, 'vitest');
    const second = generate(target, vitestOut, `${out}.vitest.report.json`, ['--format', 'vitest']);
    row.vitest = suitesIn(vitestOut).length ? vitest(vitestOut) : `no suite (exit ${second.status}): ${lastLine(second.stderr)}`;
    row.tsc = typeCheck(out, [...suitesIn(out, true), ...suitesIn(vitestOut, true)].filter(isTypeScript));
  }
  // The package's own files under the suite: below its folder (not the suite's), its `.ts` sources only
  // when those are what was measured.
  // (An entry at the package's root is globbed as `**`: c8 takes `/**` as an absolute path.)
  const folder = p.entry && path.relative(p.dir, path.dirname(p.entry));
  const include = p.entry ? [folder ? `${folder}/**` : '**'] : [];
  const command = [process.execPath, ...(typescript ? ['--import', tsx] : []), '--test', ...files];
  const coverage = await lineCoverage(command, { cwd: p.dir, include, timeout: minutes(10) });
  if (coverage) {
    if (coverage.pct !== null) row.lines = `${coverage.pct}%`;
    row.measured = coverage.files;
    if (coverage.unmapped.length) {
      row.note = [row.note, `no source map, not counted: ${coverage.unmapped.join(', ')}`].filter(Boolean).join('; ');
    }
  }
}

const columns = ['package', 'shape', 'methods', 'node', 'renamed', 'vitest', 'tsc', 'lines', 'seconds', 'note'];
console.log(`| ${columns.join(' | ')} |`);
console.log(`|${columns.map(() => '---').join('|')}|`);
for (const row of rows) console.log(`| ${columns.map((c) => row[c] ?? '').join(' | ')} |`);
const jsonPath = option('--json');
if (jsonPath) fs.writeFileSync(jsonPath, JSON.stringify(rows, null, 2) + '\n');
