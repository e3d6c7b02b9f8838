#!/usr/bin/env bash
# Checks what a dry run of deploy/compose.yaml cannot: that neither it nor
# compose.sandbox.yaml holds a password (each comes from an environment
# variable with no default, ${VAR:?message}, or from a secret), and that
# every service is hardened (cap_drop: [ALL], read_only: true,
# no-new-privileges). compose.yaml must run production behind the proxy,
# each Payline instance must have a health check on /readyz, and Redis
# must require a password that Payline's Redis URL carries.
# CI runs it beside the dry runs; it needs python3 with PyYAML, which
# podman-compose brings.
set -euo pipefail
cd "$(dirname "$0")"
python3 - compose.yaml compose.sandbox.yaml <<'PY'
import re
import sys

import yaml

REQUIRED = re.compile(r"^\$\{[A-Z_][A-Z0-9_]*:\?[^}]+\}$")  # ${VAR:?message}, nothing else
SECRET_NAME = re.compile(r"PASSWORD|PASSWD|SECRET|TOKEN")
ENV_NAME = re.compile(r"^[A-Z][A-Z0-9_]*$")  # an environment variable, not secrets: [master_key]
URL_PASSWORD = re.compile(r"://[^/\s:@]*:(\$\{[^}]*\}|[^@\s]*)@")
DEFAULTED = re.compile(r"\$\{([A-Za-z_][A-Za-z0-9_]*):?-")
REQUIREPASS = re.compile(r"requirepass\s+(\S+)")
problems = []


def strings(value, key=""):
    """Every string in value, with the mapping key it sits under."""
    if isinstance(value, dict):
        for k, v in value.items():
            yield from strings(v, str(k))
    elif isinstance(value, list):
        for v in value:
            yield from strings(v, key)
    elif isinstance(value, str):
        yield key, value


def check_no_password(name, doc):
    for key, s in strings(doc):
        if ENV_NAME.match(key) and SECRET_NAME.search(key) and not REQUIRED.match(s):
            problems.append(f"{name}: {key} is a literal, not ${{VAR:?message}}")
        for pw in URL_PASSWORD.findall(s):
            if not REQUIRED.match(pw):
                problems.append(f"{name}: a URL under {key} carries a literal password")
        for var in DEFAULTED.findall(s):
            if SECRET_NAME.search(var):
                problems.append(f"{name}: ${{{var}}} has a default; a password must have none")
        for pw in REQUIREPASS.findall(s):
            if not re.match(r"^\$\$?\{?[A-Z_][A-Z0-9_]*\}?$", pw):
                problems.append(f"{name}: requirepass is given a literal")


def check_hardened(name, services):
    for svc, spec in services.items():
        caps = [c.upper() for c in spec.get("cap_drop") or []]
        if "ALL" not in caps:
            problems.append(f"{name}: {svc} does not drop every capability (cap_drop: [ALL])")
        extra = set(c.upper() for c in spec.get("cap_add") or []) - {"NET_BIND_SERVICE"}
        if extra:
            problems.append(f"{name}: {svc} adds capabilities {sorted(extra)}")
        if spec.get("read_only") is not True:
            problems.append(f"{name}: {svc} has a writable root file system (read_only: true)")
        opts = [o.replace(":", "=") for o in spec.get("security_opt") or []]
        if not any(o in ("no-new-privileges", "no-new-privileges=true") for o in opts):
            problems.append(f"{name}: {svc} may gain privileges (security_opt: [no-new-privileges])")


main, sandbox = sys.argv[1], sys.argv[2]
with open(main) as f:
    doc = yaml.safe_load(f)
with open(sandbox) as f:
    over = yaml.safe_load(f)
check_no_password(main, doc)
check_no_password(sandbox, over)
services = doc["services"]
check_hardened(main, services)

instances = {s: spec for s, spec in services.items() if "payline" in str(spec.get("image", ""))}
if not instances:
    problems.append(f"{main}: no Payline service")
for svc, spec in instances.items():
    env = spec.get("environment") or {}
    if env.get("PAYLINE_MODE") != "production":
        problems.append(f"{main}: {svc} runs {env.get('PAYLINE_MODE')!r}, not production")
    if str(env.get("PAYLINE_TRUST_PROXY")).lower() != "true":
        problems.append(f"{main}: {svc} is not behind the proxy (PAYLINE_TRUST_PROXY)")
    if not URL_PASSWORD.search(str(env.get("PAYLINE_REDIS_URL", ""))):
        problems.append(f"{main}: {svc}'s PAYLINE_REDIS_URL carries no password")
    if (spec.get("healthcheck") or {}).get("test") != ["CMD", "/payline", "ready"]:
        problems.append(f"{main}: {svc} has no health check on /readyz (test: [CMD, /payline, ready])")
    mode = ((over.get("services") or {}).get(svc) or {}).get("environment", {}).get("PAYLINE_MODE")
    if mode != "sandbox":
        problems.append(f"{sandbox}: {svc} runs {mode!r}, not sandbox")
redis = " ".join(s for _, s in strings(services.get("redis", {}).get("command", "")))
if not REQUIREPASS.search(redis):
    problems.append(f"{main}: Redis requires no password (requirepass)")

for p in problems:
    print("deploy/" + p, file=sys.stderr)
sys.exit(1 if problems else 0)
PY
echo "deploy/compose.yaml and compose.sandbox.yaml hold no password and every service is hardened"
