"""PF206 deepspeed-launch-without-local-rank-arg: the ``deepspeed`` launcher appends
``--local_rank=N``; the script's own argparse parser does not accept it."""

from __future__ import annotations

import ast
from pathlib import PurePosixPath
from typing import Iterable

from preflight.diagnostics import Category, Evidence, Finding, Severity
from preflight.plan_rules import PlanContext, PlanRule
from preflight.registry import register
from preflight.rules.base import examples
from preflight.rules.plan._strict_parse import strict_hf_parse_call, strict_parse_call

# what lets the script take --local_rank (or not read sys.argv with a strict parser at all)
_TAKES_IT = ("local_rank", "local-rank", "parse_known_args", "add_config_arguments",
             "sys.argv", "fire.Fire", "import fire", "click", "typer", "absl")


def _same_script(display: str, launched: str) -> bool:
    a, b = PurePosixPath(display.replace("\\", "/")), PurePosixPath(launched.replace("\\", "/"))
    return a.parts[-len(b.parts):] == tuple(p for p in b.parts if p != ".") or a.name == b.name


@register
class DeepSpeedLaunchWithoutLocalRankArg(PlanRule):
    code = "PF206"
    name = "deepspeed-launch-without-local-rank-arg"
    severity = Severity.ERROR
    category = Category.CORRECTNESS
    frameworks = ("deepspeed",)
    summary = "the deepspeed launcher passes --local_rank=N, but the script's argparse parser does not accept it"
    explanation = """
## What it finds

The job is started with the `deepspeed` launcher (`deepspeed train.py ...`, `python -m
deepspeed.launcher.runner`) without `--no_local_rank`, and the launched script parses its
command line with its own `argparse.ArgumentParser` (`parser.parse_args()` on `sys.argv`)
while the script mentions `local_rank` nowhere (no `--local_rank` argument, no
`deepspeed.add_config_arguments`, no `parse_known_args`, no own handling of `sys.argv`).
Also an `HfArgumentParser(...).parse_args_into_dataclasses()` over the script's own
`@dataclass` classes only (no `TrainingArguments`, which defines `--local_rank`), without
`return_remaining_strings=True`: it raises "Some specified arguments are not used by the
HfArgumentParser: ['--local_rank=0']".

## Why it matters

The launcher starts each process with `--local_rank=<n>` appended to the script's
arguments: deepspeed/launcher/launch.py, `if not args.no_local_rank:
cmd.append(f"--local_rank={local_rank}")`. A parser that does not define the option
exits at once with `error: unrecognized arguments: --local_rank=0` on every process.
Reported in yangjianxin1/Firefly#30 (the fix adds `parser.add_argument("--local_rank")`) and
Firefly#154 (the same error on all four ranks), 01-ai/Yi PR 69, huggingface/transformers PR 25268
(the docs now point at DeepSpeed's argument parsing).

## How to fix it

`parser.add_argument("--local_rank", type=int, default=-1)` (or
`deepspeed.add_config_arguments(parser)` plus that argument), `parse_known_args()`, or
launch with `deepspeed --no_local_rank ...` and read `LOCAL_RANK` from the environment.

## When preflight stays silent

* The launcher is not `deepspeed`, or `--no_local_rank` is passed.
* The script's text mentions `local_rank`/`local-rank`, parses with `parse_known_args`,
  fire/click/typer/absl, or touches `sys.argv` itself.
* `HfArgumentParser` is given `TrainingArguments` (or any class that is not one of the
  script's own base-less dataclasses: it may define the field), `args=...`, or
  `return_remaining_strings=True`.
* `parse_args` is given an explicit list, or the parser is built in another module.
"""
    bad_examples = examples("preflight.rules.plan._pf206_examples", "BAD_EXAMPLES")
    good_examples = examples("preflight.rules.plan._pf206_examples", "GOOD_EXAMPLES")

    def check_plan(self, pctx: PlanContext) -> Iterable[Finding]:
        argv = pctx.project.argv
        if not argv:
            return
        from preflight.adapters.launchers import parse_launch

        info = parse_launch(argv)
        if info.launcher != "deepspeed" or info.script is None or info.module:
            return
        if any("no_local_rank" in tok or "no-local-rank" in tok for tok in argv):
            return
        for script in pctx.scripts:
            if not _same_script(script.source.display, info.script):
                continue
            text = script.source.text
            if any(word in text for word in _TAKES_IT):
                continue
            if "parse_args_into_dataclasses" in text:
                # HfArgumentParser: TrainingArguments defines --local_rank; the script's own dataclasses may not
                hf = strict_hf_parse_call(script.tree)
                if hf is None:
                    continue
                call, classes = hf
                message = (f"`{script.source.display}` is started by the deepspeed launcher, which appends "
                           f"`--local_rank=N` to every process's arguments (deepspeed/launcher/launch.py), but "
                           f"`{ast.unparse(call)}` parses only the script's own dataclasses "
                           f"({', '.join(classes)}), none with a `local_rank` field: every process stops at "
                           f"startup with \"Some specified arguments are not used by the HfArgumentParser: "
                           f"['--local_rank=0']\". Add `local_rank: int = -1` to {classes[0]} (or parse "
                           f"TrainingArguments, which defines it, or launch with --no_local_rank)")
            else:
                plain = strict_parse_call(script.tree)
                if plain is None:
                    continue
                call = plain
                message = (f"`{script.source.display}` is started by the deepspeed launcher, which appends "
                           f"`--local_rank=N` to every process's arguments (deepspeed/launcher/launch.py), but "
                           f"this parser defines no --local_rank: `parse_args()` exits with \"unrecognized "
                           f"arguments: --local_rank=0\" on every process. Add "
                           f"`parser.add_argument(\"--local_rank\", type=int, default=-1)` (or launch with "
                           f"--no_local_rank)")
            evidence = []
            if pctx.project.launch_at is not None:
                path, line = pctx.project.launch_at
                evidence.append(Evidence(line=line, path=path, message="the deepspeed launch"))
            yield pctx.location_finding(self, script.source.display, call.lineno, message, evidence=evidence)
