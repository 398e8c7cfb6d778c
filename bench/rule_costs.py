"""Where a cold `check` spends its CPU: parsing, the node index, each shared analysis and each
rule, by exclusive CPU time (time inside a rule that builds a shared analysis is the
analysis's, not the rule's).

    python bench/rule_costs.py --tree DIR [--every 10] [--top 30]

A rule added without a cheap first test shows up here as a few percent of every check (PF436
cost 3.4% of a cold check of a tenth of diffusers until its calls were filtered by name). Run it
before and after adding a rule, on a large real tree (recipe in bench/README.md), and compare
the rule's share. The figures are in-process CPU seconds (`time.process_time`) of one run over
``--every``-th file of the tree in path order; start-up is not included.

This reads preflight's internals (the engine's rule list, the per-file analysis cache), which
may change with them: it is a benchmark, not an API.
"""

from __future__ import annotations

import argparse
import collections
import sys
import time
from pathlib import Path
from typing import Any, Callable

REPO = Path(__file__).resolve().parent.parent


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tree", type=Path, required=True)
    ap.add_argument("--every", type=int, default=1, help="check every N-th file (default: all)")
    ap.add_argument("--top", type=int, default=30)
    args = ap.parse_args()

    import preflight.engine as engine
    from preflight.analysis.context import FileContext
    from preflight.registry import file_rules, rule_codes
    from preflight.workspace import discover

    found = discover([args.tree], Path.cwd(), [], kinds=frozenset({"python", "notebook"}))
    files = found.files[:: max(args.every, 1)]
    selection = engine.Selection(codes=tuple(rule_codes()))
    file_rules(selection.codes)  # rule modules imported before timing starts

    clock = time.process_time
    spent: collections.Counter[str] = collections.Counter()
    stack: list[list[Any]] = []  # [label, start] of what runs now, innermost last

    def enter(label: str) -> None:
        now = clock()
        if stack:
            spent[stack[-1][0]] += now - stack[-1][1]
        stack.append([label, now])

    def leave() -> None:
        now = clock()
        label, start = stack.pop()
        spent[label] += now - start
        if stack:
            stack[-1][1] = now

    def timed(label: str, fn: Callable[..., Any]) -> Callable[..., Any]:
        def wrapper(*a: Any, **k: Any) -> Any:
            enter(label)
            try:
                return fn(*a, **k)
            finally:
                leave()
        return wrapper

    cached = FileContext.cached

    def cached_timed(self: FileContext, key: str, compute: Callable[[], Any]) -> Any:
        if key in self._cache:
            return self._cache[key]
        enter(f"analysis {key}")
        try:
            return cached(self, key, compute)
        finally:
            leave()

    class Timed:
        """A rule whose findings are listed inside its own timer."""

        def __init__(self, rule: Any) -> None:
            self.rule, self.code = rule, rule.code

        def __getattr__(self, name: str) -> Any:
            return getattr(self.rule, name)

        def check(self, ctx: FileContext) -> list[Any]:
            enter(f"rule {self.code}")
            try:
                return list(self.rule.check(ctx))
            finally:
                leave()

    FileContext.cached = cached_timed  # type: ignore[method-assign]
    FileContext._index = timed("node index", FileContext._index)  # type: ignore[method-assign]
    engine.parse_python = timed("parse", engine.parse_python)
    rules_for = engine._rules_for
    engine._rules_for = lambda codes: [Timed(r) for r in rules_for(codes)]

    start = clock()
    enter("other (reading, engine, suppressions, findings)")
    run = engine.check_files(files, selection, jobs=1)
    leave()
    total = clock() - start
    print(f"tree: {args.tree} ({len(files)} files checked, every {max(args.every, 1)}-th); "
          f"{len(run.findings)} findings; {total:.2f} CPU-s in check_files")
    print(f"{'where':52s} {'CPU-s':>7s} {'share':>6s}")
    for label, seconds in spent.most_common(args.top):
        print(f"{label:52s} {seconds:7.2f} {seconds / total:6.1%}")
    rules = sum(s for k, s in spent.items() if k.startswith("rule "))
    analyses = sum(s for k, s in spent.items() if k.startswith("analysis "))
    print(f"{'all rules (own code)':52s} {rules:7.2f} {rules / total:6.1%}")
    print(f"{'all shared analyses':52s} {analyses:7.2f} {analyses / total:6.1%}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
