#!/usr/bin/env bash
# Checks deploy/Dockerfile where it cannot be built, with no registry to
# pull its base images from: that it has a builder stage on go.mod's Go
# version and a runtime stage apart from it, that the runtime stage runs
# as a non-root user with deploy/Containerfile's configuration (USER,
# WORKDIR, ENV, EXPOSE, VOLUME, ENTRYPOINT, CMD, line for line), that it
# compiles as build-image.sh does, and that the builder stage's commands
# build a binary from the repository's files (those git knows, as a clean
# clone's context holds them) with this machine's Go. CI runs it beside
# the image build. Usage: deploy/check-dockerfile.sh
set -euo pipefail
cd "$(dirname "$0")/.."
fail() { echo "check-dockerfile.sh: $*" >&2; exit 1; }

# instructions prints a Dockerfile's instructions, one a line: comments
# and blank lines dropped, continuation lines joined.
instructions() {
    sed -e '/^[[:space:]]*#/d' -e '/^[[:space:]]*$/d' "$1" | sed -e ':a' -e '/\\$/{N;s/\\\n//;ba}'
}
all="$(instructions deploy/Dockerfile)"
[ "$(grep -c '^FROM ' <<<"$all")" -ge 2 ] || fail "deploy/Dockerfile has one stage: it needs a builder stage and a runtime stage"
# The first stage builds, the last runs.
build="$(awk '/^FROM /{n++} n==1' <<<"$all")"
runtime="$(awk -v last="$(grep -c '^FROM ' <<<"$all")" '/^FROM /{n++} n==last' <<<"$all")"

# The builder's Go is go.mod's.
want_go="$(awk '$1 == "go" {print $2; exit}' go.mod)"
from_build="$(head -n1 <<<"$build")"
[[ "$from_build" =~ ^FROM\ [^\ ]*golang:([0-9][0-9.]*)[-[:alnum:].]*\ AS\ build$ ]] \
    || fail "the first stage is '$from_build', not 'FROM ...golang:<version>... AS build'"
[ "${BASH_REMATCH[1]}" = "$want_go" ] \
    || fail "the builder stage has Go ${BASH_REMATCH[1]}, go.mod says go $want_go"
# The runtime stage is not the builder's image.
from_runtime="$(head -n1 <<<"$runtime")"
! grep -q golang <<<"$from_runtime" || fail "the runtime stage is '$from_runtime', the Go toolchain's image"
grep -q '^COPY --from=build ' <<<"$runtime" || fail "the runtime stage copies nothing from the builder stage"

# Non-root, and the configuration deploy/Containerfile gives the image
# (the compose files, the README and CI rely on it).
user="$( (grep '^USER ' <<<"$runtime" || true) | tail -n1 | awk '{print $2}')"
[ -n "$user" ] || fail "the runtime stage sets no USER: it would run as its base image's user"
uid="${user%%:*}"
case "$uid" in
0 | root | "") fail "the runtime stage runs as '$user', which is root" ;;
esac
config() { { grep -E '^(USER|WORKDIR|ENV|EXPOSE|VOLUME|ENTRYPOINT|CMD) ' || true; } | sort; }
containerfile="$(instructions deploy/Containerfile | config)"
dockerfile="$(config <<<"$runtime")"
[ "$dockerfile" = "$containerfile" ] || fail "deploy/Dockerfile's runtime configuration differs from deploy/Containerfile's:
$(diff <(echo "$containerfile") <(echo "$dockerfile") | sed -n 's/^[<>]/&/p' | sed 's/^</Containerfile:/; s/^>/Dockerfile:   /')"

# It compiles as build-image.sh does.
flags() { { grep -o 'CGO_ENABLED=0 go build [^>]*-o ' || true; } | sed 's/ -o $//'; }
[ "$(flags <deploy/build-image.sh)" = "$(flags <<<"$build")" ] \
    || fail "deploy/Dockerfile's go build ($(flags <<<"$build")) is not build-image.sh's ($(flags <deploy/build-image.sh))"

# The builder stage's RUN commands, on a copy of what git knows, with /out
# under a temporary directory: the binary they make must run.
ctx="$(mktemp -d)"
trap 'rm -rf "$ctx"' EXIT
git ls-files -z --cached --others --exclude-standard | while IFS= read -r -d '' f; do
    [ -e "$f" ] && printf '%s\0' "$f"
done | tar --null -T - -cf - | tar -xf - -C "$ctx/" || fail "cannot copy the repository's files"
mkdir "$ctx/root"
(cd "$ctx" && find . -mindepth 1 -maxdepth 1 ! -name root -exec mv {} root/ \;)
while IFS= read -r run; do
    cmd="${run#RUN }"
    (cd "$ctx/root" && bash -euo pipefail -c "${cmd//\/out/$ctx/out}") \
        || fail "the builder stage's '$run' failed on a copy of the repository"
done < <(grep '^RUN ' <<<"$build")
[ "$(stat -c %a "$ctx/out/owned/data")" = 700 ] || fail "the builder stage's /out/owned/data is not 0700"
out="$("$ctx/out/payline" version 2>&1)" || fail "the binary the builder stage made does not run: $out"
echo "check-dockerfile.sh: deploy/Dockerfile has Go $want_go, runs as $user with deploy/Containerfile's configuration, and its builder stage builds ($out)"
