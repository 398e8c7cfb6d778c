"""Rule documentation generated from the rules' own metadata.

``preflight explain CODE`` prints :func:`rule_markdown`; ``docs/rules.md`` is
written by ``python -m preflight.docs`` and a test keeps it in sync.
"""

from __future__ import annotations

import sys
import textwrap
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from preflight.rules.base import Rule


def rule_markdown(cls: type[Rule], heading: str = "#") -> str:
    lines = [
        f"{heading} {cls.code} `{cls.name}`",
        "",
        f"**{cls.summary}**",
        "",
        f"Severity: {cls.severity.label} · Category: {cls.category.value} · "
        f"Frameworks: {', '.join(cls.frameworks)} · Fix: {'yes' if cls.fixable else 'no'}",
        "",
        textwrap.dedent(cls.explanation).strip(),
        "",
    ]
    for title, examples in (("Flagged", cls.bad_examples), ("Not flagged", cls.good_examples)):
        lines.append(f"{heading}# {title}")
        lines.append("")
        for example in examples:
            lines.append("```python")
            lines.append(textwrap.dedent(example).strip("\n"))
            lines.append("```")
            lines.append("")
    return "\n".join(lines).rstrip("\n") + "\n"


def rules_reference() -> str:
    from preflight.registry import documented_rules

    rules = documented_rules(plugins=False)
    out = [
        "# Rules reference",
        "",
        "Generated from the rules' metadata by `python -m preflight.docs`; do not edit by hand.",
        "",
        "| code | name | severity | category | fix | summary |",
        "|---|---|---|---|---|---|",
    ]
    for code, cls in rules.items():
        out.append(f"| [{code}](#{code.lower()}-{cls.name}) | `{cls.name}` | {cls.severity.label} | "
                   f"{cls.category.value} | {'yes' if cls.fixable else ''} | {cls.summary} |")
    out.append("")
    for cls in rules.values():
        out.append(rule_markdown(cls, heading="##"))
    return "\n".join(out).rstrip("\n") + "\n"


def main(argv: list[str]) -> int:
    target = Path(argv[0]) if argv else Path("docs/rules.md")
    target.write_text(rules_reference(), encoding="utf-8")
    print(f"wrote {target}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
