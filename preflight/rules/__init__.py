"""Built-in rules, one per module, each registered with ``@register``, one folder per kind:

- ``code/``: code rules (:class:`~preflight.rules.base.Rule`), read one Python file;
- ``plan/``: plan rules (:class:`~preflight.plan_rules.PlanRule`), read a whole job;
- ``config/``: config rules (:class:`~preflight.plan_rules.ConfigRule`), read one config file;
- ``meta/``: meta rules (:class:`~preflight.rules.base.MetaRule`), read suppression comments.

Each rule's examples (``_pfNNN_examples.py``) and helpers sit beside it; helpers that rules
of several kinds share, ``base.py`` and the generated ``_index.py`` (code -> module) and
``_needs.py`` (code -> ``needs_text``) sit here.
``preflight.registry.all_rules()`` imports every module here and in every sub-folder.

A module that moved into a kind folder can still be imported under its old flat name
(``preflight.rules._pf60x_support``): the name is an alias of the one module object, so a
rule written against the flat layout (a branch merged later) keeps working.
"""

from __future__ import annotations

import os
import sys
from typing import TYPE_CHECKING, Any, Optional, Sequence

if TYPE_CHECKING:  # importlib is imported only when an alias is asked for (a one-file check never)
    import importlib.machinery
    from types import ModuleType

KINDS = ("code", "plan", "config", "meta")
_HERE = os.path.dirname(os.path.abspath(__file__))


class _AliasLoader:  # an importlib Loader (importlib.abc costs a one-file check its import)
    def __init__(self, target: str) -> None:
        self.target = target
        self.spec: Optional[importlib.machinery.ModuleSpec] = None

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> ModuleType:
        import importlib

        module = importlib.import_module(self.target)
        self.spec = module.__spec__
        return module

    def exec_module(self, module: ModuleType) -> None:
        module.__spec__ = self.spec  # the import machinery gave it the alias's spec: undo that


class _MovedModuleFinder:  # an importlib MetaPathFinder
    """``preflight.rules.NAME`` -> ``preflight.rules.KIND.NAME`` when only the latter exists."""

    def find_spec(self, fullname: str, path: Optional[Sequence[str]] = None,
                  target: Optional[ModuleType] = None) -> Optional[importlib.machinery.ModuleSpec]:
        prefix = __name__ + "."
        if not fullname.startswith(prefix) or "." in fullname[len(prefix):]:
            return None
        name = fullname[len(prefix):]
        for kind in KINDS:
            if os.path.isfile(os.path.join(_HERE, kind, name + ".py")):
                import importlib.machinery

                loader: Any = _AliasLoader(f"{prefix}{kind}.{name}")
                return importlib.machinery.ModuleSpec(fullname, loader)
        return None


if not any(isinstance(f, _MovedModuleFinder) for f in sys.meta_path):
    sys.meta_path.append(_MovedModuleFinder())
