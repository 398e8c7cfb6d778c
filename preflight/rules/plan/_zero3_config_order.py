"""Shared by the rules on a model loaded before the ZeRO-3 config exists (PF413, PF586)."""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from preflight.adapters_api import CallSite

_ARG_CLASSES = ("TrainingArguments", "Seq2SeqTrainingArguments", "SFTConfig", "DPOConfig", "GRPOConfig",
                "ORPOConfig", "KTOConfig", "RewardConfig")
_PARSES = ("parse_args_into_dataclasses", "parse_json_file", "parse_yaml_file", "parse_dict")


def creates_config(site: CallSite) -> bool:
    q = site.qualified or ""
    last = site.last or ""
    if last == "HfDeepSpeedConfig":
        return True
    if last in _ARG_CLASSES and (q.startswith(("transformers.", "trl.")) or "." not in q):
        return True
    func = site.call.func
    return isinstance(func, ast.Attribute) and func.attr in _PARSES
