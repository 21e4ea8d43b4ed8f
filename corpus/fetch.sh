#!/usr/bin/env bash
# Fetches the packages of corpus/packages.txt, each at its pinned version, with `npm pack`, and unpacks
# them into corpus/cache/<name>@<version>/ (a package's runtime dependencies are installed beside it,
# without scripts). Already fetched packages are kept. Needs npm and the npm registry.
set -euo pipefail
cd "$(dirname "$0")"
mkdir -p cache/tarballs
grep -v '^\s*#' packages.txt | awk 'NF { print $1 }' | while read -r spec; do
  dir="cache/$(echo "$spec" | tr '/' '+')"
  if [ -f "$dir/package/package.json" ]; then continue; fi
  tarball=$(cd cache/tarballs && npm pack --silent "$spec" 2>/dev/null | tail -1)
  mkdir -p "$dir"
  tar -xzf "cache/tarballs/$tarball" -C "$dir"
  # Some tarballs unpack into a folder named after the package rather than `package/`.
  if [ ! -d "$dir/package" ]; then mv "$dir"/* "$dir/package"; fi
  # Runtime dependencies go to $dir/node_modules, where Node finds them from $dir/package; a manifest of
  # the dependencies alone keeps npm away from the package's development and peer dependencies.
  if node -e '
      const p = require(process.argv[1]);
      const deps = p.dependencies || {};
      if (!Object.keys(deps).length) process.exit(1);
      require("fs").writeFileSync(process.argv[2], JSON.stringify({ private: true, dependencies: deps }));
    ' "$PWD/$dir/package/package.json" "$PWD/$dir/package.json"; then
    (cd "$dir" && npm install --ignore-scripts --no-audit --no-fund --no-package-lock --silent >/dev/null)
  fi
  echo "fetched $spec"
done
