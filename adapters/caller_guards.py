"""Whether the function a call sits in is itself run: the guards around its callers.

A construct inside a module-level helper runs only when a call of the helper does
(allenai/olmocr ``olmocr/train/train.py`` at f7cfe4c: ``LoraConfig(**lora_kwargs)`` in
``prepare_lora_model``, called only under ``if config.model.use_lora:``). The guards of the
call itself (:meth:`ScriptIndex.runs`) say nothing of that, so a fact read from such a
construct was given at high confidence although the job may never build it.

:func:`callers_run` follows the helper's calls in the same script (by name, a few levels up):

- True: the call is not inside a module-level function, the function has no call in the
  script or is also handed on as a value (an entry point, a callback given to ``fire.Fire``/
  ``mp.spawn``, a function another module calls: nothing to say), or one of its calls runs;
- None: no call known to run, one not known either way (an option not read statically);
- False: every call of the function is decided not to run.
"""

from __future__ import annotations

import ast
from typing import Optional

from preflight.script_index import CallSite, ScriptIndex

_DEPTH = 4


def _module_function(idx: ScriptIndex, name: Optional[str]) -> bool:
    """``name`` is defined once in the script, at module level (a helper, not a method or closure)."""
    if not name:
        return False
    defs = idx.functions.get(name, [])
    tree = idx.script.tree
    return len(defs) == 1 and isinstance(tree, ast.Module) and any(node is defs[0] for node in tree.body)


def _referenced(idx: ScriptIndex, name: str) -> bool:
    """``name`` used other than as the callee of a call (``mp.spawn(main_worker, ...)``,
    ``Process(target=train)``, ``fire.Fire(main)``): run by code not read here."""
    tree = idx.script.tree
    if tree is None:
        return False
    callees = {id(n.func) for n in ast.walk(tree) if isinstance(n, ast.Call)}
    return any(isinstance(n, ast.Name) and n.id == name and isinstance(n.ctx, ast.Load) and id(n) not in callees
               for n in ast.walk(tree))


def callers_run(idx: ScriptIndex, site: CallSite, depth: int = 0, seen: Optional[set[str]] = None) -> Optional[bool]:
    """Whether the module-level function around ``site`` is called by code that runs (see the module)."""
    if site.klass is not None or not _module_function(idx, site.function) or depth > _DEPTH:
        return True
    seen = set() if seen is None else seen
    if site.function in seen:
        return True  # recursion: the outer call decides
    seen = seen | {str(site.function)}
    calls = [c for c in idx.calls if c.name == site.function]
    if not calls or _referenced(idx, str(site.function)):
        return True  # no call here, or handed on as a value (``mp.spawn(main_worker, ...)``): not followed
    state: Optional[bool] = False
    for call in calls:
        here = idx.runs(call)
        if here is not False:
            above = callers_run(idx, call, depth + 1, seen)
            here = False if above is False else (here if above else None)
        if here is True:
            return True
        if here is None:
            state = None
    return state


def entry_callers_run(idx: ScriptIndex, site: CallSite, entry: ScriptIndex) -> Optional[bool]:
    """For ``site`` in a module-level function of a local module that its own module never calls nor hands
    on: whether the entry script's calls of that function run (VectorInstitute/vectorlm @ 9045f08
    ``vectorlm/utils/model_utils.py:33-54`` builds ``LoraConfig`` in ``get_lora_model_from_base_model``,
    which ``examples/llama_example.py:84-103`` calls only under ``if lora_peft_config is not None:``, a key
    the job's YAML leaves commented out). True when the entry does not call it by name (not followed here),
    or one call runs; None when none is known to run; False when every call is decided not to."""
    name = site.function
    if site.klass is not None or not _module_function(idx, name) or _referenced(idx, str(name)) \
            or any(c.name == name for c in idx.calls):
        return True
    calls = [c for c in entry.calls if c.name == name]
    if not calls or _referenced(entry, str(name)):
        return True
    state: Optional[bool] = False
    for call in calls:
        here = entry.runs(call)
        if here is not False:
            above = callers_run(entry, call)
            here = False if above is False else (here if above else None)
        if here is True:
            return True
        if here is None:
            state = None
    return state
