#!/usr/bin/env bash
# List the host ports published by the current compose project and flag clashes.
# Usage: bash scripts/check_ports.sh [compose args...]
#   e.g. bash scripts/check_ports.sh -f docker-compose.prod.yml
set -euo pipefail

if ! command -v docker >/dev/null 2>&1; then
  echo "error: docker is not installed or not on PATH" >&2
  exit 2
fi

# `docker compose ps --format json` prints either one JSON array (older
# compose releases) or one JSON object per line (newer releases).
# Normalise both to lines of "service<TAB>host_ip<TAB>published<TAB>target".
rows=$(docker compose "$@" ps --all --format json | python3 -c '
import json, sys
text = sys.stdin.read().strip()
if not text:
    sys.exit(0)
if text.startswith("["):
    items = json.loads(text)
else:
    items = [json.loads(line) for line in text.splitlines() if line.strip()]
for item in items:
    for p in item.get("Publishers") or []:
        if p.get("PublishedPort"):
            print("{}\t{}\t{}\t{}".format(item.get("Service", "?"),
                  p.get("URL") or "0.0.0.0", p["PublishedPort"], p.get("TargetPort", "?")))
')

if [[ -z "$rows" ]]; then
  echo "No published ports found (is the stack running?)."
  exit 0
fi

printf '%-24s %-16s %-10s %s\n' SERVICE HOST_IP PUBLISHED TARGET
printf '%s\n' "$rows" | sort -u | while IFS=$'\t' read -r svc ip pub target; do
  printf '%-24s %-16s %-10s %s\n' "$svc" "$ip" "$pub" "$target"
done

status=0

# Clash inside the project: the same host port published by two services.
dupes=$(printf '%s\n' "$rows" | sort -u | awk -F'\t' '{print $3"\t"$1}' | sort -u \
  | awk -F'\t' '{count[$1]++; svcs[$1]=svcs[$1]" "$2} END {for (p in count) if (count[p] > 1) print "port "p" ->"svcs[p]}')
if [[ -n "$dupes" ]]; then
  echo
  echo "CLASH: host ports published by more than one service:"
  printf '%s\n' "$dupes" | sed 's/^/  /'
  status=1
fi

# Clash with the host: a port that is listening but not owned by docker-proxy.
if command -v ss >/dev/null 2>&1; then
  for port in $(printf '%s\n' "$rows" | cut -f3 | sort -un); do
    owner=$(ss -Hltnp "sport = :$port" 2>/dev/null | grep -o 'users:(("[^"]*"' | head -n1 | cut -d'"' -f2 || true)
    if [[ -n "$owner" && "$owner" != "docker-proxy" ]]; then
      echo "CLASH: host port $port is also bound by process '$owner'"
      status=1
    fi
  done
fi

if [[ $status -eq 0 ]]; then
  echo
  echo "OK: no port clashes found."
fi
exit $status
