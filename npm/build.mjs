#!/usr/bin/env node
// Builds the npm packages of flycatcher from a release binary, and packs them with `npm pack`:
//
//   node npm/build.mjs [--binary PATH] [--platform NAME] [--out DIR] [--only main|platform]
//
// - the main package `flycatcher`: the launcher (`npm/flycatcher/bin/flycatcher`), the platform table it
//   reads, README and licence, and an optional dependency on every platform package;
// - the platform package of NAME (default: this machine's, as the launcher would pick it), holding the
//   binary at PATH (default: target/release/flycatcher of this repository).
//
// The version, description and licence are Cargo.toml's, so a release needs one version bump only.
// Each package is staged in DIR/<name>/ (default DIR: npm/dist) and packed into DIR; the tarballs'
// paths are printed on stdout, one a line. The release workflow (.github/workflows/release.yml) runs it
// once per platform on that platform's runner, and once with `--only main`.

import { execFileSync } from 'node:child_process';
import { chmodSync, copyFileSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const here = dirname(fileURLToPath(import.meta.url));
const root = dirname(here);
const launcher = join(here, 'flycatcher');
const { PLATFORMS, packageName, binaryName, detect, platformFor, describe } = createRequire(import.meta.url)(
  join(launcher, 'lib', 'platforms.js'),
);

function fail(message) {
  process.stderr.write(`npm/build.mjs: ${message}\n`);
  process.exit(1);
}

/** The `key = "value"` pairs of Cargo.toml's [package] table (the only form its fields we use take). */
function cargoPackage() {
  const path = join(root, 'Cargo.toml');
  const fields = {};
  let inPackage = false;
  for (const line of readFileSync(path, 'utf8').split('\n')) {
    const table = line.match(/^\s*\[([^\]]+)\]/);
    if (table) inPackage = table[1].trim() === 'package';
    const pair = inPackage && line.match(/^\s*([A-Za-z_-]+)\s*=\s*"((?:[^"\\]|\\.)*)"/);
    if (pair) fields[pair[1]] = JSON.parse(`"${pair[2]}"`);
  }
  for (const key of ['version', 'description', 'license']) {
    if (!fields[key]) fail(`${path}: [package] has no \`${key} = "..."\`, which the npm packages take from it`);
  }
  return fields;
}

/** The fields every package shares: from Cargo.toml, `repository` and `homepage` when it has them. */
function commonFields(cargo) {
  const fields = { version: cargo.version, license: cargo.license };
  if (cargo.repository) fields.repository = { type: 'git', url: `git+${cargo.repository}` };
  if (cargo.homepage || cargo.repository) fields.homepage = cargo.homepage || cargo.repository;
  return fields;
}

// What a binary's header says it runs on, for the formats of the platform table: ELF (Linux), Mach-O
// (macOS) and PE (Windows), with their machine codes for x64 and arm64.
const MACHINES = {
  elf: { x64: 0x3e, arm64: 0xb7 },
  macho: { x64: 0x01000007, arm64: 0x0100000c },
  pe: { x64: 0x8664, arm64: 0xaa64 },
};
const FORMAT_OF_OS = { linux: 'elf', darwin: 'macho', win32: 'pe' };

/** Why a binary whose header names machine `code` is not one for `cpu`, or null when it is. */
function wrongCpu(format, code, cpu) {
  if (MACHINES[format][cpu] === code) return null;
  const named = Object.keys(MACHINES[format]).find((k) => MACHINES[format][k] === code);
  return `it is built for ${named ?? `machine 0x${code.toString(16)}`}, not ${cpu}`;
}

/** The ELF program interpreter (the dynamic loader, which names the C library), or null for a static binary. */
function elfInterpreter(bytes) {
  const phoff = Number(bytes.readBigUInt64LE(32));
  const size = bytes.readUInt16LE(54);
  for (let i = 0; i < bytes.readUInt16LE(56); i++) {
    const header = phoff + i * size;
    if (bytes.readUInt32LE(header) === 3 /* PT_INTERP */) {
      const offset = Number(bytes.readBigUInt64LE(header + 8));
      return bytes.toString('latin1', offset, offset + Number(bytes.readBigUInt64LE(header + 32))).replace(/\0+$/, '');
    }
  }
  return null;
}

/**
 * Why the binary at `path` cannot be the one of `platform`, or null when its header agrees: a release
 * matrix that put one runner's binary into another platform's package would break every install there.
 */
function mismatch(path, platform) {
  const bytes = readFileSync(path);
  const format = FORMAT_OF_OS[platform.os];
  if (format === 'elf') {
    if (bytes.length < 64 || bytes.readUInt32BE(0) !== 0x7f454c46 || bytes[4] !== 2 || bytes[5] !== 1) {
      return 'it is not a 64-bit little-endian ELF executable';
    }
    const cpu = wrongCpu(format, bytes.readUInt16LE(18), platform.cpu);
    if (cpu) return cpu;
    const interpreter = elfInterpreter(bytes);
    const musl = interpreter === null || interpreter.includes('musl');
    if (musl !== (platform.libc === 'musl')) {
      return `it is linked for ${musl ? 'musl' : 'glibc'} (loader: ${interpreter ?? 'none, static'})`;
    }
    return null;
  }
  if (format === 'macho') {
    if (bytes.length < 8 || bytes.readUInt32LE(0) !== 0xfeedfacf) return 'it is not a 64-bit Mach-O executable';
    return wrongCpu(format, bytes.readUInt32LE(4), platform.cpu);
  }
  const pe = bytes.length >= 64 && bytes.toString('latin1', 0, 2) === 'MZ' ? bytes.readUInt32LE(0x3c) : -1;
  if (pe < 0 || pe + 6 > bytes.length || bytes.readUInt32BE(pe) !== 0x50450000) return 'it is not a PE executable';
  return wrongCpu(format, bytes.readUInt16LE(pe + 4), platform.cpu);
}

/** Empties and fills DIR/<folder> with `files` (name → text or `{ copy: path, mode }`). */
function stage(out, folder, files) {
  const dir = join(out, folder);
  rmSync(dir, { recursive: true, force: true });
  for (const [name, content] of Object.entries(files)) {
    const path = join(dir, name);
    mkdirSync(dirname(path), { recursive: true });
    if (typeof content === 'string') {
      writeFileSync(path, content);
    } else {
      copyFileSync(content.copy, path);
      chmodSync(path, content.mode);
    }
  }
}

/** Packs the staged DIR/<folder> into DIR with `npm pack`; returns the tarball's path. */
function pack(out, folder) {
  // Run from DIR with a relative folder name: no path to quote for the shell that Windows needs to
  // start npm.cmd.
  const json = execFileSync(process.platform === 'win32' ? 'npm.cmd' : 'npm', ['pack', '--json', `./${folder}`], {
    cwd: out,
    encoding: 'utf8',
    shell: process.platform === 'win32',
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return join(out, JSON.parse(json)[0].filename);
}

const json = (value) => `${JSON.stringify(value, null, 2)}\n`;

function mainPackage(out, cargo) {
  const manifest = {
    name: 'flycatcher',
    description: cargo.description,
    ...commonFields(cargo),
    keywords: ['testing', 'test-generation', 'unit-tests', 'regression', 'node-test', 'jest', 'mocha', 'vitest'],
    bin: { flycatcher: 'bin/flycatcher' },
    files: ['bin/', 'lib/'],
    engines: { node: '>=18' },
    // npm installs the one whose os, cpu and libc match this machine; the launcher finds it.
    optionalDependencies: Object.fromEntries(PLATFORMS.map((p) => [packageName(p), cargo.version])),
  };
  stage(out, 'flycatcher', {
    'package.json': json(manifest),
    'README.md': readFileSync(join(here, 'README.md'), 'utf8'),
    LICENSE: readFileSync(join(here, 'LICENSE'), 'utf8'),
    'bin/flycatcher': { copy: join(launcher, 'bin', 'flycatcher'), mode: 0o755 },
    'lib/platforms.js': readFileSync(join(launcher, 'lib', 'platforms.js'), 'utf8'),
  });
  return pack(out, 'flycatcher');
}

function platformPackage(out, cargo, platform, binary) {
  const name = packageName(platform);
  const manifest = {
    name,
    description: `The ${describe(platform)} binary of flycatcher, which the flycatcher package runs: install flycatcher.`,
    ...commonFields(cargo),
    os: [platform.os],
    cpu: [platform.cpu],
    ...(platform.libc ? { libc: [platform.libc] } : {}),
    files: ['bin/'],
    // Yarn's Plug'n'Play keeps packages zipped, and a zipped binary cannot be executed.
    preferUnplugged: true,
  };
  const readme =
    `# ${name}\n\nThe ${describe(platform)} binary of [flycatcher](https://www.npmjs.com/package/flycatcher). ` +
    'Install `flycatcher`, not this package: it depends on the package of every platform, and npm installs ' +
    'the one that matches the machine.\n';
  stage(out, platform.name, {
    'package.json': json(manifest),
    'README.md': readme,
    LICENSE: readFileSync(join(here, 'LICENSE'), 'utf8'),
    [`bin/${binaryName(platform.os)}`]: { copy: binary, mode: 0o755 },
  });
  return pack(out, platform.name);
}

function main() {
  const { values } = parseArgs({
    options: {
      binary: { type: 'string' },
      platform: { type: 'string' },
      out: { type: 'string', default: join(here, 'dist') },
      only: { type: 'string' },
    },
  });
  if (values.only !== undefined && values.only !== 'main' && values.only !== 'platform') {
    fail(`--only takes \`main\` or \`platform\`, not \`${values.only}\``);
  }
  const known = PLATFORMS.map((p) => p.name).join(', ');
  const platform = values.platform ? PLATFORMS.find((p) => p.name === values.platform) : platformFor(detect());
  if (values.only !== 'main' && !platform) {
    fail(
      values.platform
        ? `unknown platform \`${values.platform}\`: the platforms are ${known}`
        : `no platform package is built for this machine (${describe(detect())}): the platforms are ${known}; ` +
            'build the main package alone with `--only main`',
    );
  }
  let binary;
  if (values.only !== 'main') {
    binary = resolve(values.binary ?? join(root, 'target', 'release', binaryName(platform.os)));
    let why;
    try {
      why = mismatch(binary, platform);
    } catch (error) {
      fail(`cannot read the binary ${binary}: ${error.message}; build it with \`cargo build --release\` or name it with --binary`);
    }
    if (why) fail(`${binary} is not a ${platform.name} binary: ${why}`);
  }
  const cargo = cargoPackage();
  const out = resolve(values.out);
  mkdirSync(out, { recursive: true });
  const tarballs = [];
  if (values.only !== 'platform') tarballs.push(mainPackage(out, cargo));
  if (binary) tarballs.push(platformPackage(out, cargo, platform, binary));
  process.stdout.write(tarballs.map((t) => `${t}\n`).join(''));
}

main();
