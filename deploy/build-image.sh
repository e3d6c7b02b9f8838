#!/usr/bin/env bash
# Builds Payline's container image from scratch with podman, buildah or
# docker, the first of them found: a static binary (CGO off), the host's
# CA bundle and a passwd line for the non-root user, then
# deploy/Containerfile. Usage:
#   deploy/build-image.sh [--with-documents] [TAG]   (default localhost/payline:dev)
# --with-documents builds the variant that reads uploaded paystubs and W-2s
# of any layout: it adds the programs the documents reader runs (poppler's
# pdftotext and pdftoppm, tesseract with its English data, sh) with their
# libraries, from this machine's Debian packages (deploy/stage-documents.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
documents=false
if [ "${1:-}" = "--with-documents" ]; then
    documents=true
    shift
fi
tag="${1:-localhost/payline:dev}"
# The tool is chosen before the two minutes of compiling, so a machine
# without one hears so at once.
if command -v podman >/dev/null; then
    build=(podman build)
elif command -v buildah >/dev/null; then
    build=(buildah bud)
elif command -v docker >/dev/null; then
    docker info >/dev/null 2>&1 || { echo "build-image.sh: docker is installed but its daemon does not answer (docker info); start it, or install podman or buildah" >&2; exit 1; }
    build=(docker build)
else
    echo "build-image.sh: no podman, buildah or docker on PATH; install one of them to build the image" >&2
    exit 1
fi
ctx="$(mktemp -d)"
trap 'rm -rf "$ctx"' EXIT
version="$(git describe --always --dirty 2>/dev/null || echo dev)"
CGO_ENABLED=0 go build -trimpath -ldflags "-s -w" -o "$ctx/payline" ./cmd/payline
cp /etc/ssl/certs/ca-certificates.crt "$ctx/ca-certificates.crt"
echo 'payline:x:65532:65532:payline:/data:/sbin/nologin' > "$ctx/passwd"
# The working directory /data must be writable by the user: it is where
# the SQLite database and its key file live unless PostgreSQL is used.
# Nobody else may list or read it (0700). It is staged inside owned/,
# copied to / whole, because a COPY of the directory itself would make
# /data 0755 whatever the source's mode (buildah creates the target).
mkdir -p "$ctx/owned" && mkdir -m 700 "$ctx/owned/data"
# tools/ holds the documents reader's programs in the variant, nothing
# otherwise (the Containerfile copies it either way).
mkdir -p "$ctx/tools"
# tesseract finds its data where Debian puts it, its compiled-in default.
if $documents; then
    deploy/stage-documents.sh "$ctx/tools"
fi
cp deploy/Containerfile "$ctx/Containerfile"
"${build[@]}" --quiet --label "org.opencontainers.image.version=$version" -t "$tag" -f "$ctx/Containerfile" "$ctx"
echo "built $tag ($version) with ${build[0]}"
