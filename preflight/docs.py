"""Rule documentation generated from the rules' own metadata.

``preflight explain CODE`` prints :func:`rule_markdown`; ``docs/rules.md`` is
written by ``python -m preflight.docs`` and a test keeps it in sync.
"""

from __future__ import annotations

import sys
import textwrap
from pathlib import Path
from typing import TYPE_CHECKING, Optional

if TYPE_CHECKING:
    from preflight.rules.base import Rule


def project_urls() -> dict[str, str]:
    """``[project.urls]`` of the installed distribution, by lower-cased label (empty when
    the metadata has none or preflight is not installed)."""
    try:
        from importlib import metadata

        entries = metadata.metadata("preflight-audit").get_all("Project-URL") or []
    except Exception:
        return {}
    out: dict[str, str] = {}
    for entry in entries:
        label, _, url = entry.partition(",")
        if url.strip():
            out[label.strip().lower()] = url.strip()
    return out


def rule_anchor(code: str, name: str) -> str:
    """The anchor of a rule's section in docs/rules.md: ``pf101-retained-graph``."""
    return f"{code.lower()}-{name}"


def rule_help_uri(cls: type[Rule], *, local: bool = False) -> Optional[str]:
    """Where a rule is documented: its own ``url`` (a plugin's), else, for a built-in rule,
    its section of ``rules.md`` under the ``Documentation`` URL of ``[project.urls]``; with
    ``local``, the ``docs/rules.md`` of a checkout (a ``file:`` URI, for an editor). None
    when none is known: preflight does not make up an address."""
    if cls.url:
        return cls.url
    if not cls.__module__.startswith("preflight."):
        return None
    anchor = rule_anchor(cls.code, cls.name)
    base = project_urls().get("documentation")
    if base:
        return f"{base.rstrip('/')}/rules.md#{anchor}"
    if local:
        page = Path(__file__).resolve().parent.parent / "docs" / "rules.md"
        if page.is_file():
            return f"{page.as_uri()}#{anchor}"
    return None


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
    fixed = [example for example in cls.fixed_examples if example is not None]
    for title, examples in (("Flagged", cls.bad_examples), ("Not flagged", cls.good_examples),
                            ("Fixed (`preflight check --fix --unsafe-fixes`)", fixed)):
        if not examples:
            continue
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
        "A rule code is `PF` and three or four digits (`PF101`, `PF1000`); rules are listed in",
        "numeric order (PF999 before PF1000). Wherever you name codes (`--select`, `--ignore`,",
        "`select`/`ignore`/`per-file-ignores` in `[tool.preflight]`, `# noqa: ...`,",
        "`# preflight: ignore[...]`), a complete code names that rule only (`PF100` is never",
        "PF1000-PF1009) and anything shorter is a prefix: `PF1` is every code starting PF1",
        "(PF100-PF199 and PF1000-PF1999), `PF10` is PF100-PF109 and PF1000-PF1099, `PF` every rule.",
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


INDEX_PATH = Path(__file__).resolve().parent / "rules" / "_index.py"
NEEDS_PATH = Path(__file__).resolve().parent / "rules" / "_needs.py"


def _builtin_rules() -> list[tuple[str, type[Rule], str]]:
    """(code, class, module under ``preflight.rules``) of every built-in rule, by code."""
    from preflight.registry import all_rules

    prefix = "preflight.rules."
    return [(code, cls, cls.__module__[len(prefix):]) for code, cls in all_rules(plugins=False).items()
            if cls.__module__.startswith(prefix)]


def rules_index() -> str:
    """``preflight/rules/_index.py``: which module holds each built-in rule, by scope.

    ``check`` reads it to import only the modules of the file rules it runs (importing
    all of them cost a one-file ``check`` about a fifth of its time)."""
    by_scope: dict[str, list[str]] = {"file": [], "job": []}
    for code, cls, module in _builtin_rules():
        by_scope[cls.scope].append(f'    "{code}": "{module}",')
    return "\n".join([
        '"""Built-in rules: code -> module under ``preflight.rules`` (one folder per kind), by scope.',
        "",
        "Generated by ``python -m preflight.docs`` from the rules' metadata; do not edit by hand",
        "(a test keeps it current). FILE rules read one Python file; JOB rules read a whole job.",
        "The strings a FILE rule needs in a file's text are in the generated ``_needs.py``.",
        '"""',
        "",
        "FILE = {", *by_scope["file"], "}",
        "",
        "JOB = {", *by_scope["job"], "}",
        "",
    ])


def rules_needs() -> str:
    """``preflight/rules/_needs.py``: the ``needs_text`` of each built-in FILE rule that has one.

    ``check`` reads it to leave out, without importing its module, a rule that cannot fire on
    a file whose text holds none of the strings."""
    needs = [f'    "{code}": {tuple(cls.needs_text)!r},' for code, cls, _ in _builtin_rules()
             if cls.scope == "file" and cls.needs_text]
    return "\n".join([
        '"""Built-in FILE rules that can only fire on a file whose text holds one of these strings.',
        "",
        "Generated by ``python -m preflight.docs`` from the rules' ``needs_text``; do not edit by hand",
        "(a test keeps it current). Which module holds each rule is in the generated ``_index.py``.",
        '"""',
        "",
        "NEEDS = {", *needs, "}",
        "",
    ])


# every module ``python -m preflight.docs`` writes beside docs/rules.md, with what writes it
GENERATED = {INDEX_PATH: rules_index, NEEDS_PATH: rules_needs}


def main(argv: list[str]) -> int:
    target = Path(argv[0]) if argv else Path("docs/rules.md")
    target.write_text(rules_reference(), encoding="utf-8")
    print(f"wrote {target}")
    for path, generate in GENERATED.items():
        path.write_text(generate(), encoding="utf-8")
        print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
