"""What guards a read of a project's config object, for :mod:`preflight.adapters.config_object_flow` and
:mod:`preflight.adapters.config_object_reads`: an ``if`` the objects' values decide (run, skipped), LoRA
calls only under a decided-false test, a value written back from an object it was given to, a generation
call, a plain ``python`` launch, and the job's option resolver."""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING, Any

from preflight.adapters.config_object import Modules
from preflight.adapters.config_object_roots import Fn

from preflight.adapters_api import Project

if TYPE_CHECKING:
    from preflight.adapters.config_object_flow import _ObjReader


def _only_lora_off(found: Any, modules: Modules) -> bool:
    """Every ``LoraConfig``/``get_peft_model`` call of the modules read is in the body of an ``if`` the
    configuration decides false (nomic-ai/gpt4all ``gpt4all-training/train.py:64-69``: ``if config["lora"]:
    peft_config = LoraConfig(...)``, ``configs/train/finetune_gptj.yaml:24`` ``lora: false``), or past a guard
    clause it decides taken (:mod:`preflight.adapters.guard_clause`): no LoRA."""
    from preflight.adapters.guard_clause import dead_after, ends_in_exit
    from preflight.adapters.hydra_reads import _PEFT_CALLS, _call_name, _calls_in

    if not found.peft or any(p[0] for p in found.peft):
        return False
    off_lines = {p[2] for p in found.peft}
    inside: set[int] = set()
    calls: list[ast.Call] = []
    # ``self.get_peft_model(...)``, a method of the project's own (PandaLM core/nets.py:26): its body is read
    own = {n.name for _, _, tree in modules.trees for n in ast.walk(tree) if isinstance(n, ast.FunctionDef)}
    for _, _, tree in modules.trees:
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and _call_name(node) in _PEFT_CALLS and not (
                    isinstance(node.func, ast.Attribute) and isinstance(node.func.value, ast.Name)
                    and node.func.value.id == "self" and node.func.attr in own):
                calls.append(node)
            elif isinstance(node, ast.If) and node.lineno in off_lines:
                inside.update(id(n) for stmt in node.body for n in ast.walk(stmt))
                if ends_in_exit(node.body) and _calls_in(node.body, _PEFT_CALLS) is None:
                    inside.update(id(n) for n in dead_after(tree, node))  # a guard clause taken
    return bool(calls) and all(id(c) in inside for c in calls)


def _written_back(fn: Fn, node: ast.Assign, nodes: list[ast.AST]) -> bool:
    """``args.k = obj.k`` where ``obj = C(..., k=args.k, ...)`` in the same function: the object's value
    of what it was given, written back (XLabs-AI/x-flux @ 4749542 train_flux_lora_deepspeed.py:80-82,185:
    ``accelerator = Accelerator(mixed_precision=args.mixed_precision)`` then ``args.mixed_precision =
    accelerator.mixed_precision``, as the diffusers training scripts do): not a new value."""
    value = node.value
    if len(node.targets) != 1 or not isinstance(value, ast.Attribute) or not isinstance(value.value, ast.Name):
        return False
    target = ast.dump(node.targets[0]).replace("ctx=Store()", "ctx=Load()")
    for other in nodes:
        if isinstance(other, ast.Assign) and len(other.targets) == 1 and isinstance(other.targets[0], ast.Name) \
                and other.targets[0].id == value.value.id and isinstance(other.value, ast.Call):
            given = next((k.value for k in other.value.keywords if k.arg == value.attr), None)
            if given is not None and ast.dump(given) == target:
                return True
    return False


def _skipped(node: ast.AST, parents: dict[int, ast.AST], reader: _ObjReader) -> bool:
    """An ``if`` around ``node`` is decided by the objects' values not to run it (Latte's
    ``if 'LatteT2V' in args.model: return LatteT2V.from_pretrained(...)`` with another model)."""
    child = node
    parent = parents.get(id(node))
    while parent is not None:
        if isinstance(parent, ast.If) and child is not parent.test:
            decided = reader.test(parent.test)
            if decided is not None and decided != any(child is s for s in parent.body):
                return True
        child, parent = parent, parents.get(id(parent))
    return False


def _generation(call: ast.Call) -> bool:
    """``model.generate(..., max_length=config['max_length'])`` (BLIP's caption length at evaluation), or
    ``GenerationConfig(max_length=self.training_args.max_length, ...)`` (OpenLMLab/LOMO @ 45d4bac
    ``lomo/src/lomo_trainer.py:282``, the evaluation's generation settings)."""
    f = call.func
    name = f.attr if isinstance(f, ast.Attribute) else f.id if isinstance(f, ast.Name) else ""
    return name in ("generate", "sample", "beam_search", "greedy_search", "GenerationConfig")


def _runs(node: ast.AST, parents: dict[int, ast.AST], reader: _ObjReader) -> bool:
    """Every ``if`` around ``node`` in its function is decided by the objects' values to run it."""
    child = node
    parent = parents.get(id(node))
    while parent is not None:
        if isinstance(parent, ast.If) and child is not parent.test:
            decided = reader.test(parent.test)
            if decided is None or decided != any(child is s for s in parent.body):
                return False
        child, parent = parent, parents.get(id(parent))
    return True


def _plain_python(project: Project) -> bool:
    """The launch line is ``python script.py ...`` (one process, no launcher or wrapper)."""
    from preflight.adapters.launchers import parse_launch

    info = parse_launch(project.argv) if project.argv else None
    return info is not None and info.launcher == "python" and info.wrapper is None


def _options(project: Project, script: Any) -> Any:
    """``name`` -> the job's option: the script's own argparse declaration read as argparse reads
    the launch line (unique prefixes, ``--x=v``, ``set_defaults``), else any other declaration
    the job makes (dataclasses, fire, click, a parser in another module)."""
    from preflight.adapters.cliargs import option_resolver

    index = project.index(script)
    other = option_resolver(project, script)

    def resolve(name: str) -> Any:
        if name in index.arguments:
            return index.argument(name)  # None when ambiguous: unknown, not the other reading
        return other(name)

    return resolve
