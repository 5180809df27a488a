#!/usr/bin/env python3
"""Warn about compose services whose image is unpinned or uses the `latest` tag.

Usage: python3 scripts/lint_compose.py [docker-compose.yml]
Exit status is 1 when at least one warning was printed.
"""
import sys

try:
    import yaml
except ImportError:
    sys.exit("error: PyYAML is required (pip install pyyaml)")


def image_warning(image):
    """Return a warning for an image reference, or None if it is pinned."""
    if "@sha256:" in image:
        return None
    # The tag is whatever follows the last ':' after the last '/'
    # (a ':' before that belongs to a registry host:port).
    last = image.rsplit("/", 1)[-1]
    if ":" not in last:
        return "has no tag (defaults to latest)"
    if last.rsplit(":", 1)[1] == "latest":
        return "uses the 'latest' tag"
    return None


def main(argv):
    path = argv[1] if len(argv) > 1 else "docker-compose.yml"
    try:
        with open(path, encoding="utf-8") as fh:
            doc = yaml.safe_load(fh) or {}
    except OSError as exc:
        sys.exit(f"error: cannot read {path}: {exc}")
    except yaml.YAMLError as exc:
        sys.exit(f"error: {path} is not valid YAML: {exc}")

    services = doc.get("services") or {}
    warnings = 0
    for name, spec in services.items():
        spec = spec or {}
        image = spec.get("image")
        if not image:
            if "build" not in spec:
                print(f"WARN {name}: neither image nor build is set")
                warnings += 1
            continue
        problem = image_warning(str(image))
        if problem:
            print(f"WARN {name}: image '{image}' {problem}; pin a version or digest")
            warnings += 1

    if warnings == 0:
        print(f"OK: {len(services)} service(s) checked, all images pinned")
    return 1 if warnings else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
