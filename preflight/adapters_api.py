"""The adapter API: what a framework adapter sees (:class:`Project`) and implements (:class:`Adapter`).

An adapter recognises one framework, config format or launcher and adds facts to the
shared :class:`~preflight.plan.TrainingPlan`. It never imports the framework: it reads
parsed scripts (stdlib ``ast``) and loaded configs (:mod:`preflight.loaders`).

:class:`ScriptIndex` (in :mod:`preflight.script_index`) is built once per script on first use and
shared by every adapter:
every call with its import-resolved name, the ``if`` tests around it and the name it is
assigned to; simple assignments for literal resolution; and argparse arguments, so
``DataLoader(batch_size=args.batch_size)`` resolves to the ``add_argument`` default or
to the value on the launch command (``--batch_size 64``).
"""

from __future__ import annotations

import ast
import os
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar, Optional, Sequence, Union

from preflight._record import dataclass, field
from preflight.diagnostics import FileError
from preflight.loaders import LoadedConfig
from preflight.plan import Source, accepts
from preflight.script_index import (  # re-exported: adapters import them from here
    MAX_RESOLVE_DEPTH,
    ArgSpec,
    CallSite,
    Guard,
    Resolved,
    ScriptIndex,
)
from preflight.sources import ParsedPython, SourceText

if TYPE_CHECKING:
    from preflight.plan import TrainingPlan

__all__ = ["MAX_RESOLVE_DEPTH", "Adapter", "ArgSpec", "CallSite", "Guard", "Project", "Resolved", "ScriptIndex"]


# --------------------------------------------------------------------------- project


# ``python -m`` of these starts another script: the words after them are the launcher's and that script's
_LAUNCHER_MODULES = ("torch.distributed.run", "torch.distributed.launch", "accelerate.commands.launch",
                     "deepspeed", "deepspeed.launcher.runner")


@dataclass
class Project:
    """Everything one audit reads, each file read and parsed once."""

    root: Path
    scripts: list[ParsedPython] = field(default_factory=list)
    configs: list[tuple[SourceText, LoadedConfig]] = field(default_factory=list)
    errors: list[FileError] = field(default_factory=list)
    argv: list[str] = field(default_factory=list)  # launch command arguments, may be empty
    # (display path, line) of the launch script line ``argv`` was read from, when a launch script gave it
    launch_at: Optional[tuple[str, int]] = None
    # the shell loop around that line (preflight.adapters.shell_loops.ShellLoop): it runs several times
    launch_loop: Optional[Any] = None
    # (display path, line, tokens) of a launch line whose script is not in the job (not followed: ``argv`` is
    # empty then); only rules that need the line's own words read it
    unfound_launch: Optional[tuple[str, int, list[str]]] = None
    # transformers version the user stated (--transformers-version / [tool.preflight]
    # transformers-version); used when the project's requirement files declare none
    transformers_version: Optional[str] = None
    config_dirs: list[Path] = field(default_factory=list)  # directories given with --config (Hydra)
    # where files the inputs name may be read from (None: anywhere). The scheduler gate sets
    # the job's directories: it may run with more rights than the job's author.
    read_roots: Optional[list[Path]] = None
    _indexes: dict[int, ScriptIndex] = field(default_factory=dict, repr=False)
    # a project module a thin entry script hands its work to (id of the module's parse ->
    # the entry's parse): it takes the entry's launch arguments (:mod:`preflight.delegate`)
    delegates: dict[int, ParsedPython] = field(default_factory=dict, repr=False)
    # a project module whose function the entry calls with ``**mapping`` (id of the module's parse ->
    # (the entry's parse, the call)): its parameters take the mapping's keys (:mod:`preflight.adapters.splat_call`)
    splats: dict[int, tuple[ParsedPython, Any]] = field(default_factory=dict, repr=False)
    # results adapters compute once per audit and share with rules (e.g. Hydra compositions)
    cache: dict[str, Any] = field(default_factory=dict, repr=False)

    def may_read(self, path: Path) -> bool:
        """Whether a file or directory that an input names (not one given on the command line)
        may be read: always, unless ``read_roots`` is set and ``path`` resolves outside them
        and outside the directories given with ``--config``."""
        if self.read_roots is None:
            return True
        target = os.path.realpath(path)
        for root in [*self.read_roots, *self.config_dirs]:
            base = os.path.realpath(root)
            if target == base or target.startswith(base.rstrip(os.sep) + os.sep):
                return True
        return False

    def own_scripts(self) -> list[ParsedPython]:
        """The scripts audited as the job's, less the project modules read only for a function the entry
        calls with ``**mapping`` (those are local modules the entry imports, seen with it)."""
        return [s for s in self.scripts if id(s) not in self.splats]

    def script_args(self, script: ParsedPython) -> list[str]:
        """The part of ``argv`` meant for ``script``: what follows the script's name when
        ``argv`` is a whole launch command (``torchrun ... train.py --lr 1``), else all of it;
        nothing when ``argv`` launches a different script."""
        entry = self.delegates.get(id(script))
        if entry is not None:
            return self.script_args(entry)
        name = os.path.basename(str(script.source.path))
        for i, tok in enumerate(self.argv):
            if os.path.basename(tok) == name:
                return list(self.argv[i + 1 :])
        stem = os.path.splitext(name)[0]
        for i, tok in enumerate(self.argv[:-1]):
            if tok == "-m" and self.argv[i + 1].rsplit(".", 1)[-1] == stem != "__main__" \
                    and self.argv[i + 1] not in _LAUNCHER_MODULES:
                # ``python -m yolox.tools.train -f exps/default/yolox_s.py -d 8``: a ``.py`` word after
                # the module is one of its options' values (Megvii-BaseDetection/YOLOX @ 6ddff48 README)
                return list(self.argv[i + 2 :])
        if any(tok.endswith(".py") and not tok.startswith("-") for tok in self.argv):
            return []
        if stem == "__main__":  # `python -m pkg.base` runs pkg/base/__main__.py: the package's name
            stem = os.path.basename(os.path.dirname(os.path.abspath(str(script.source.path))))
        for i, tok in enumerate(self.argv[:-1]):
            if tok == "-m":  # `python -m pkg.train ...` / `accelerate launch ... -m pkg.train ...`
                module = self.argv[i + 1]
                # ``python -m pkg.scripts.__main__`` (a console script's entry module) runs pkg/scripts/__main__.py
                bare = module[:-len(".__main__")] if module.endswith(".__main__") else module
                if bare.rsplit(".", 1)[-1] == stem:
                    return list(self.argv[i + 2 :])
                if module not in _LAUNCHER_MODULES:
                    return []
        return list(self.argv)

    def index(self, script: ParsedPython) -> ScriptIndex:
        key = id(script)
        found = self._indexes.get(key)
        if found is None:
            found = self._indexes[key] = ScriptIndex(script, self.script_args(script))
            from preflight.adapters.cliargs import option_resolver

            found.options = option_resolver(self, script)
            if self.argv:
                from preflight.adapters.launchers import parse_launch
                from preflight.script_env import launch_env

                found.launch_env = launch_env(parse_launch(self.argv))
            from preflight.adapters.config_object_splat_file import splat_file_binder

            found.loaded_kwargs = splat_file_binder(self, script, found)
            splat = self.splats.get(key)
            if splat is not None:
                from preflight.adapters.splat_call import binder

                found.called_with = binder(self.index(splat[0]), splat[1])
        return found

    def calls(self, *patterns: str) -> list[CallSite]:
        """Calls whose qualified name is one of ``patterns`` or ends with ``.pattern``."""
        out: list[CallSite] = []
        for script in self.scripts:
            out.extend(self.index(script).find(*patterns))
        return out

    def all_calls(self) -> list[CallSite]:
        out: list[CallSite] = []
        for script in self.scripts:
            out.extend(self.index(script).calls)
        return out

    def source(self, script: ParsedPython, node: Union[ast.AST, int, None], kind: str = "code", *,
               key: Optional[str] = None, detail: Optional[str] = None) -> Source:
        """A fact source at a node (or line) of a script; notebook lines become cell lines."""
        line = node if isinstance(node, int) or node is None else getattr(node, "lineno", None)
        path = script.source.display
        if line is not None:
            cell, line = script.locate(line)
            if cell is not None:
                path = f"{path}:cell {cell}"
        return Source(kind, path, line, key, detail)

    def config_source(self, config: LoadedConfig, key_path: Sequence[Any], *, detail: Optional[str] = None,
                      kind: str = "config") -> Source:
        key = ".".join(str(k) for k in key_path) or None
        return Source(kind, config.path, config.line_of(key_path, nearest=True), key, detail)


class Adapter:
    """Base class of framework adapters; register with ``@register_adapter``."""

    name: ClassVar[str] = ""
    frameworks: ClassVar[tuple[str, ...]] = ()

    def detect(self, project: Project) -> bool:
        """Whether the framework appears in the project (cheap; no facts yet)."""
        raise NotImplementedError

    def contribute(self, project: Project, plan: TrainingPlan) -> None:
        """Add what this framework says to ``plan``; skip what cannot be known statically."""
        raise NotImplementedError

    def add(self, plan: TrainingPlan, field: str, value: Any, source: Source,
            confidence: str = "high", priority: int = 0) -> None:
        plan.add(field, value, source, confidence, adapter=self.name, priority=priority)

    def add_checked(self, plan: TrainingPlan, field: str, value: Any, source: Source,
                    confidence: str = "high", priority: int = 0) -> bool:
        """``add`` for values read from user data: a value that does not fit the field is skipped."""
        if not accepts(field, value):
            return False
        self.add(plan, field, value, source, confidence, priority)
        return True

    def note(self, plan: TrainingPlan, text: str) -> None:
        plan.note(f"{self.name}: {text}")


class ScratchAdapter(Adapter):
    """An adapter whose whole reading runs in ``detect``, into a scratch plan that ``contribute``
    copies: one that reads nothing is not named among the adapters detected. Subclasses give
    ``wants`` (a cheap test of the project) and ``work`` (the reading, into the plan given)."""

    def wants(self, project: Project) -> bool:
        return True

    @staticmethod
    def scripts(project: Project) -> list[Any]:
        """The project's scripts that parsed to a module and have a path on disk."""
        return [s for s in project.scripts
                if isinstance(s.tree, ast.Module) and s.source.path is not None]

    def work(self, project: Project, plan: TrainingPlan) -> None:
        raise NotImplementedError

    def detect(self, project: Project) -> bool:
        from preflight.plan import TrainingPlan

        if not self.wants(project):
            return False
        scratch = TrainingPlan()
        self.work(project, scratch)
        project.cache[f"{self.name}.scratch"] = scratch
        return bool(scratch.fields())

    def contribute(self, project: Project, plan: TrainingPlan) -> None:
        from preflight.plan import TrainingPlan

        scratch = project.cache.pop(f"{self.name}.scratch", None)
        if not isinstance(scratch, TrainingPlan):
            scratch = TrainingPlan()
            self.work(project, scratch)
        for name in scratch.fields():
            for fact in scratch.facts(name):
                self.add(plan, name, fact.value, fact.source, fact.confidence, fact.priority)
