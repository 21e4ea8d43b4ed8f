#!/usr/bin/env bash
# Fetches the benchmark classes of the Flycatcher report's evaluation (its chapter 7, "Benchmark
# methods": a triangle, a doubly circular linked list, binary search, red-black and splay trees, a Luhn
# check, Base64, SHA-1 and a poker ranker), as the report's public repository jdd08/Flycatcher holds them
# under Source/benchmark/, into corpus/report-cache/ (ignored: that code is not ours to commit).
# corpus/report.mjs measures Flycatcher on them.
#
# Each file is pinned to a commit and checked against its SHA-256. Already fetched files are kept.
# Where raw.githubusercontent.com cannot be reached (as on the machines of session 33, which resolve no
# GitHub host), put the files into corpus/report-cache/ by other means and run this script again: it
# checks them and names those missing. Session 33's copies were read from the repository at these commits
# through a stored index of public GitHub files (its read_file), by hand.
set -euo pipefail
cd "$(dirname "$0")"
dest=report-cache
mkdir -p "$dest"
repo=jdd08/Flycatcher
# file, commit, SHA-256 of its text at that commit
files="
triangleType.js d98d9676adb2e46106e4b2049f46aec87aa3c3bd 9e721d566a0521349dfa632d6db844056468b099fa12c87f6dd6cc87e07e98be
linkedList.js   e30a7259f1dd3f8bf52a9b6118eb904ddb1b9c65 e90349766fb6ae5d14f1db72a22e9b33dccb9610200e2aaaedbe69d369f14e53
bst.js          e30a7259f1dd3f8bf52a9b6118eb904ddb1b9c65 471759b81f3c1d470e7de2bde128a683869fba7cec05717579684d2f923161e7
redblack.js     e30a7259f1dd3f8bf52a9b6118eb904ddb1b9c65 571f3ab75da38d1333c751916229d61d55624605e6b36f9423107c3764bda4cb
splaytree.js    e30a7259f1dd3f8bf52a9b6118eb904ddb1b9c65 aa67cc6489b1bd9563b9a3d11d7441bbe1fd553af8e3cd9c67dde7184b78d0b4
luhn.js         e30a7259f1dd3f8bf52a9b6118eb904ddb1b9c65 5450011a62c2d712b6e4e5229f002ad2e0c060ddfcb15612c1f33323cd511aaa
base64.js       e30a7259f1dd3f8bf52a9b6118eb904ddb1b9c65 da2ccb766c5e1599bf5e79819f46a06eb884e61a60e864fa8776b6a5bca02abd
sha1.js         e30a7259f1dd3f8bf52a9b6118eb904ddb1b9c65 59ca52b7ae482f5a8419d19ee41ce0c5634a58980b510bf96b53fca8ceff7845
poker.js        e30a7259f1dd3f8bf52a9b6118eb904ddb1b9c65 6b210ea9479b4ef684178f50efb8c74af8010c212086868e3732feb0d236ace7
"
missing=0
while read -r file commit sum; do
  [ -n "$file" ] || continue
  target="$dest/$file"
  if [ ! -f "$target" ]; then
    url="https://raw.githubusercontent.com/$repo/$commit/Source/benchmark/$file"
    if ! curl -fsSL --max-time 30 -o "$target.part" "$url" 2>/dev/null; then
      rm -f "$target.part"
      echo "missing $file: $url cannot be fetched from here; put the file at corpus/$target by hand" >&2
      missing=1
      continue
    fi
    mv "$target.part" "$target"
    echo "fetched $file"
  fi
  if ! echo "$sum  $target" | sha256sum --check --status; then
    echo "$target differs from $repo@$commit (SHA-256 $sum): remove it and fetch it again" >&2
    missing=1
  fi
done <<< "$files"
exit "$missing"
