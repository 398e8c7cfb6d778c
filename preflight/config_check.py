"""``preflight check`` on config files: the per-file config rules over every recognised config.

``check DIR`` (and the pre-commit hook) finds the ``.json``/``.yaml``/``.yml`` files of the
tree, decides each one's kind on evidence (:func:`preflight.validate_kinds.detect`) and runs
the rules that need nothing but that one file: schema validation (PF601-PF603) and the
conflicts inside one file (PF502 batch triple, PF503 fp16 and bf16, PF504 parameter offload
below ZeRO-3). A file whose kind is not recognised is counted and left alone, never an
error; a template (placeholders filled by a script) is counted too. Rules that need the
whole job (the script, the launch line, several files) stay in ``preflight audit``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Sequence

from preflight.diagnostics import FileError, Finding
from preflight.engine import Selection
from preflight.workspace import Discovered

CONFIG_RULES = ("PF502", "PF503", "PF504", "PF601", "PF602", "PF603")
# kinds whose single file carries the facts PF502-PF504 read (a DeepSpeed block, an accelerate
# config, a TrainingArguments file); NeoX and axolotl files get their own schema checks only
_CONFLICT_KINDS = ("deepspeed", "accelerate", "training-args", "sft-config")


class ConfigCheck:
    """What checking the config files found, and how many were checked / not recognised."""

    def __init__(self) -> None:
        self.findings: list[Finding] = []
        self.errors: list[FileError] = []
        self.checked = 0
        self.not_recognised = 0
        self.skipped = 0  # recognised, not validated (a kind without a schema, a template)
        self.kinds: dict[str, int] = {}

    def counts(self) -> dict:
        """The same counts as :meth:`summary`, for ``--format json`` (``configs``) and SARIF (run
        property ``configs``)."""
        return {"checked": self.checked, "kinds": dict(sorted(self.kinds.items())),
                "skipped": self.skipped, "not_recognised": self.not_recognised}

    def summary(self) -> str:
        if not (self.checked or self.not_recognised or self.skipped):
            return ""
        kinds = ", ".join(k if n == 1 and self.checked == 1 else f"{k} {n}" for k, n in sorted(self.kinds.items()))
        parts = [f"{self.checked} checked" + (f" ({kinds})" if kinds else "")]
        if self.skipped:
            parts.append(f"{self.skipped} recognised but not validated")
        if self.not_recognised:
            parts.append(f"{self.not_recognised} not recognised as a config")
        return "Configs: " + ", ".join(parts)


def check_configs(files: Sequence[Discovered], selection: Selection, root: Path) -> ConfigCheck:
    from preflight.audit import build_plan
    from preflight.plan_rules import run_plan_rules
    from preflight.sources import read_source
    from preflight.validate import validate_source
    from preflight.validate_kinds import looks_like_config

    out = ConfigCheck()
    wanted = tuple(c for c in selection.codes if c in CONFIG_RULES)
    for item in files:
        source = read_source(item.path, item.display, item.kind)
        if isinstance(source, FileError):
            out.errors.append(source)
            continue
        report = validate_source(source)
        if report.error is not None:
            # a file that does not parse: reported only when it was named or looks like a config
            if looks_like_config(item.path.name, source.text or ""):
                out.errors.append(report.error)
            else:
                out.not_recognised += 1
            continue
        if report.template and not looks_like_config(item.path.name, source.text or ""):
            out.not_recognised += 1  # placeholders in something else (a JSON Lines data file)
            continue
        if report.template or report.skipped:
            out.skipped += 1
            continue
        if not report.targets:
            out.not_recognised += 1
            continue
        out.checked += 1
        for kind in report.kinds:
            out.kinds[kind] = out.kinds.get(kind, 0) + 1
        if not wanted:
            continue
        codes = wanted if any(k in _CONFLICT_KINDS for k in report.kinds) else \
            tuple(c for c in wanted if c.startswith("PF60"))
        plan, project = build_plan([], [item.path], root=root)
        sub = Selection(codes, selection.severity_overrides, selection.per_file_ignores, selection.plugins)
        out.findings.extend(run_plan_rules(plan, project, sub))
    return out
