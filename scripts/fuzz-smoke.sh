#!/usr/bin/env bash
# The fuzz smoke of CI (docs/fuzzing.md): every cargo-fuzz target runs for a few seconds from
# its committed corpus. It needs the nightly toolchain and cargo-fuzz; where either is missing it
# says so and passes, so CI works without them. A crash, a hang (-timeout) or running out of
# memory fails it. The committed corpus is only read: new inputs go to a scratch directory.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${PBEM_FUZZ_SMOKE_SECONDS:-12}

if ! cargo +nightly --version >/dev/null 2>&1; then
  echo "fuzz smoke skipped: no nightly toolchain (rustup toolchain install nightly)"
  exit 0
fi
if ! cargo +nightly fuzz --version >/dev/null 2>&1; then
  echo "fuzz smoke skipped: cargo-fuzz is not installed (cargo install cargo-fuzz)"
  exit 0
fi

# Fuzz builds carry sanitizer flags: in the shared target dir they would rebuild everything.
unset CARGO_TARGET_DIR
cargo +nightly fuzz build
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
for target in $(cargo +nightly fuzz list); do
  echo "fuzz smoke: $target for ${seconds}s"
  mkdir -p "$scratch/$target"
  cargo +nightly fuzz run "$target" "$scratch/$target" "fuzz/corpus/$target" -- \
    -max_total_time="$seconds" -rss_limit_mb=2048 -timeout=10 -print_final_stats=1 \
    >"$scratch/$target.log" 2>&1 || {
    tail -n 60 "$scratch/$target.log"
    echo "fuzz smoke: $target FAILED; the input is in fuzz/artifacts/$target/" >&2
    exit 1
  }
  grep -E '^(stat::number_of_executed_units|#[0-9]+ +DONE)' "$scratch/$target.log" || true
done
echo "fuzz smoke: OK"
