#!/usr/bin/env node
// Crash sweep: `flycatcher generate` with a short budget on every JavaScript file of the corpus packages
// (corpus/packages.txt, fetched by corpus/fetch.sh), and on the `.ts` sources of the `typescript-src`
// ones, each classified as
//   ok       exit 0 with a suite written under --out
//   refusal  exit 2 with one clear line on stderr (no class, unusable input...)
//   panic    a Rust panic or a crash by signal
//   engine   'JavaScript engine error': Flycatcher's own JavaScript or the engine failed
//   hang     killed after --kill seconds (a run is --timeout per method: an index of 500 methods takes a minute)
//   memory   peak resident memory above --max-rss megabytes
//   empty    exit 0 with nothing written
//   outside  something written outside --out (in the package or the working folder)
// Prints the counts per class as a Markdown table, then the files behind every class but ok and refusal.
//
//   node corpus/sweep.mjs --out DIR [--bin target/release/flycatcher] [--timeout 0.2] [--kill 300]
//                         [--max-rss 2048] [--only NAME]... [--json FILE]
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { option, packages as corpusPackages, root } from './common.mjs';

const bin = path.resolve(root, option('--bin', 'target/release/flycatcher'));
const timeout = option('--timeout', '0.2');
const kill = Number(option('--kill', '300'));
const maxRss = Number(option('--max-rss', '2048'));
const outOption = option('--out', null);
if (!outOption) {
  console.error('sweep: --out DIR is required (the suites of every file go under it)');
  process.exit(2);
}
const outRoot = path.resolve(outOption);

const packages = corpusPackages();

// Every file under `dir` with its size and modification time: what a run must leave as it was.
const listing = (dir, found = new Map()) => {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) listing(full, found);
    else {
      const s = fs.lstatSync(full);
      found.set(full, `${s.size}:${s.mtimeMs}`);
    }
  }
  return found;
};
const same = (a, b) => a.size === b.size && [...a].every(([k, v]) => b.get(k) === v);
// The files to sweep: every JavaScript file, and for a `typescript-src` package its TypeScript sources
// too (declaration files hold no code to run).
const sources = (p) =>
  [...listing(p.dir).keys()]
    .filter((f) => /\.(c|m)?js$/.test(f) || (p.entry && /\.(c|m)?ts$/.test(f) && !/\.d\.(c|m)?ts$/.test(f)))
    .filter((f) => !f.split(path.sep).includes('node_modules'))
    .sort();

const classify = (run, out, rss, wroteOutside) => {
  const stderr = run.stderr || '';
  // 124: `timeout` ended the run at --kill seconds; 137: it had to SIGKILL it after that.
  if ((run.error && run.error.code === 'ETIMEDOUT') || run.status === 124 || run.status === 137) return 'hang';
  if (stderr.includes('panicked') || (run.signal && run.signal !== 'SIGTERM') || run.status === 101) return 'panic';
  if (rss > maxRss * 1024) return 'memory';
  if (stderr.includes('JavaScript engine error')) return 'engine';
  if (wroteOutside) return 'outside';
  if (run.status === 0) return fs.existsSync(out) && fs.readdirSync(out).length > 0 ? 'ok' : 'empty';
  const lines = stderr.trim().split('\n').filter((l) => !l.startsWith('[') && !l.startsWith('warning'));
  return run.status === 2 && lines.length === 1 ? 'refusal' : 'panic';
};

const json = option('--json', null);
const classes = ['ok', 'refusal', 'panic', 'engine', 'hang', 'memory', 'empty', 'outside'];
const counts = Object.fromEntries(classes.map((c) => [c, 0]));
const results = [];
for (const p of packages) {
  if (!fs.existsSync(p.dir)) {
    console.error(`sweep: ${p.spec} is not fetched (run corpus/fetch.sh)`);
    continue;
  }
  for (const file of sources(p)) {
    const relative = path.relative(p.dir, file);
    const out = path.join(outRoot, p.spec.replace('/', '+'), relative.replace(/[\\/]/g, '__'));
    fs.rmSync(out, { recursive: true, force: true });
    const work = fs.mkdtempSync(path.join(os.tmpdir(), 'fc-sweep-'));
    const before = listing(p.dir);
    // `timeout` ends Flycatcher itself at --kill seconds: killing `time` alone (spawnSync's timeout) left
    // the run going on, an orphan taking a core from every later run. spawnSync's own limit is a backstop.
    const limited = ['timeout', '--kill-after=10', String(kill), bin, 'generate', file, '--out', out];
    const command = ['-f', '%M', ...limited, '--timeout', timeout, '--seed', '1'];
    const run = spawnSync('/usr/bin/time', command, {
      cwd: work,
      encoding: 'utf8',
      timeout: (kill + 30) * 1000,
      env: { ...process.env, NO_COLOR: '1' },
      maxBuffer: 64 << 20,
    });
    // `time` prints the peak resident memory (KB) as the last line of stderr.
    const lines = (run.stderr || '').trimEnd().split('\n');
    const rss = Number(lines.at(-1)) || 0;
    run.stderr = lines.filter((l) => !/^Command (exited|terminated)/.test(l)).slice(0, -1).join('\n');
    const wroteOutside = fs.readdirSync(work).length > 0 || !same(before, listing(p.dir));
    fs.rmSync(work, { recursive: true, force: true });
    const kind = classify(run, out, rss, wroteOutside);
    counts[kind]++;
    const said = run.stderr.split('\n').filter((l) => !l.startsWith('[') && !l.startsWith('warning')).join(' ').slice(0, 200);
    results.push({ package: p.spec, file: relative, class: kind, status: run.status, rssMb: Math.round(rss / 1024), said });
    // Written after every file, so that a sweep cut short still leaves the rows it measured.
    if (json) fs.writeFileSync(json, JSON.stringify({ counts, results }, null, 2));
    if (!process.stdout.isTTY) continue;
    process.stdout.write(`\r${results.length} files, ${counts.ok} ok`);
  }
}
if (process.stdout.isTTY) process.stdout.write('\n');

console.log(`| ${classes.join(' | ')} |\n|${classes.map(() => '---').join('|')}|\n| ${classes.map((c) => counts[c]).join(' | ')} |`);
for (const r of results.filter((r) => r.class !== 'ok' && r.class !== 'refusal')) {
  console.log(`- ${r.class}: ${r.package} ${r.file} (exit ${r.status}, ${r.rssMb} MB): ${r.said}`);
}
