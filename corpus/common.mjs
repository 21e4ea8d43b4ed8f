// What the corpus scripts (table.mjs, sweep.mjs) share: their command-line options and the pinned
// packages of corpus/packages.txt, where corpus/fetch.sh unpacked them.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const here = path.dirname(fileURLToPath(import.meta.url));
export const root = path.resolve(here, '..');
export const args = process.argv.slice(2);

// `--help` or `-h`: the header comment of the script run (what it does, its options), and nothing run.
if (args.includes('--help') || args.includes('-h')) {
  const lines = fs.readFileSync(process.argv[1], 'utf8').split('\n');
  const header = [];
  for (const line of lines.slice(lines[0].startsWith('#!') ? 1 : 0)) {
    if (!line.startsWith('//')) break;
    header.push(line.replace(/^\/\/ ?/, ''));
  }
  console.log(header.join('\n'));
  process.exit(0);
}

// The value after `name` on the command line, or `fallback`.
export const option = (name, fallback) => {
  const at = args.indexOf(name);
  return at >= 0 ? args[at + 1] : fallback;
};

// The packages of packages.txt (`--only NAME`, repeatable, keeps those named): spec, name, shape, the
// folder of the unpacked package and, for the shape `typescript-src` (a package measured on the `.ts`
// sources it ships), `entry`: the `.ts` file named by the row's third column, as an absolute path.
export const packages = () => {
  const only = args.flatMap((a, i) => (a === '--only' ? [args[i + 1]] : []));
  return fs
    .readFileSync(path.join(here, 'packages.txt'), 'utf8')
    .split('\n')
    .filter((line) => line.trim() && !line.trim().startsWith('#'))
    .map((line) => {
      const [spec, shape, third] = line.trim().split(/\s+/);
      const name = spec.slice(0, spec.lastIndexOf('@'));
      const dir = path.join(here, 'cache', spec.replace('/', '+'), 'package');
      return { spec, name, shape, dir, entry: shape === 'typescript-src' ? path.join(dir, third) : undefined };
    })
    .filter((p) => only.length === 0 || only.includes(p.name) || only.includes(p.spec));
};
