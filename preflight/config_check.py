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
from typing import Optional, Sequence

from preflight.codes import matching_codes
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


def check_configs(files: Sequence[Discovered], selection: Selection, root: Path,
                  cache_dir: Optional[str] = None) -> ConfigCheck:
    """``cache_dir``: keep each config's outcome there, reused while the config and every file
    its check read are unchanged (:mod:`preflight.config_cache`)."""
    from preflight.sources import read_source

    out = ConfigCheck()
    wanted = tuple(c for c in selection.codes if c in CONFIG_RULES)
    stamps = None
    for item in files:
        source = read_source(item.path, item.display, item.kind)
        if isinstance(source, FileError):
            out.errors.append(source)
            continue
        if cache_dir is None:
            outcome = _check_one(item, source, selection, wanted, root)
        else:
            from preflight import config_cache

            if stamps is None:
                stamps = config_cache.Stamps()
            outcome = _cached_one(item, source, selection, wanted, root, cache_dir, stamps)
        _add(out, outcome)
    return out


def _add(out: ConfigCheck, outcome: dict) -> None:
    state = outcome["state"]
    if state == "error":
        out.errors.append(FileError(**outcome["error"]))
    elif state == "not_recognised":
        out.not_recognised += 1
    elif state == "skipped":
        out.skipped += 1
    else:
        out.checked += 1
        for kind in outcome["kinds"]:
            out.kinds[kind] = out.kinds.get(kind, 0) + 1
        out.findings.extend(outcome["findings"])


def _check_one(item: Discovered, source, selection: Selection, wanted: tuple[str, ...],
               root: Path) -> dict:
    """What checking one config found: its state ("error", "not_recognised", "skipped",
    "checked"), and for a checked one its kinds and findings."""
    from preflight.audit import build_plan
    from preflight.plan_rules import run_plan_rules
    from preflight.validate import validate_source
    from preflight.validate_kinds import looks_like_config

    report = validate_source(source)
    if report.error is not None:
        # a file that does not parse: reported only when it was named or looks like a config
        e = report.error
        if not looks_like_config(item.path.name, source.text or ""):
            # a config of its folder's family that does not parse (its siblings of the same shape do)
            from preflight.validate_broken import family_error

            e = family_error(item.path, source.text or "", report.error)  # type: ignore[assignment]
        if e is not None:
            return {"state": "error",
                    "error": {"path": e.path, "message": e.message, "line": e.line, "column": e.column}}
        return {"state": "not_recognised"}
    if report.template and not looks_like_config(item.path.name, source.text or ""):
        return {"state": "not_recognised"}  # placeholders in something else (a JSON Lines data file)
    if report.template or report.skipped:
        return {"state": "skipped"}
    if not report.targets:
        return {"state": "not_recognised"}
    findings: list[Finding] = []
    if wanted:
        codes = wanted if any(k in _CONFLICT_KINDS for k in report.kinds) else \
            tuple(matching_codes("PF60", wanted))
        plan, project = build_plan([], [item.path], root=root)
        sub = Selection(codes, selection.severity_overrides, selection.per_file_ignores, selection.plugins)
        findings = list(run_plan_rules(plan, project, sub))
    return {"state": "checked", "kinds": list(report.kinds), "findings": findings}


def _cached_one(item: Discovered, source, selection: Selection, wanted: tuple[str, ...], root: Path,
                cache_dir: str, stamps) -> dict:
    from preflight import cache, config_cache

    k = cache.key(f"config {config_cache.FORMAT}\0{selection.fingerprint()}\0{root}", item.display,
                  source.digest)
    held = cache.load_payload(cache_dir, k)
    if isinstance(held, dict) and stamps.unchanged(held.get("deps")):
        try:
            outcome = dict(held["outcome"])
            if outcome.get("state") == "checked":
                outcome["findings"] = [cache.finding_from(d) for d in outcome["findings"]]
            return outcome
        except (KeyError, TypeError, ValueError, AttributeError, IndexError):
            pass  # a malformed entry: check the file again
    with config_cache.recording() as rec:
        outcome = _check_one(item, source, selection, wanted, root)
    deps = config_cache.dependencies(rec, str(item.path), str(root))
    if deps is not None:
        saved = dict(outcome)
        if saved["state"] == "checked":
            saved["findings"] = [cache.finding_dump(f) for f in outcome["findings"]]
        cache.store_payload(cache_dir, k, {"outcome": saved, "deps": deps})
    return outcome
