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

# The mail tests talk to a real SMTP server (aiosmtpd) on 127.0.0.1; it lives in a venv under
# target/. If it cannot be installed, this script fails: the tests are never skipped.
venv=target/smtp-venv
if ! "$venv/bin/python" -c 'import aiosmtpd' >/dev/null 2>&1; then
  echo "installing aiosmtpd into $venv"
  if ! python3 -m venv "$venv" >/dev/null 2>&1; then
    apt-get update -qq && apt-get install -y -qq python3-venv
    python3 -m venv "$venv"
  fi
  "$venv/bin/pip" install -q --disable-pip-version-check aiosmtpd
fi
"$venv/bin/python" -c 'import aiosmtpd' || { echo "aiosmtpd is not available: the mail tests cannot run" >&2; exit 1; }
export PBEM_TEST_PYTHON="$PWD/$venv/bin/python"

# The crash tests kill pbem through the test hooks of src/engine/dir.rs, which only a build with
# the feature fault-injection has.
cargo test --all-targets --features fault-injection "$@"
# Every other build must ignore those variables: checked against a pbem built without it.
cargo test --test hosting_fault_hooks "$@"
cargo test --doc
