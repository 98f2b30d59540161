#!/usr/bin/env bash
# Runs Form3's own Go SDK (form3tech-oss/go-form3) against scheme-sim. First go-form3's own tests
# (`go test ./pkg/form3/...`, its *_test.go, which read FORM3_*) against the fresh double; then
# test/go-sdk/*.go drive accounts, subscriptions, the four claim resources through the DDIC
# timeline, the contra payment and its admission, reports and report admissions, and name
# verifications (asked by Northwind, their admission read by the payee's bank), in request-signing
# mode and in token mode, and validate every answer against go-form3's generated models.
#
#   GO_FORM3_DIR=/path/to/go-form3 bash test/go-sdk/run.sh                # --auth on
#   GO_FORM3_DIR=/path/to/go-form3 SIM_AUTH=off bash test/go-sdk/run.sh   # --auth off
#   GO_FORM3_DIR=/path/to/go-form3 SIM_SANDBOX=new bash test/go-sdk/run.sh # in a sandbox of its own,
#     with only that sandbox's credentials: docs/sandboxes.md
#
# The SDK vendors its dependencies, so it builds offline. Its module asks for Go 1.23; with an
# older Go (Debian 12 has 1.19) four small shims are applied to a copy of the source, never to
# GO_FORM3_DIR itself: the stdlib `cmp` and `slices` functions the vendored otel uses, and three
# Go 1.20 calls (unsafe.StringData, slice-to-array conversion, reflect.Value.Grow).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
: "${GO_FORM3_DIR:?set GO_FORM3_DIR to a checkout of github.com/form3tech-oss/go-form3}"
# shellcheck source=../support/go-check-prelude.sh
. "$here/../support/go-check-prelude.sh"

cp -r "$GO_FORM3_DIR/." "$work/sdk"
cd "$work/sdk"
minor=$(go env GOVERSION | sed -E 's/^go1\.([0-9]+).*/\1/')
if (( minor < 21 )); then
  echo "== go $(go env GOVERSION): applying the compatibility shims"
  cp -r "$here/shims/cmp" "$here/shims/slices" vendor/
  cat > vendor/github.com/go-openapi/swag/string_bytes.go <<'GO'
package swag

// hackStringBytes: a copy on Go < 1.20, which has no unsafe.StringData (scheme-sim's shim).
func hackStringBytes(str string) []byte {
	return []byte(str)
}
GO
  sed -i -E 's/\[([0-9]+)\]KeyValue\(kvs\)/*(*[\1]KeyValue)(kvs)/g' vendor/go.opentelemetry.io/otel/attribute/set.go
  perl -0pi -e 's/v\.Grow\(len\(csvWriter\.records\)\)\s*\n\s*v\.SetCap\(len\(csvWriter\.records\)\)[^\n]*\n\s*v\.SetLen\(len\(csvWriter\.records\)\)/v.Set(reflect.MakeSlice(t, len(csvWriter.records), len(csvWriter.records)))/' \
    vendor/github.com/go-openapi/runtime/csv.go
fi
mkdir -p cmd/scheme-sim-check
cp "$here"/*.go cmd/scheme-sim-check/
echo "== building the SDK check"
export GOFLAGS=-mod=vendor GOTOOLCHAIN=local GOPROXY=off GOCACHE="$work/gocache"
go build -o "$work/check" ./cmd/scheme-sim-check
# go-form3's own tests, compiled now (vet included, as `go test` runs it) so the double they run
# against is not kept waiting: `go test` then finds them built.
echo "== building go-form3's own tests"
go test -count=1 -run '^$' ./pkg/form3/... >/dev/null

# The store to run on: --memory (default), --data FILE (the journal) or --store postgres://…
store_args=${SIM_STORE_ARGS:---memory}
export SIM_AUTH=${SIM_AUTH:-on}
[[ $SIM_AUTH == on || $SIM_AUTH == off ]] || { echo "SIM_AUTH must be on or off, got $SIM_AUTH" >&2; exit 2; }
# The claims flow advances one working day and expects the submission processed: true only for a
# submission made on a working day before the 22:00 London cut-off, so the scheme clock starts on
# such a morning (a Monday) rather than at the wall clock's time, which fails in the evening.
clock_start=${SIM_CLOCK_START:-2026-12-21T09:00:00Z}
echo "== starting scheme-sim on a free port ($store_args, --auth $SIM_AUTH, clock from $clock_start)"
# shellcheck disable=SC2086 # the store options are words on purpose
start_sim $store_args --auth "$SIM_AUTH" --clock-start "$clock_start"

# The fixtures' northwind client: its UUID id, secret, dev signing key, and a sort code and BIC
# registered to its organisation (fixtures/clients.json, fixtures/organisations.json); Harbour's
# client is the payee's bank.
host=$sim_url
key_id=0d3f8c5e-2b7a-4f1d-9c6e-5a4b3c2d1e0f
client_id=5a1e6c3b-7d2f-4e8a-9b40-6c1d2e3f4a5b
client_secret=northwind-dev-secret
payee_client_id=8c2f1d4e-3b5a-4c6d-8e7f-9a0b1c2d3e4f
payee_client_secret=harbour-dev-secret
if [[ ${SIM_SANDBOX:-} == new ]]; then
  # A sandbox made by the server's admin client (anyone, with --auth off), on the same clock start;
  # from here on the check knows only the sandbox's credentials: new client ids, secrets and key
  # ids, of the same organisations and with the same public keys (docs/sandboxes.md).
  creator=()
  if [[ $SIM_AUTH == on ]]; then
    admin_token=$(curl -sf -u "$client_id:$client_secret" -X POST "$sim_url/v1/oauth2/token" | jq -r .access_token)
    creator=(-H "Authorization: Bearer $admin_token")
  fi
  sandbox=$(curl -sf -X POST "$sim_url/v1/simulator/sandboxes" "${creator[@]}" -H 'Content-Type: application/json' \
    -d "{\"data\": {\"type\": \"sandboxes\", \"attributes\": {\"clock\": {\"mode\": \"running\", \"start\": \"$clock_start\"}}}}") \
    || { echo "making the sandbox failed" >&2; sim_log_tail; exit 1; }
  sandbox_id=$(jq -r .data.id <<<"$sandbox")
  client_id=$(jq -r '.data.attributes.clients[0].client_id' <<<"$sandbox")
  client_secret=$(jq -r '.data.attributes.clients[0].client_secret' <<<"$sandbox")
  key_id=$(jq -r '.data.attributes.clients[0].key_ids[0]' <<<"$sandbox")
  payee_client_id=$(jq -r '.data.attributes.clients[1].client_id' <<<"$sandbox")
  payee_client_secret=$(jq -r '.data.attributes.clients[1].client_secret' <<<"$sandbox")
  # go-form3 keeps only the host of its base URL (pkg/form3/form3.go: rc.NewWithClient(baseURL.Host,
  # "/v1", …)), so its calls reach the sandbox by the sandbox's credentials, which it sends with
  # --auth off too; the check's own control calls carry none, and name the sandbox by its path.
  if [[ $SIM_AUTH == off ]]; then
    export SIM_CONTROL_BASE="$sim_url/sandboxes/$sandbox_id"
    # The token transport sends no credentials until refused, which --auth off never does.
    export SIM_SKIP_TOKEN_FLOW="with --auth off the token transport sends no credentials, so no sandbox can be named"
  fi
  echo "== in sandbox $sandbox_id (client $client_id)"
fi

# What go-form3's own tests read (form3.NewFromEnv, and FORM3_CLIENT_ID/SECRET for token mode),
# and the check besides.
export FORM3_HOST="$host"
export FORM3_ORGANISATION_ID=743d5b63-8e6f-432e-a8fa-c5d8d2ee5fcb
export FORM3_PUBLIC_KEY_ID="$key_id"
FORM3_PRIVATE_KEY="$(cat "$repo/fixtures/keys/northwind-dev-signing.pem")"
export FORM3_PRIVATE_KEY
export FORM3_CLIENT_ID="$client_id"
export FORM3_CLIENT_SECRET="$client_secret"

# go-form3's own tests, on the double as it starts (the check below changes it): TestTokenAuth
# lists /v1/security/users in token mode, TestQueryPayments lists payments (the seed payments on a
# fresh double) and the subscription tests create, amend and delete subscriptions, request-signed;
# the others serve themselves. Each test must pass: a skip (they skip without a client id and
# secret) counts as a failure, and the count is printed.
echo "== go-form3's own tests (go test ./pkg/form3/...)"
status=0
tests_out=$(go test -count=1 -v ./pkg/form3/... 2>&1) || status=$?
passed=$(grep -c '^--- PASS: ' <<<"$tests_out" || true)
failed=$(grep -c '^--- FAIL: ' <<<"$tests_out" || true)
skipped=$(grep -c '^--- SKIP: ' <<<"$tests_out" || true)
if (( status != 0 || failed > 0 || skipped > 0 || passed == 0 )); then
  grep -E '^(--- |ok|FAIL)|Error|expected|actual' <<<"$tests_out" >&2 || printf '%s\n' "$tests_out" >&2
  echo "go-form3 tests: $passed passed, $failed failed, $skipped skipped (go test exited $status)" >&2
  sim_log_tail
  exit 1
fi
echo "go-form3 tests: $passed passed"

SORT_CODE=400301 BIC=NWBKGB22 \
FORM3_PAYEE_ORGANISATION_ID=5b5a6b4d-0f1e-4f4e-9a57-3f1a8d8a2b11 \
FORM3_PAYEE_CLIENT_ID="$payee_client_id" \
FORM3_PAYEE_CLIENT_SECRET="$payee_client_secret" \
PAYEE_SORT_CODE=309634 PAYEE_BIC=HRBRGB2L \
  "$work/check" || { sim_log_tail; exit 1; }
if [[ ${SIM_SANDBOX:-} == new ]]; then
  # The default sandbox saw none of it: its journal holds no request of the check's. (With --auth
  # off go-form3's own TestTokenAuth lists the default world's users: its token transport sends no
  # credentials, so nothing names the sandbox.) A journal entry's path is in its attributes.
  journal_auth=()
  [[ $SIM_AUTH == on ]] && journal_auth=(-H "Authorization: Bearer $admin_token")
  seen=$(curl -sf "$sim_url/v1/simulator/requests?limit=1000" "${journal_auth[@]}" | jq '[.data[] | select(.attributes.path | test("claims|subscriptions|name-verification"))] | length')
  [[ $seen == 0 ]] || { echo "the default sandbox's journal holds $seen of the check's requests" >&2; exit 1; }
  echo "go-form3: the default sandbox saw none of the check's requests"
fi
