"""PF232 deepspeed-path-to-plain-parser: ``--deepspeed ds_config.json`` (the Hugging Face
Trainer's spelling) passed to a script whose own argparse parser does not take a path there."""

from __future__ import annotations

import re
from typing import Iterable, Optional

from preflight.diagnostics import Category, Finding, Severity
from preflight.plan_rules import PlanContext, PlanRule
from preflight.registry import register
from preflight.rules.base import examples
from preflight.rules.plan._launch_support import launched_script
from preflight.rules.plan._strict_parse import strict_parse_call

# what lets the script take a value after --deepspeed, or not read sys.argv with a strict parser
_TAKES_A_PATH = ("HfArgumentParser", "TrainingArguments", "parse_known_args", "sys.argv", "fire.Fire",
                 "import fire", "click", "typer", "absl", "jsonargparse", "LightningCLI", "hydra")
_OWN_DEEPSPEED = re.compile(r"""["']--deepspeed["']""")


def _path_after_flag(args: list[str]) -> Optional[str]:
    for k, tok in enumerate(args):
        if tok == "--":
            return None
        if tok.startswith("--deepspeed="):
            value = tok.partition("=")[2]
            return value if value.endswith((".json", ".yaml", ".yml")) else None
        if tok == "--deepspeed" and k + 1 < len(args):
            nxt = args[k + 1]
            if not nxt.startswith("-") and nxt.endswith((".json", ".yaml", ".yml")):
                return nxt
    return None


@register
class DeepSpeedPathToPlainParser(PlanRule):
    code = "PF232"
    name = "deepspeed-path-to-plain-parser"
    severity = Severity.ERROR
    category = Category.CORRECTNESS
    frameworks = ("deepspeed",)
    summary = "`--deepspeed ds_config.json` passed to a script whose argparse parser has no such option"
    explanation = """
## What it finds

The launch line passes `--deepspeed <file>.json` (the Hugging Face `TrainingArguments`
spelling) to a script that parses its command line with its own
`argparse.ArgumentParser(...).parse_args()` and defines no `"--deepspeed"` option of its
own: either no DeepSpeed arguments at all, or only `deepspeed.add_config_arguments(parser)`.

## Why it matters

A parser without the option exits on every rank with `error: unrecognized arguments:
--deepspeed ./ds_config.json`. `deepspeed.add_config_arguments` does not help:
deepspeed/__init__.py `_add_core_arguments` defines `--deepspeed` as a switch
(`action='store_true'`) and the config path as `--deepspeed_config`, so the file name is
left over and rejected the same way. Reported in deepspeedai/DeepSpeed#3961.

## How to fix it

`parser = deepspeed.add_config_arguments(parser)` and launch with
`--deepspeed --deepspeed_config ds_config.json`; or pass `config=` to
`deepspeed.initialize` from an option of your own.

## When preflight stays silent

* The script defines its own `"--deepspeed"` option, or uses `HfArgumentParser` /
  `TrainingArguments` (whose `--deepspeed` takes the path), `parse_known_args`, its own
  `sys.argv` handling, fire/click/typer/absl/jsonargparse/Hydra.
* The value after `--deepspeed` is not a `.json`/`.yaml` file name.
* The launched script is not among the audited files, or the parser is built in another module.
"""
    bad_examples = examples("preflight.rules.plan._pf232_examples", "BAD_EXAMPLES")
    good_examples = examples("preflight.rules.plan._pf232_examples", "GOOD_EXAMPLES")

    def check_plan(self, pctx: PlanContext) -> Iterable[Finding]:
        argv = pctx.project.argv
        if not argv or not any(tok.startswith("--deepspeed") for tok in argv):
            return
        from preflight.adapters.launchers import parse_launch

        info = parse_launch(argv)
        if info.script is None or info.module:
            return
        path = _path_after_flag(info.script_args)
        if path is None:
            return
        script = launched_script(pctx, info.script)
        if script is None:
            return
        text = script.source.text
        if any(word in text for word in _TAKES_A_PATH) or _OWN_DEEPSPEED.search(text):
            return
        call = strict_parse_call(script.tree)
        if call is None:
            return
        why = ("`deepspeed.add_config_arguments` makes `--deepspeed` a switch (store_true) and leaves the "
               f"path `{path}` over" if "add_config_arguments" in text else "the parser has no --deepspeed option")
        message = (f"the launch passes `--deepspeed {path}` to `{script.source.display}`, but {why}: "
                   f"`parse_args()` exits with \"unrecognized arguments\" on every rank and the config is never "
                   f"read. Add `deepspeed.add_config_arguments(parser)` and pass `--deepspeed "
                   f"--deepspeed_config {path}`")
        finding = pctx.location_finding(self, script.source.display, call.lineno, message)
        yield finding
