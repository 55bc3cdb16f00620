#!/usr/bin/env bash
# The API docs and the book, with warnings as errors, so that intra-doc
# links and the book's summary stay true (tests/docs_links.rs checks the
# book's other links). Installs mdBook from crates.io when it is missing.
set -euo pipefail
cd "$(dirname "$0")/.."

# With the examples: they need the dev-dependencies, so the dependencies'
# features match clippy's --all-targets build and their metadata is reused
# (without them cargo checks some 80 dependencies again on a fresh machine).
RUSTDOCFLAGS="-D warnings" cargo doc --workspace --no-deps --lib --examples

version=0.5.4
if ! command -v mdbook >/dev/null 2>&1 || [ "$(mdbook --version)" != "mdbook v$version" ]; then
  # Without the `serve` and `watch` features, and unoptimised: 35 s to
  # build instead of 80 on two cores, and a 24-page book builds at once.
  cargo install mdbook --version "$version" --locked --debug --no-default-features --features search
fi
out=$(mdbook build docs 2>&1) || { echo "$out" >&2; exit 1; }
if grep -E 'WARN|ERROR' <<<"$out" >&2; then
  echo "mdbook build docs: warnings above" >&2
  exit 1
fi
echo "docs: API docs and the book built (docs/book/)"
