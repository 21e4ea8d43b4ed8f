#!/usr/bin/env node
// The refactoring check: a regression suite should fail on a change of behaviour and only then. This
// renames every underscore member of a package (`_root` → `renamed_root`), consistently across its
// files (property accesses, definitions, string keys: every whole-word occurrence), a refactoring that
// changes no behaviour (the names its modules export are its interface and stay), and reruns the
// package's exported suite against the renamed copy: each test that fails then asserted on private state.
// Also measures what a reader meets in the written tests: the share of assertions on private (underscore)
// members, and the length of string literals and magnitude of number literals the tests pass.
//
//   node corpus/refactor.mjs [--only NAME]... [--out DIR] [--failing] [--keep]
//
// reads the suites table.mjs wrote into DIR/<package> (its --out folder), and prints a Markdown table
// (with --failing, then the first lines of each failure under the renaming; with --keep, the renamed copy
// and its suites are left in a temporary folder it names, to rerun a failure by hand).
// table.mjs calls `refactorCheck` for its `renamed` column.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { args, here, option, packages, root } from './common.mjs';

// Underscore members that are not the package's own: Node's (an EventEmitter or a stream the package
// extends reads them by these names) and the language's (`__proto__`, `__esModule`...).
const hostMembers = new Set([
  '_events',
  '_eventsCount',
  '_maxListeners',
  '_read',
  '_write',
  '_writev',
  '_transform',
  '_flush',
  '_final',
  '_destroy',
  '_construct',
  '_readableState',
  '_writableState',
  '_handle',
]);
const sourceFile = /\.(c|m)?(j|t)s$/;
const identifierChar = '[A-Za-z0-9_$]';
const escaped = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

// Every file below `dir` (links to folders are not followed: `node_modules` is left out).
const filesBelow = (dir) =>
  fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : filesBelow(full);
    return entry.isFile() ? [full] : [];
  });

// The underscore members of the package in `dir`: names read or written as `._name`, or defined as class
// or object members (`_name(`, `_name =`, `_name:` starting a line), that its dependencies (`deps`, a
// folder or null) and Node do not use by the same name.
export const underscoreMembers = (dir, deps) => {
  const names = new Set();
  const read = new RegExp(`\\.(_${identifierChar}+)`, 'g');
  const modifiers = '(?:(?:static|get|set|async|private|protected|public|readonly|override)\\s+)*';
  const defined = new RegExp(`^\\s*${modifiers}(_${identifierChar}+)\\s*[(=:;?!]`, 'gm');
  for (const file of filesBelow(dir).filter((f) => sourceFile.test(f))) {
    const text = fs.readFileSync(file, 'utf8');
    for (const m of [...text.matchAll(read), ...text.matchAll(defined)]) {
      if (!m[1].startsWith('__') && !hostMembers.has(m[1])) names.add(m[1]);
    }
  }
  // A member whose name the code builds (`this['_toArrayLike' + endian]`) is not renamed: renaming its
  // definitions would break the code, not refactor it. A string literal that starts a longer name gives
  // it away.
  const prefixes = new Set();
  for (const file of filesBelow(dir).filter((f) => sourceFile.test(f))) {
    for (const m of fs.readFileSync(file, 'utf8').matchAll(new RegExp(`(['"\`])(_${identifierChar}+)\\1`, 'g'))) {
      prefixes.add(m[2]);
    }
  }
  for (const name of [...names]) {
    if ([...prefixes].some((prefix) => prefix !== name && name.startsWith(prefix))) names.delete(name);
  }
  // Nor is a name the code compares a string with (`operation.op === '_get'`, `case '_get':`): callers
  // may pass it as data (fast-json-patch's `_get` operation), so renaming it changes behaviour.
  const quoted = `(['"\`])(_${identifierChar}+)\\1`;
  const compared = [new RegExp(`[=!]==?\\s*${quoted}`, 'g'), new RegExp(`${quoted}\\s*[=!]==?`, 'g'), new RegExp(`\\bcase\\s+${quoted}\\s*:`, 'g')];
  for (const file of filesBelow(dir).filter((f) => sourceFile.test(f))) {
    const text = fs.readFileSync(file, 'utf8');
    for (const m of compared.flatMap((pattern) => [...text.matchAll(pattern)])) names.delete(m[2]);
  }
  if (deps && fs.existsSync(deps)) {
    const theirs = filesBelow(deps)
      .filter((f) => sourceFile.test(f))
      .map((f) => fs.readFileSync(f, 'utf8'))
      .join('\n');
    for (const name of [...names]) {
      if (new RegExp(`(?<!${identifierChar})${escaped(name)}(?!${identifierChar})`).test(theirs)) names.delete(name);
    }
  }
  return [...names].sort();
};

// The names the package's modules that `suites` load export, and the keys of the plain objects they
// export (a namespace such as `_TEST = { _Reader, _Writer }`): its interface, which consumers reach by these
// names. Renaming one of them is a change of API, not a refactoring, however private its underscore
// says it is. Each module is loaded by Node (through tsx with `tsx` given), as the suites load it.
export const exportedNames = (suites, dir, tsx) => {
  const real = fs.realpathSync(dir);
  const modules = new Set();
  for (const file of suites) {
    for (const m of fs.readFileSync(file, 'utf8').matchAll(/(["'])((?:\.\.?\/|\/)[^"'\n]*)\1/g)) {
      const target = path.resolve(path.dirname(file), m[2]);
      const inside = [dir, real].some((base) => target.startsWith(base + path.sep));
      if (inside && sourceFile.test(target) && fs.existsSync(target)) modules.add(target);
    }
  }
  const script = `
    const { pathToFileURL } = require('node:url');
    const names = new Set();
    const plain = (v) => v !== null && typeof v === 'object' && [Object.prototype, null].includes(Object.getPrototypeOf(v));
    (async () => {
      for (const file of process.argv.slice(1)) {
        let m;
        try { m = await import(pathToFileURL(file).href); } catch { continue; }
        for (const [name, value] of Object.entries(m)) {
          names.add(name);
          if (!plain(value)) continue;
          for (const key of Object.keys(value)) {
            names.add(key);
            // A CommonJS module's exports object is \`default\`: its own namespaces are one level down.
            if (name === 'default' && plain(value[key])) Object.keys(value[key]).forEach((k) => names.add(k));
          }
        }
      }
      process.stdout.write(JSON.stringify([...names]));
    })();`;
  const run = spawnSync(process.execPath, [...(tsx ? ['--import', tsx] : []), '-e', script, ...modules], {
    cwd: dir,
    encoding: 'utf8',
    timeout: 60 * 1000,
  });
  try {
    return new Set(JSON.parse(run.stdout));
  } catch {
    return new Set();
  }
};

// `text` with every whole-word occurrence of the `names` renamed `renamed<name>`.
export const renamed = (text, names) => {
  if (names.length === 0) return text;
  const any = new RegExp(`(?<!${identifierChar})(${names.map(escaped).join('|')})(?!${identifierChar})`, 'g');
  return text.replace(any, (name) => `renamed${name}`);
};

// A copy of the package folder `dir` in `into`, its underscore `names` renamed in every source file, its
// dependencies (`node_modules` beside or inside it) linked as they were.
const renamedCopy = (dir, names, into) => {
  fs.cpSync(dir, into, { recursive: true, dereference: false, verbatimSymlinks: true });
  for (const file of filesBelow(into).filter((f) => sourceFile.test(f))) {
    const text = fs.readFileSync(file, 'utf8');
    const next = renamed(text, names);
    if (next !== text) fs.writeFileSync(file, next);
  }
  const beside = path.join(path.dirname(dir), 'node_modules');
  const link = path.join(path.dirname(into), 'node_modules');
  if (fs.existsSync(beside) && !fs.existsSync(link)) fs.symlinkSync(fs.realpathSync(beside), link, 'dir');
};

// The suites of `suites` copied into `into`, every quoted path that led into the package folder `dir`
// (relative to the suite or absolute) leading into `copy` instead.
const redirectedSuites = (suites, dir, copy, into) => {
  const real = fs.realpathSync(dir);
  fs.mkdirSync(into, { recursive: true });
  return suites.map((file) => {
    const from = path.dirname(file);
    const text = fs.readFileSync(file, 'utf8').replace(/(["'])((?:\.\.?\/|\/)[^"'\n]*)\1/g, (whole, quote, said) => {
      const target = path.resolve(from, said);
      for (const base of [dir, real]) {
        if (target === base || target.startsWith(base + path.sep)) {
          const moved = path.join(copy, path.relative(base, target));
          const written = said.startsWith('/') ? moved : path.relative(into, moved);
          return `${quote}${written.startsWith('.') || written.startsWith('/') ? written : `./${written}`}${quote}`;
        }
      }
      return whole;
    });
    const to = path.join(into, path.basename(file));
    fs.writeFileSync(to, text);
    return to;
  });
};

// `node --test` on `files` from `cwd` (through tsx with `tsx` given): tests failing and tests in all.
const failures = (files, cwd, tsx) => {
  const run = spawnSync(process.execPath, [...(tsx ? ['--import', tsx] : []), '--test', ...files], {
    cwd,
    encoding: 'utf8',
    timeout: 10 * 60 * 1000,
  });
  const count = (what) => Number((run.stdout.match(new RegExp(`^# ${what} (\\d+)`, 'm')) || [])[1] || 0);
  const said = [...run.stdout.matchAll(/^\s*not ok \d+ - (.*)$\n(?:.*\n){0,12}?\s*error: (.*)$/gm)].map((m) => `${m[1]}: ${m[2]}`);
  return { failed: count('fail'), tests: count('tests'), said };
};

// Renames the underscore members of package `p` (from common.mjs's `packages`) in a copy and reruns the
// suites `suites` (files) on it: "F of N fail (K names)", or why it was not run.
export const refactorCheck = (p, suites, tsx) => {
  const exported = exportedNames(suites, p.dir, tsx);
  const names = underscoreMembers(p.dir, path.join(path.dirname(p.dir), 'node_modules')).filter((n) => !exported.has(n));
  if (names.length === 0) return 'no _ members';
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'flycatcher-refactor-'));
  try {
    const copy = path.join(work, 'package');
    renamedCopy(p.dir, names, copy);
    const files = redirectedSuites(suites, p.dir, copy, path.join(work, 'suites'));
    const typescript = files.some((f) => /\.(c|m)?ts$/.test(f));
    const { failed, tests, said } = failures(files, copy, typescript ? tsx : undefined);
    if (args.includes('--failing')) said.forEach((line) => console.error(`${p.spec}: ${line.slice(0, 200)}`));
    return `${failed} of ${tests} fail (${names.length} names)`;
  } finally {
    if (args.includes('--keep')) console.error(`${p.spec}: renamed copy and suites kept in ${work}`);
    else fs.rmSync(work, { recursive: true, force: true });
  }
};

// The statements of the tests in a suite's text: the lines inside `test(...)`/`it(...)` bodies, titles
// and assertion messages left out.
const testLines = (text) => {
  const lines = [];
  let inside = false;
  for (const line of text.split('\n')) {
    if (/^\s*(test|it)\(/.test(line)) inside = true;
    else if (/^\s*\}\);?\s*$/.test(line) && inside && /^\s{0,4}\}/.test(line)) inside = false;
    else if (inside) lines.push(line);
  }
  return lines;
};

// What a reader meets in the suites `files`: assertions in all and on private state (an underscore
// member read), and the string lengths and number magnitudes of the literals the tests pass (those of
// their statements other than assertions): median, 90th percentile and count.
export const readability = (files) => {
  let assertions = 0;
  let privateAssertions = 0;
  const strings = [];
  const numbers = [];
  for (const file of files) {
    for (const line of testLines(fs.readFileSync(file, 'utf8'))) {
      const code = line.replace(/, "an instance of [^"]*"\);$/, ');');
      if (/^\s*assert\./.test(code)) {
        assertions += 1;
        const subject = code.replace(/^\s*assert\.\w+\(/, '').split(/,\s*(?=[^,]*$)/)[0];
        if (/(\.|\[")_[A-Za-z0-9$]/.test(subject)) privateAssertions += 1;
        // What a test expects is what the code returned; the values a reader meets are its inputs.
        continue;
      }
      for (const m of code.matchAll(/"((?:[^"\\]|\\.)*)"/g)) strings.push(m[1].length);
      const bare = code.replace(/"((?:[^"\\]|\\.)*)"/g, '""');
      for (const m of bare.matchAll(/(?<![A-Za-z0-9_$.\[])-?\d+(?:\.\d+)?(?:e[+-]?\d+)?(?![A-Za-z0-9_$\]])/g)) {
        numbers.push(Math.abs(Number(m[0])));
      }
    }
  }
  const quantile = (xs, q) => {
    if (xs.length === 0) return null;
    const sorted = [...xs].sort((a, b) => a - b);
    return sorted[Math.floor(sorted.length * q)];
  };
  const spread = (xs) => (xs.length ? `${quantile(xs, 0.5)} (p90 ${quantile(xs, 0.9)}, n ${xs.length})` : '');
  return { assertions, privateAssertions, strings: spread(strings), numbers: spread(numbers) };
};

// Standalone: the check and the measures on the suites table.mjs left in --out.
if (process.argv[1] && fs.realpathSync(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const outRoot = path.resolve(option('--out', path.join(here, 'cache', 'out')));
  const fromRunners = createRequire(path.join(root, 'tests/runners/package.json'));
  const tsx = fromRunners.resolve('tsx');
  const columns = ['package', 'renamed', 'assertions', 'private', 'string length', 'number magnitude'];
  console.log(`| ${columns.join(' | ')} |`);
  console.log(`|${columns.map(() => '---').join('|')}|`);
  for (const p of packages()) {
    const out = path.join(outRoot, p.spec.replace('/', '+'));
    const suites = fs.existsSync(out)
      ? fs
          .readdirSync(out)
          .filter((f) => /\.test\.(c|m)?(j|t)s$/.test(f) && !f.includes('.failing.'))
          .map((f) => path.join(out, f))
      : [];
    if (suites.length === 0) {
      console.log(`| ${p.spec} | no suite in ${out} | | | | |`);
      continue;
    }
    const r = readability(suites);
    const share = r.assertions ? `${r.privateAssertions} (${((100 * r.privateAssertions) / r.assertions).toFixed(1)}%)` : '';
    console.log(`| ${p.spec} | ${refactorCheck(p, suites, tsx)} | ${r.assertions} | ${share} | ${r.strings} | ${r.numbers} |`);
  }
}
