#!/usr/bin/env bash
# Checks that the browser bundle builds reproducibly: the same source and
# toolchain give the same bytes in another folder. Copies this source (as
# it is, committed or not) into a fresh folder, builds the bundle there
# with web/build.sh, and compares every file with web/dist, which
# web/build.sh made here. The registry crates' compiled code is shared
# through the target folder (their paths do not differ); this source's
# crates are built again under the other folder's paths.
# Prints the bundle's name; exits 1 on any difference.
set -euo pipefail
cd "$(dirname "$0")/.."
[ -f web/dist/SHA256SUMS ] || { echo "web/reproducible.sh: run web/build.sh first" >&2; exit 2; }
copy=$(mktemp -d /tmp/reversi-reproducible-XXXXXX)
trap 'rm -rf "$copy"' EXIT
# Extracted with fresh times (-m), so that cargo compiles this source's
# crates again from the copy instead of taking them as up to date.
tar --exclude=./target --exclude=./web/dist --exclude=./web/e2e/node_modules \
  --exclude=./.git -cf - . | tar -xmf - -C "$copy"
target="$(cd "${CARGO_TARGET_DIR:-target}" && pwd)"
started=$(date +%s)
(cd "$copy" && CARGO_TARGET_DIR="$target" web/build.sh 2>&1 >/dev/null | grep -E '^ *Compiling' || true)
echo "second build in $copy: $(($(date +%s) - started)) s"
if ! diff -r web/dist "$copy/web/dist" >/dev/null; then
  echo "web/reproducible.sh: the bundle built in another folder differs:" >&2
  diff <(cd web/dist && sha256sum -- *) <(cd "$copy/web/dist" && sha256sum -- *) >&2 || true
  exit 1
fi
echo "reproducible: bundle sha256 $(sha256sum web/dist/SHA256SUMS | cut -d' ' -f1) in both folders"
