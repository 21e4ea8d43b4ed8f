'use strict';
// The platforms flycatcher ships a prebuilt binary for, one npm package each, and how to tell which one
// this machine is. Shared by the launcher (`bin/flycatcher`, at run time) and by `npm/build.mjs` (which
// writes each package's `os`, `cpu` and `libc` fields and the main package's `optionalDependencies`
// from this table), so that a name is spelled in one place only.

const fs = require('node:fs');

/** The npm scope of the platform packages: `@flycatcher/linux-x64-gnu` and so on. */
const SCOPE = '@flycatcher';

/**
 * One entry per platform package. `os` and `cpu` are Node's `process.platform` and `process.arch`;
 * `libc` (Linux only) is npm's name for the C library the binary links against, `glibc` or `musl`:
 * a glibc build does not start on Alpine and the like, so each C library has its own package.
 */
const PLATFORMS = [
  { name: 'linux-x64-gnu', os: 'linux', cpu: 'x64', libc: 'glibc' },
  { name: 'linux-arm64-gnu', os: 'linux', cpu: 'arm64', libc: 'glibc' },
  { name: 'linux-x64-musl', os: 'linux', cpu: 'x64', libc: 'musl' },
  { name: 'darwin-x64', os: 'darwin', cpu: 'x64' },
  { name: 'darwin-arm64', os: 'darwin', cpu: 'arm64' },
  { name: 'win32-x64', os: 'win32', cpu: 'x64' },
];

/** The package name of a platform entry. */
function packageName(platform) {
  return `${SCOPE}/${platform.name}`;
}

/** The binary's file name inside a platform package's `bin/` folder. */
function binaryName(os) {
  return os === 'win32' ? 'flycatcher.exe' : 'flycatcher';
}

/**
 * The C library Node itself runs on, on Linux: `glibc` or `musl` (undefined elsewhere). Node's
 * diagnostic report names the glibc version it runs with, and has no such field under musl (the way
 * detect-libc and napi-rs tell them apart, without running `ldd`); a Node without reports falls back to
 * the text of `ldd`, which names musl on musl systems.
 */
function detectLibc() {
  if (process.platform !== 'linux') return undefined;
  const report = process.report;
  if (report && typeof report.getReport === 'function') {
    // The network part of a report can take seconds on some machines, and says nothing about libc.
    report.excludeNetwork = true;
    const header = report.getReport().header;
    return header && header.glibcVersionRuntime ? 'glibc' : 'musl';
  }
  try {
    return fs.readFileSync('/usr/bin/ldd', 'utf8').includes('musl') ? 'musl' : 'glibc';
  } catch {
    return 'glibc';
  }
}

/** What this machine is, in the table's terms: `{ os, cpu, libc }`. */
function detect() {
  return { os: process.platform, cpu: process.arch, libc: detectLibc() };
}

/** The entry for `seen` (the result of `detect`), or undefined when no package is built for it. */
function platformFor(seen) {
  return PLATFORMS.find((p) => p.os === seen.os && p.cpu === seen.cpu && (p.libc === undefined || p.libc === seen.libc));
}

/** `seen` as a person reads it: `linux x64 (glibc)`. */
function describe(seen) {
  return seen.libc ? `${seen.os} ${seen.cpu} (${seen.libc})` : `${seen.os} ${seen.cpu}`;
}

module.exports = { SCOPE, PLATFORMS, packageName, binaryName, detect, platformFor, describe };
