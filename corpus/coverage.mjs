// Line coverage of the files a suite exercises, measured with c8's own report (tests/runners), on the
// file that ran rather than on whatever its source map names.
//
// c8 follows every `//# sourceMappingURL` it meets, and offers no option to stop: a compiled package
// that ships its maps was reported on the `.ts` files they name, shipped or not, with or without their
// text (a map without `sourcesContent` gives a few lines of nothing). Here a JavaScript file is reported
// as itself: its text is handed to the converter with the map comment taken out. A TypeScript file is
// the one case where the map is followed: Node ran the JavaScript that tsx made of it, and only the map
// (which tsx hands Node) leads back to the `.ts` lines. Of those, only the lines the map sends code to
// are counted: c8 counts every line no uncovered range touches, and the comments, interfaces and type
// aliases a `.ts` file is full of (nothing at all once types are stripped) would count as covered.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { root } from './common.mjs';

const runners = path.join(root, 'tests/runners/node_modules');
const fromRunners = createRequire(path.join(runners, 'c8', 'index.js'));
const { Report } = fromRunners('c8');
const { TraceMap, eachMapping } = fromRunners('@jridgewell/trace-mapping');

const typescript = /\.(c|m)?ts$/;
const mapComment = /^\s*\/\/[#@] sourceMappingURL=.*$/gm;

// Runs `command` (an array: program and arguments) from `cwd` with V8 coverage on, then reports the files
// below `cwd` that `include` (c8's globs, relative to `cwd`; all of them when empty) admits. Returns the
// percentage of lines covered (null when no file could be), the number of lines, the files measured and
// the `.ts` files left out for want of a source map (both relative to `cwd`), or null when nothing ran.
// (v8-to-istanbul gives every line of a file one statement: lines are read off the statements.)
export const lineCoverage = async (command, { cwd, include = [], timeout = 10 * 60 * 1000 }) => {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'fc-coverage-'));
  const raw = path.join(work, 'v8');
  try {
    spawnSync(command[0], command.slice(1), {
      cwd,
      encoding: 'utf8',
      timeout,
      env: { ...process.env, NODE_V8_COVERAGE: raw },
    });
    if (!fs.existsSync(raw)) return null;
    const report = Report({
      include,
      // c8's default exclusions (tests, node_modules...) and extensions, as `c8` on the command line.
      extension: ['.js', '.cjs', '.mjs', '.ts', '.cts', '.mts', '.jsx', '.tsx'],
      excludeNodeModules: true,
      reporter: ['json'],
      reportsDirectory: path.join(work, 'report'),
      tempDirectory: raw,
      resolve: '',
      src: [cwd],
      omitRelative: true,
    });
    // Include and exclude are relative to `cwd` (c8 would take the reporting process's working folder),
    // as V8 names the files: by their real paths (corpus/cache may be a link).
    report.exclude.cwd = fs.realpathSync(cwd);
    const followMap = report._getSourceMap.bind(report);
    const codeLines = new Map();
    const unmapped = [];
    report._getSourceMap = (script) => {
      const file = script.url.startsWith('file:') ? fileURLToPath(script.url) : script.url;
      if (!typescript.test(file) && fs.existsSync(file)) {
        return { source: fs.readFileSync(file, 'utf8').replace(mapComment, '') };
      }
      const sources = followMap(script);
      const map = sources?.sourceMap?.sourcemap;
      // Without its map (a runner that transpiles in a vm of its own, as jest does, hands Node none),
      // V8's offsets are of JavaScript nobody kept: counting them against the `.ts` text would be noise.
      if (!map && typescript.test(file)) {
        unmapped.push(path.relative(report.exclude.cwd, file));
        throw new Error(`no source map for ${file}`);
      }
      if (map) {
        // A map of one source is the file's own (tsx names it as it likes); others are relative to it.
        const named = (source) =>
          map.sources.length === 1 ? file : source.startsWith('file:') ? fileURLToPath(source) : path.resolve(path.dirname(file), source);
        eachMapping(new TraceMap(map), ({ source, originalLine }) => {
          if (source == null) return;
          const original = named(source);
          if (!codeLines.has(original)) codeLines.set(original, new Set());
          codeLines.get(original).add(originalLine);
        });
      }
      return sources;
    };
    await report.run();
    const final = path.join(work, 'report', 'coverage-final.json');
    if (!fs.existsSync(final)) return unmapped.length ? { pct: null, lines: 0, files: [], unmapped } : null;
    let total = 0;
    let covered = 0;
    const measured = JSON.parse(fs.readFileSync(final, 'utf8'));
    for (const [file, { statementMap, s: counts }] of Object.entries(measured)) {
      const code = codeLines.get(file);
      for (const [id, { start }] of Object.entries(statementMap)) {
        if (code && !code.has(start.line)) continue;
        total += 1;
        if (counts[id] > 0) covered += 1;
      }
    }
    const files = Object.keys(measured).map((f) => path.relative(report.exclude.cwd, f));
    if (total === 0) return unmapped.length ? { pct: null, lines: 0, files, unmapped } : null;
    // Two decimals, cut as istanbul (so c8's summaries) cuts them.
    return { pct: Math.floor((covered / total) * 10000) / 100, lines: total, files, unmapped };
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
};
