#!/usr/bin/env bash
# Time what a new user does first, on a fresh clone: the install, `make test` and, with
# --run, the embedded model's install and `make run`.
#
# Usage: bench/fresh_clone.sh [--run] [--keep] [--commit REF] [REPO]
#
# Clones REPO's checked-out commit, or REF (default: this repository; uncommitted changes
# are not in the clone) into a new temporary directory, beside a link to REPO's ../shared (the
# ToolFailBench release the tests read, laid there as CI lays it), and runs each step
# there. One line per step: wall-clock seconds, CPU seconds of the step and its children,
# and the load average before and after. The machine may be shared: compare wall-clock
# figures taken under a similar load, or the CPU seconds, which load changes far less.
set -euo pipefail

run=0
keep=0
commit=""
while [[ $# -gt 0 ]]; do
    case "$1" in
        --run) run=1 ;;
        --keep) keep=1 ;;
        --commit)
            commit="${2:?--commit needs a commit}"
            shift
            ;;
        -h | --help)
            sed -n '2,14p' "$0"
            exit 0
            ;;
        -*)
            echo "unknown option $1 (use --run, --keep, --commit REF or a repository path)" >&2
            exit 2
            ;;
        *) break ;;
    esac
    shift
done
repo="$(cd "${1:-$(dirname "$0")/..}" && git rev-parse --show-toplevel)"
work="$(mktemp -d "${TMPDIR:-/tmp}/toolchaos-fresh.XXXXXX")"
if [[ $keep == 0 ]]; then
    trap 'rm -rf "$work"' EXIT
fi
if [[ -d "$repo/../shared" ]]; then
    ln -s "$(cd "$repo/../shared" && pwd)" "$work/shared"
fi
git clone --quiet "$repo" "$work/clone"
cd "$work/clone"
if [[ -n $commit ]]; then
    git checkout --quiet "$commit"
fi
echo "commit $(git log -1 --format='%h %s' | cut -c1-90)"
echo "machine $(nproc) cores, $(python3 --version 2>&1), $(date -u '+%Y-%m-%d %H:%M UTC')"
# the host's speed of the hour: a fixed piece of pure Python (20 million additions), so
# rows taken hours apart on a shared host can be read side by side
calibrate() {
    local took
    took="$( { TIMEFORMAT='%U'; time python3 -c 'x = 0
for i in range(20_000_000): x += i' >/dev/null; } 2>&1)"
    echo "host speed ($1): 20 million Python additions took $took s of CPU"
}
calibrate before

# step NAME COMMAND...: run COMMAND in the clone, its output in $work/NAME.log
step() {
    local name="$1" before after status wall user sys
    shift
    before="$(cut -d' ' -f1-3 /proc/loadavg)"
    TIMEFORMAT='%R %U %S'
    status=0
    { time "$@" >"$work/$name.log" 2>&1; } 2>"$work/$name.time" || status=$?
    after="$(cut -d' ' -f1-3 /proc/loadavg)"
    read -r wall user sys <"$work/$name.time"
    awk -v n="$name" -v w="$wall" -v u="$user" -v s="$sys" -v b="$before" -v a="$after" \
        'BEGIN { printf "%-13s %7.1f s wall %7.1f s CPU   load %s -> %s\n", n, w, u + s, b, a }'
    if [[ $status != 0 ]]; then
        echo "$name failed (exit $status); the end of its output:" >&2
        tail -n 30 "$work/$name.log" >&2
        trap - EXIT
        echo "the clone and logs are kept in $work" >&2
        exit "$status"
    fi
}

step install make .venv/.installed
step "make test" make test
grep -E '^[0-9]+ passed' "$work/make test.log" | tail -n 1
if [[ $run == 1 ]]; then
    step install-local make .venv/.installed-local
    step "make run" make run
fi
calibrate after
if [[ $keep == 1 ]]; then
    echo "the clone and logs are kept in $work"
fi
