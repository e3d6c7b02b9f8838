#!/usr/bin/env bash
# Builds Payline's container image from scratch with podman, buildah or
# docker, the first of them found: a static binary (CGO off), the host's
# CA bundle and a passwd line for the non-root user, then
# deploy/Containerfile. Usage:
#   deploy/build-image.sh [TAG]      (default localhost/payline:dev)
set -euo pipefail
cd "$(dirname "$0")/.."
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
cp deploy/Containerfile "$ctx/Containerfile"
"${build[@]}" --quiet --label "org.opencontainers.image.version=$version" -t "$tag" -f "$ctx/Containerfile" "$ctx"
echo "built $tag ($version) with ${build[0]}"
