#!/bin/bash
# Re-create the inputs of a rule hunt on real code (docs/corpus.md, "Held-out-2 classes"):
# copies every .py file that matches PATTERN (git grep -E) at the pinned commit of each
# repository in MANIFEST into OUTDIR/<owner+name>/<path>. Needs the bare mirrors (fetch tool)
# under /work/.mirror/<owner+name>/repo.
#   usage: tools/hunt_pattern.sh MANIFEST OUTDIR PATTERN
#   then:  preflight check OUTDIR --select PFxxx --no-cache --exit-zero
set -euo pipefail
manifest=$1; out=$2; pat=$3
rm -rf "$out"; mkdir -p "$out"
while read -r repo commit; do
  [ -z "$repo" ] && continue
  d=/work/.mirror/$repo/repo
  [ -d "$d" ] || { echo "missing mirror $repo" >&2; continue; }
  { git --git-dir="$d" grep -l -E "$pat" "$commit" -- '*.py' 2>/dev/null || true; } | sed "s/^$commit://" |
    while read -r f; do
      mkdir -p "$out/$repo/$(dirname "$f")"
      git --git-dir="$d" show "$commit:$f" > "$out/$repo/$f" </dev/null
    done
done < "$manifest"
find "$out" -name '*.py' | wc -l
