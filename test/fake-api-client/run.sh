#!/usr/bin/env bash
# Runs a client of Form3's fake account API (form3tech-oss/interview-accountapi), written as its
# candidates write one (net/http and the repository's own models.go), against
# `scheme-sim start --memory --auth off --no-seed`: the exchanges in test/fake-api-client/main.go.
#
#   FAKE_ACCOUNT_API_DIR=/path/to/interview-accountapi bash test/fake-api-client/run.sh
#
# models.go is read from that checkout into a temporary module, never copied into this repository
# (it has no package clause there; one is put before it). Standard library only: builds offline.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
: "${FAKE_ACCOUNT_API_DIR:?set FAKE_ACCOUNT_API_DIR to a checkout of github.com/form3tech-oss/interview-accountapi}"
command -v go >/dev/null || { echo "go is not installed (Debian: apt-get install golang-go)" >&2; exit 2; }

work=$(mktemp -d)
sim_pid=
cleanup() { [[ -n $sim_pid ]] && kill "$sim_pid" 2>/dev/null; rm -rf "$work"; }
trap cleanup EXIT

mkdir "$work/client"
{ echo 'package main'; echo; cat "$FAKE_ACCOUNT_API_DIR/models.go"; } >"$work/client/models.go"
cp "$here/main.go" "$work/client/"
printf 'module fakeapiclient\n\ngo 1.19\n' >"$work/client/go.mod"
echo "== building the fake account API client"
(cd "$work/client" && GOTOOLCHAIN=local GOPROXY=off GOCACHE="$work/gocache" go build -o "$work/client-bin" .)

echo "== starting scheme-sim --memory --auth off --no-seed on a free port"
cd "$repo"
node --import tsx src/cli/main.ts start --memory --auth off --no-seed --port 0 >"$work/sim.log" 2>&1 &
sim_pid=$!
url=
for _ in $(seq 1 150); do
  url=$(sed -nE 's/^scheme-sim listening on (http[^ ]+).*$/\1/p' "$work/sim.log" | head -n 1)
  [[ -n $url ]] && break
  kill -0 "$sim_pid" 2>/dev/null || break
  sleep 0.2
done
[[ -n $url ]] || { echo "scheme-sim did not start:" >&2; cat "$work/sim.log" >&2; exit 1; }

API_HOST="$url" "$work/client-bin" || { echo "== the simulator's log:" >&2; tail -n 40 "$work/sim.log" >&2; exit 1; }
