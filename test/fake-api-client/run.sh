#!/usr/bin/env bash
# Runs a client of Form3's fake account API (form3tech-oss/interview-accountapi), written as its
# candidates write one (net/http and the repository's own models.go), against
# `scheme-sim start --memory --auth off` (empty, as the fake API starts): the exchanges in test/fake-api-client/main.go.
#
#   FAKE_ACCOUNT_API_DIR=/path/to/interview-accountapi bash test/fake-api-client/run.sh
#
# models.go is read from that checkout into a temporary module, never copied into this repository
# (it has no package clause there; one is put before it). Standard library only: builds offline.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
: "${FAKE_ACCOUNT_API_DIR:?set FAKE_ACCOUNT_API_DIR to a checkout of github.com/form3tech-oss/interview-accountapi}"
# shellcheck source=../support/go-check-prelude.sh
. "$here/../support/go-check-prelude.sh"

mkdir "$work/client"
{ echo 'package main'; echo; cat "$FAKE_ACCOUNT_API_DIR/models.go"; } >"$work/client/models.go"
cp "$here/main.go" "$work/client/"
printf 'module fakeapiclient\n\ngo 1.19\n' >"$work/client/go.mod"
echo "== building the fake account API client"
(cd "$work/client" && GOTOOLCHAIN=local GOPROXY=off GOCACHE="$work/gocache" go build -o "$work/client-bin" .)

echo "== starting scheme-sim --memory --auth off on a free port"
start_sim --memory --auth off

API_HOST="$sim_url" "$work/client-bin" || { sim_log_tail; exit 1; }
