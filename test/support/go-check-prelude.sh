# Sourced by the Go client checks (test/fake-api-client/run.sh, test/go-sdk/run.sh) after they
# have checked their own checkout variable: Go must be installed, a temporary folder is $work, and
# start_sim starts scheme-sim on a free port, stopped (and $work removed) when the script exits.
set -euo pipefail
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
command -v go >/dev/null || { echo "go is not installed (Debian: apt-get install golang-go)" >&2; exit 2; }

work=$(mktemp -d)
sim_pid=
cleanup() { [[ -n $sim_pid ]] && kill "$sim_pid" 2>/dev/null; rm -rf "$work"; }
trap cleanup EXIT

# start_sim ARGS...: `scheme-sim start ARGS --port 0` in the background, its log in $work/sim.log;
# sets sim_url once it listens, or exits with the log.
start_sim() {
  (cd "$repo" && exec node --import tsx src/cli/main.ts start "$@" --port 0) >"$work/sim.log" 2>&1 &
  sim_pid=$!
  sim_url=
  for _ in $(seq 1 150); do
    # The log may not exist yet on the first look (the background shell opens it): under
    # `set -e -o pipefail` a failed sed would end the script without a word.
    sim_url=$( (sed -nE 's/^scheme-sim listening on (http[^ ]+).*$/\1/p' "$work/sim.log" 2>/dev/null || true) | head -n 1)
    [[ -n $sim_url ]] && return 0
    kill -0 "$sim_pid" 2>/dev/null || break
    sleep 0.2
  done
  echo "scheme-sim did not start:" >&2
  cat "$work/sim.log" >&2
  exit 1
}

# sim_log_tail: the end of the simulator's log, for a check that failed.
sim_log_tail() {
  echo "== the simulator's log:" >&2
  tail -n 40 "$work/sim.log" >&2
}
