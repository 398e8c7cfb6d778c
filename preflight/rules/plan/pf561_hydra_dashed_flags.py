"""PF561 hydra-dashed-flags: ``--key value`` options on the command line of a ``@hydra.main`` app."""

from __future__ import annotations

from typing import Iterable

from preflight.diagnostics import Category, Evidence, Finding, Severity
from preflight.plan_rules import PlanContext, PlanRule
from preflight.registry import register
from preflight.rules.base import examples
from preflight.rules.plan._hydra_apps import OWN_PARSING as _OWN_PARSING

# hydra/_internal/utils.py get_args_parser(): every option Hydra's own parser takes
_HYDRA_LONG = ("--help", "--hydra-help", "--version", "--cfg", "--resolve", "--package", "--run",
               "--multirun", "--shell-completion", "--config-path", "--config-name", "--config-dir",
               "--experimental-rerun", "--info")
_HYDRA_SHORT = ("-h", "-c", "-p", "-r", "-m", "-sc", "-cp", "-cn", "-cd", "-i")
# what lets the script read its own dashed options before Hydra does


def _foreign(token: str) -> bool:
    """A dashed token Hydra's parser does not know (argparse accepts unique prefixes of long
    options: ``--multi`` is ``--multirun``)."""
    head = token.split("=", 1)[0]
    if head in _HYDRA_SHORT or head == "--":
        return False
    if head.startswith("--"):
        return not any(flag.startswith(head) for flag in _HYDRA_LONG)
    return False  # a short option Hydra does not know: too rare to tell from a value


def _legacy_launch(argv: list[str], n_script_args: int) -> bool:
    """``python -m torch.distributed.launch ... script.py``, without ``--use-env``/``--use_env``
    among the launcher's own options."""
    head = argv[:len(argv) - n_script_args] if n_script_args else argv
    if "torch.distributed.launch" not in head:
        return False
    return not any(tok.split("=", 1)[0] in ("--use-env", "--use_env") for tok in head)


@register
class HydraDashedFlags(PlanRule):
    code = "PF561"
    name = "hydra-dashed-flags"
    severity = Severity.ERROR
    category = Category.CONFIG
    frameworks = ("hydra",)
    summary = "argparse-style `--key value` options on the command line of a @hydra.main app"
    explanation = """
## What it finds

The launch command runs a script whose entry point is `@hydra.main` and passes it
options such as `--task cifar100` or `--lr=0.1` that are not Hydra's own
(`--multirun`, `--config-name`, `--cfg`, `--info`, ... as
hydra/_internal/utils.py `get_args_parser` declares them). The script does not read
`sys.argv` or parse arguments itself.

## Why it matters

`@hydra.main` parses the command line with its own argparse parser: positional
`key=value` overrides and its own options. A `--task cifar100` pair is rejected before
the job starts: older Hydra releases exit with "unrecognized arguments: --task ...",
newer ones hand the leftover tokens to the override parser, which rejects them because
they hold no `=` (not run here; read from the source). Reported in
NUS-HPC-AI-Lab/Neural-Network-Diffusion#6 (maintainer: "The override must using '=', so
you can change your command to python train_p_diff.py task=cifar100 system=ae_ddpm").

## How to fix it

Write overrides as `key=value` (`task=cifar100`), `+key=value` for a key the config
lacks.

## When preflight stays silent

* The option is Hydra's own (or a unique prefix of one, as argparse allows).
* The script reads `sys.argv` or parses arguments itself (`parse_known_args` and a
  rewrite of `sys.argv` is a common way to take both), or the app is built with
  `compose()`.
* No launch command is given.

It also reports `python -m torch.distributed.launch` (without `--use-env`) in front of
such an app: that launcher appends `--local-rank=N` to every worker's command line
(torch/distributed/run.py, `config_from_args`: `if not use_env:
cmd_args.append(f"--local-rank={macros.local_rank}")`), which Hydra rejects the same way
(facebookresearch/hydra#514 shape).
"""
    bad_examples = examples("preflight.rules.plan._pf561_examples", "BAD_EXAMPLES")
    good_examples = examples("preflight.rules.plan._pf561_examples", "GOOD_EXAMPLES")

    def check_plan(self, pctx: PlanContext) -> Iterable[Finding]:
        try:
            from preflight.adapters.hydra import find_apps
        except ImportError:  # pragma: no cover - the adapter ships with preflight
            return
        project = pctx.project
        if not project.argv:
            return
        for app in find_apps(project):
            script = app.script
            if script is None or app.how != "@hydra.main" or app.line is None:
                continue
            text = script.source.text
            if any(word in text for word in _OWN_PARSING):
                continue
            args = project.script_args(script)
            foreign = [tok for tok in args if tok.startswith("--") and _foreign(tok)]
            if foreign:
                shown = " ".join(foreign[:3])
                message = (f"the launch passes `{shown}` to `{script.source.display}`, a @hydra.main app: "
                           f"Hydra's command line takes `key=value` overrides and its own options only, so the "
                           f"job exits before it starts (\"unrecognized arguments\" or an override parse "
                           f"error). Write the options as overrides "
                           f"(`{foreign[0].lstrip('-').split('=')[0]}=...`)")
            elif _legacy_launch(list(project.argv), len(args)):
                message = (f"`python -m torch.distributed.launch` without --use-env appends "
                           f"`--local-rank=N` to each worker's command line (torch/distributed/run.py "
                           f"config_from_args), and `{script.source.display}` is a @hydra.main app that "
                           f"takes only `key=value` overrides: every worker exits before it starts. Launch "
                           f"with torchrun (or add --use-env) and read LOCAL_RANK from the environment")
            else:
                continue
            evidence = [Evidence(line=app.line, path=script.source.display,
                                 message="@hydra.main parses the command line")]
            if project.launch_at is not None:
                path, line = project.launch_at
                yield pctx.location_finding(self, path, line, message, evidence=evidence)
            else:
                yield pctx.location_finding(self, script.source.display, app.line, message, evidence=evidence)
