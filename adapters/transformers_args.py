"""TrainingArguments / TRL config values (helper of the transformers adapter, frameworks.md §1.3).

Values come from the ``TrainingArguments(...)``/``SFTConfig(...)`` call in the script
(kind ``code``), from a JSON/YAML file read by ``HfArgumentParser`` and the ``<script>.args``
file beside the script (kind ``config``), and from ``--key value`` flags on the launch
command (kind ``cli``). Each call also gets the framework defaults (kind ``default``) with
the version range they hold for.
"""

from __future__ import annotations

from preflight.adapters.transformers_args_apply import (  # noqa: F401  (moved; re-exported)
    ARG_CLASSES,
    TRAINING_KEYS,
    TRL_CONFIGS,
    _hf,
    record_fp16_and_bf16,
)
from preflight.adapters.transformers_args_read import _ArgsRead, parse_flags  # noqa: F401  (parse_flags re-exported)


class ArgsPass(_ArgsRead):
    """The TrainingArguments values of one script, from every place they can be set."""

    # -- entry -----------------------------------------------------------------
    def run(self) -> None:
        calls = [s for s in self.o.calls if s.last in ARG_CLASSES and _hf(s)]
        for site in calls:
            trl = site.last in TRL_CONFIGS
            self.trl_used |= trl
            self.from_call(site, trl)
        parsers = [s for s in self.o.calls if s.last == "HfArgumentParser" and _hf(s)]
        for site in parsers[:1]:
            self.from_parser(site, bool(calls))
        self.attribute_writes()
