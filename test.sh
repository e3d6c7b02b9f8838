#!/usr/bin/env bash
# The README's test command: every test of the module and of the Go client
# (client/, a module of its own), then what ran. go test prints nothing of
# a package that passed, so a half skipped for want of PostgreSQL,
# Chromium or tesseract would go unseen: internal/testsummary reads go
# test -json, prints what go test would, and ends with which halves ran,
# which were skipped and why, and the totals. Arguments go to both go test
# commands (./test.sh -run Report -count 1). It fails when a test or a build
# fails, or when nothing ran.
set -uo pipefail
cd "$(dirname "$0")"
dir="$(mktemp -d)"
trap 'rm -rf "$dir"' EXIT
go build -o "$dir/testsummary" ./internal/testsummary || exit 2
{ go test -json "$@" ./...; (cd client && go test -json "$@" ./...); } | "$dir/testsummary"
