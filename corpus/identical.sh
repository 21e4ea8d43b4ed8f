#!/usr/bin/env bash
# Writes everything a fixed seed makes Flycatcher write, for a change that must not change behaviour:
# run it with the binary before and after, then `diff -r` the two folders (empty means no change).
#
#   corpus/identical.sh BIN OUT             the samples
#   corpus/identical.sh BIN OUT --corpus [NAME...]   the corpus packages instead (or those named)
#
# The samples run under a counted budget, `--budget 20000 --timeout 60` (the work budget `--timeout 1`
# implies, under a cap a loaded machine does not reach): under `--timeout 1` a busy machine stopped methods
# by the clock, and two runs compared the load rather than the binaries. SAMPLE_ARGS replaces it.
# FLYCATCHER_ARGS replaces `--timeout 1` in every corpus run (e.g. `--budget 20000 --timeout 60 --jobs 1`),
# to compare runs that must not differ.
# Each corpus run's printed bound and its wall time go to OUT.bounds.tsv (beside OUT, not compared):
# package, bound in seconds, seconds taken, their ratio.
#
# Covers: the suites, manifests, failing logs and JSON reports of every sample in node-test and jest
# (seeds 1 and 3); linked-list, shapes and bank-account in the six other formats; the random, exhaustive,
# search and search-cov strategies; `--mutation`; `mutate --suite`; `--jobs 1` against the default;
# `record` with its replay suites. With --corpus: every package of corpus/packages.txt (fetched by
# corpus/fetch.sh) at `--timeout 1 --seed 1`, as `node corpus/table.mjs --dir` runs them. Commands run from inside OUT with relative paths, so
# headers that quote the command are equal; timings are taken out of the reports.
#
# Wall-clock budgets still decide where a method of a corpus run at `--timeout 1` ends (issue 39): a method
# stopped by its time limit can differ between two runs of one binary. Run the old binary twice to see
# which outputs do.
set -euo pipefail
bin=$(realpath "$1")
out=$2
corpus=${3:-}
shift $(($# < 3 ? $# : 3))
only=("$@")
bounds="$(realpath -m "$out").bounds.tsv"
root=$(cd "$(dirname "$0")/.." && pwd)
rm -rf "$out"
mkdir -p "$out"
cd "$out"
ln -s "$root/samples" samples

run() {
  local name=$1
  shift
  if ! "$bin" "$@" > "$name.stdout" 2> "$name.stderr"; then echo "exit $?" >> "$name.stdout"; fi
}

# Reports: every key that measures time goes, so that only what was decided is compared.
normalise() {
  node -e '
    const fs = require("fs");
    const timing = /(^|_)(ms|seconds|secs|elapsed|time|times|per_second|rate)($|_)|elapsed|_ms$|duration/;
    const strip = (v) => {
      if (Array.isArray(v)) return v.map(strip);
      if (v && typeof v === "object") {
        const o = {};
        for (const [k, x] of Object.entries(v)) if (!timing.test(k)) o[k] = strip(x);
        return o;
      }
      return v;
    };
    for (const f of process.argv.slice(1)) {
      fs.writeFileSync(f, JSON.stringify(strip(JSON.parse(fs.readFileSync(f, "utf8"))), null, 1) + "\n");
    }' "$@"
}

samples() {
# shellcheck disable=SC2206 # SAMPLE_ARGS is a list of flags
local limits=(${SAMPLE_ARGS:---budget 20000 --timeout 60})
classes="linked-list.js circle.js runtime-defined.js namespace.js triangle.js isbn.js shapes.mjs bank-account.cjs
  schedule.js line-filter.js cart.js warehouse.js pathological.js ticket-queue.cjs"
for seed in 1 3; do
  for f in $classes; do
    for format in node-test jest; do
      name="$f.$format.$seed"
      run "$name" generate "samples/$f" --seed $seed "${limits[@]}" --format $format --out "$name" --report "$name.json"
    done
  done
done
for f in linked-list.js shapes.mjs bank-account.cjs; do
  for format in assert nodeunit expresso vows mocha vitest; do
    run "$f.$format" generate "samples/$f" --seed 2 "${limits[@]}" --format $format --out "$f.$format" --report "$f.$format.json"
  done
done
for strategy in random exhaustive search search-cov combined; do
  for f in linked-list.js isbn.js warehouse.js; do
    run "$f.$strategy" generate "samples/$f" --seed 4 "${limits[@]}" --strategy $strategy --out "$f.$strategy" --report "$f.$strategy.json"
  done
done
for f in linked-list.js circle.js cart.js; do
  run "$f.mutation" generate "samples/$f" --seed 5 "${limits[@]}" --mutation --out "$f.mutation" --report "$f.mutation.json"
  run "$f.mutate" mutate "samples/$f" --suite "$f.node-test.1"
done
run "namespace.jobs1" generate samples/namespace.js --seed 6 "${limits[@]}" --jobs 1 --out namespace.jobs1 --report namespace.jobs1.json
run "namespace.jobs2" generate samples/namespace.js --seed 6 "${limits[@]}" --jobs 2 --out namespace.jobs2 --report namespace.jobs2.json
run "record" record samples/demo-reading-list.js samples/isbn.js samples/linked-list.js --out record
run "seeded" generate samples/isbn.js samples/linked-list.js --seed 7 "${limits[@]}" --seed-from record/demo-reading-list.recording.json --out seeded --report seeded.json
}

if [ "$corpus" != "--corpus" ]; then
  samples
else
  printf 'package\tbound\tseconds\tratio\n' > "$bounds"
  grep -v '^\s*#' "$root/corpus/packages.txt" | awk 'NF { print $1 }' | while read -r spec; do
    dir="$root/corpus/cache/$(echo "$spec" | tr '/' '+')/package"
    [ -d "$dir" ] || continue
    if [ ${#only[@]} -gt 0 ] && ! printf '%s\n' "${only[@]}" | grep -qx "${spec%@*}"; then continue; fi
    name="corpus.$(echo "$spec" | tr '/' '+')"
    started=$(date +%s.%N)
    # shellcheck disable=SC2086 # FLYCATCHER_ARGS is a list of flags
    run "$name" generate "$dir" --seed 1 ${FLYCATCHER_ARGS:---timeout 1} --out "$name" --report "$name.json"
    seconds=$(echo "$(date +%s.%N) - $started" | bc)
    bound=$(sed -nE 's/^bound: at most ([0-9.]+) s.*/\1/p' "$name.stderr" "$name.stdout" | head -1)
    printf '%s\t%s\t%.1f\t%s\n' "$spec" "${bound:-?}" "$seconds" \
      "$( [ -n "$bound" ] && echo "scale=2; $seconds / $bound" | bc || echo '?')" >> "$bounds"
  done
fi

# Lines that print timings (the summary's `time:` and per-second figures) are not decisions.
for f in *.stdout; do sed -i -E 's/[0-9]+(\.[0-9]+)? ?(s|ms|µs)\b/T/g; s/[0-9]+ candidates\/s/N candidates\/s/g' "$f"; done
mapfile -t reports < <(find . -maxdepth 1 -name '*.json' -type f)
[ ${#reports[@]} -eq 0 ] || normalise "${reports[@]}"
rm samples
echo "wrote $(find . -type f | wc -l) files into $out"
