#!/usr/bin/env bash
# Records FuzzUpstreamDecode's seeds (testdata/responses): what a real
# Payline, the upstream the relay tests run against, answers the relay's
# requests. It serves a sandbox Payline on a fresh SQLite database,
# connects an account on a payroll platform and one on a time-and-
# attendance platform through the sandbox helper, reads what the relay
# reads, and keeps each body as KIND.STATUS.N.json (a list page cut to its
# first two items, so the fuzzer works on small inputs). Webhook
# deliveries come through `payline webhooks listen`, which prints them.
#
#   connectors/upstream/testdata/capture.sh        (from the repository's root; needs curl and jq)
set -euo pipefail
cd "$(dirname "$0")/../../.."
out=connectors/upstream/testdata/responses
work="$(mktemp -d)"
trap 'kill $(jobs -p) 2>/dev/null || true; rm -rf "$work"' EXIT
go build -o "$work/payline" ./cmd/payline
port="$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
PAYLINE_MASTER_KEY="$(head -c 32 /dev/urandom | base64)" "$work/payline" serve --addr "127.0.0.1:$port" \
    --database-url "sqlite:$work/payline.db" >"$work/serve.log" 2>&1 &
PAYLINE="http://127.0.0.1:$port"
until grep -q 'payline listening' "$work/serve.log" 2>/dev/null; do sleep 0.2; done
SECRET="$(grep -A2 'shown this once' "$work/serve.log" | grep -oE '[0-9a-f]{64}')"
H=(-H "x-api-secret: $SECRET" -H 'Service-Version: 2025-07-08' --retry 5)
api() { sleep 0.12; curl -s "${H[@]}" "$@"; }     # under the sandbox's 10 requests a second

rm -rf "$out" && mkdir -p "$out"
declare -A count
# keep KIND STATUS BODY: writes the body, a list cut to two items.
keep() {
    local kind="$1" status="$2" body="$3"
    count[$kind.$status]=$(( ${count[$kind.$status]:-0} + 1 ))
    jq -c 'if (.data | type) == "array" then .data |= .[:2] else . end' <<<"$body" >"$out/$kind.$status.${count[$kind.$status]}.json"
}
# get KIND PATH: keeps the answer to GET PATH.
get() {
    local answer status
    answer="$(api -w '\n%{http_code}' "$PAYLINE$2")"
    status="${answer##*$'\n'}"
    keep "$1" "$status" "${answer%$'\n'*}"
}

PAYROLL=$(api "$PAYLINE/v1/search?q=summit+payroll&response_types=platform" | jq -r '.data[0].id')
TIME=$(api "$PAYLINE/v1/platforms?type=time_and_attendance&limit=1" | jq -r '.data[0].id')
PAYLINE_API_SECRET="$SECRET" "$work/payline" webhooks listen --api-url "$PAYLINE" >"$work/listen.log" 2>&1 &
until grep -q '^Ready' "$work/listen.log"; do sleep 0.2; done
connect() {   # connect PLATFORM END_USER JOBS: an account, its jobs done
    local token
    token=$(api -H 'Content-Type: application/json' "$PAYLINE/v1/link_tokens" -d '{"org_name": "Capture", "end_user_id": "'"$2"'",
        "required_jobs": '"$3"'}')
    keep link_token 200 "$token"
    api -H 'Content-Type: application/json' "$PAYLINE/v1/sandbox/link_sessions" -d '{"token": '"$(jq .data.token <<<"$token")"',
        "platform_id": "'"$1"'", "username": "user_good", "password": "pass_good"}' | jq -r .data.account_id
}
ACCOUNT=$(connect "$PAYROLL" capture-payroll '["identity", "employment", "income", "paystubs", "tax_forms", "direct_deposit_allocations"]')
SHIFTS=$(connect "$TIME" capture-shifts '["identity", "shifts"]')
until api "$PAYLINE/v1/jobs?account_id=$ACCOUNT" | jq -e '[.data[] | select(.outcome == null)] | length == 0' >/dev/null; do sleep 0.3; done
until api "$PAYLINE/v1/jobs?account_id=$SHIFTS" | jq -e '[.data[] | select(.outcome == null)] | length == 0' >/dev/null; do sleep 0.3; done

get platforms "/v1/platforms?limit=3"
get platform "/v1/platforms/$PAYROLL"
get employers "/v1/employers?limit=3"
get employer "/v1/employers/$(api "$PAYLINE/v1/employers?limit=1" | jq -r '.data[0].id')"
get employer "/v1/employers/lookup?ein=101234567"
get search "/v1/search?q=summit&limit=3"
get accounts "/v1/accounts?limit=3"
get account "/v1/accounts/$ACCOUNT"
get jobs "/v1/jobs?account_id=$ACCOUNT&limit=100"
for product in identity employment income direct_deposit_allocations; do
    get "$product" "/v1/accounts/$ACCOUNT/$product"
done
get paystubs "/v1/accounts/$ACCOUNT/paystubs?limit=100"
get tax_forms "/v1/accounts/$ACCOUNT/tax_forms?limit=100"
get shifts "/v1/accounts/$SHIFTS/shifts?limit=100"
DOC=$(jq -r '.data[0].document_id' "$out/tax_forms.200.1.json")
get document "/v1/end_users/capture-payroll/documents/$DOC"
get webhooks "/v1/webhooks"
get employer "/v1/employers/no-such-employer"
keep error 401 "$(curl -s "$PAYLINE/v1/accounts")"
keep error 400 "$(api "$PAYLINE/v1/employers?limit=1000")"
# The first deliveries listen printed, each its body on a line of its own.
grep '^{"event"' "$work/listen.log" | head -4 | while read -r delivery; do
    keep webhook 200 "$delivery"
done
ls "$out"
