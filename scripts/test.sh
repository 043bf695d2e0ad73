#!/usr/bin/env bash
# The project's test command (README): installs what the tests need that a fresh machine may
# lack, then runs every test. Nothing is skipped silently: a missing tool fails the run.
set -euo pipefail
cd "$(dirname "$0")/.."

need_apt=()
command -v ssh-keygen >/dev/null 2>&1 || need_apt+=(openssh-client)
command -v python3 >/dev/null 2>&1 || need_apt+=(python3)
command -v git >/dev/null 2>&1 || need_apt+=(git)
if [ ${#need_apt[@]} -gt 0 ]; then
  echo "installing: ${need_apt[*]}"
  apt-get update -qq && apt-get install -y -qq "${need_apt[@]}"
fi

cargo test --all-targets "$@"
cargo test --doc
