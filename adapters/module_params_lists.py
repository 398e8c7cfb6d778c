"""Module containers filled step by step, for the module counter (``module_params_nested``): an empty
``nn.ModuleList()`` / ``nn.Sequential()`` bound to a local and filled by ``append``/``extend`` before it is
handed on, and an empty container on ``self`` replaced under a test. Read, never run.

- **A local module list filled in a loop** (ermongroup/ddim @ e8df66c ``models/diffusion.py:226-246``, the DDPM
  UNet that latent-diffusion's autoencoder and taming-transformers share)::

      block = nn.ModuleList()
      for i_block in range(self.num_res_blocks):
          block.append(ResnetBlock(in_channels=block_in, out_channels=block_out, ...))
      down = nn.Module()
      down.block = block

  each ``append`` adds to the list while the local still holds it alone; once it is handed on (set on a
  module, appended, given to a call) a later ``append`` makes the count unknown, since what holds it counted
  it when it was handed.
- **An empty shortcut replaced** (kuangliu/pytorch-cifar @ 49b7aa9 ``models/dla_simple.py:28-34``, the
  ResNet ``BasicBlock`` of most CIFAR repositories)::

      self.shortcut = nn.Sequential()
      if stride != 1 or in_planes != self.expansion*planes:
          self.shortcut = nn.Sequential(nn.Conv2d(...), nn.BatchNorm2d(...))

  the first value holds no parameter and nothing was put into it, so the second simply takes its place.
  Replacing a submodule that holds parameters stays unknown.
"""

from __future__ import annotations

import ast
from typing import Any

from preflight.adapters.module_params import _Unknown
from preflight.adapters.module_params_values import _holds_module, _Mod

#: the fact an empty ``nn.ModuleList()`` / ``nn.Sequential()`` carries while nothing is in it
EMPTY = "empty_list"


def empty_list() -> _Mod:
    """The value of an empty ``nn.ModuleList()`` / ``nn.Sequential()``."""
    return _Mod(0, {}, [], {EMPTY: True})


def self_list_insert(frame: Any, call: ast.Call) -> bool:
    """``self.up.insert(0, m)`` into a module list of ``self`` (ddim ``models/diffusion.py:294``): ``m`` counted
    as an ``append`` is (the order changes no count); True when handled."""
    func = call.func
    if not (isinstance(func, ast.Attribute) and func.attr == "insert" and isinstance(func.value, ast.Attribute)
            and isinstance(func.value.value, ast.Name) and func.value.value.id == "self"):
        return False
    holder = frame.attrs.get(func.value.attr)
    if not isinstance(holder, _Mod) or len(call.args) != 2 or call.keywords:
        raise _Unknown("insert")
    added = frame.ev(call.args[1])
    if not isinstance(added, _Mod):
        raise _Unknown("insert")
    frame.add(added)
    return True


def local_list_append(frame: Any, call: ast.Call) -> bool:
    """``name.append(m)`` / ``name.extend([...])`` of a local module list built empty: ``m`` added to it;
    True when handled. A list already handed on: unknown."""
    func = call.func
    if self_list_insert(frame, call):
        return True
    if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Attribute) \
            and isinstance(func.value.value, ast.Name) and func.value.value.id == "self":
        holder = frame.attrs.get(func.value.attr)
        if isinstance(holder, _Mod):
            holder.facts.pop(EMPTY, None)  # ``self.x.append(...)``: counted by the interpreter, no longer empty
        if func.attr == "reverse" and isinstance(holder, (list, tuple)) and not call.args and not call.keywords \
                and not any(isinstance(v, _Mod) for v in holder):
            # a plain list of sizes kept on ``self`` (raoyongming/HorNet ``hornet.py:48-49``: ``self.dims =
            # [dim // 2 ** i for i in range(order)]; self.dims.reverse()``), reversed in place
            frame.attrs[func.value.attr] = type(holder)(holder[::-1])
            return True
        if func.attr == "append" and isinstance(holder, (list, tuple)) and not _holds_module(holder) \
                and len(call.args) == 1 and not call.keywords:
            # a plain list of sizes kept on ``self`` and filled in the loop that builds the layers
            # (microsoft/FocalNet ``classification/focalnet.py:56-66``: ``self.kernel_sizes = []`` ...
            # ``self.kernel_sizes.append(kernel_size)``): a new list, so a module never lands in it
            added = frame.soft(call.args[0])
            if _holds_module(added):
                raise _Unknown("a module appended to a plain list")
            frame.attrs[func.value.attr] = type(holder)((*holder, added))
            return True
        return False
    if not (isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name)
            and func.attr in ("append", "extend")):
        return False
    held = frame.env.get(func.value.id)
    if not isinstance(held, _Mod) or ("filled" not in held.facts and EMPTY not in held.facts):
        return False
    if id(held) in frame.taken:
        raise _Unknown("a module list changed after it was handed on")
    if len(call.args) != 1 or call.keywords:
        raise _Unknown(func.attr)
    added = frame.ev(call.args[0])
    parts = list(added) if func.attr == "extend" and isinstance(added, (tuple, list)) else [added]
    if not all(isinstance(p, _Mod) for p in parts):
        raise _Unknown(func.attr)
    start = int(held.facts.get("filled", 0))
    for i, part in enumerate(parts):
        held.n += part.n
        held.layers.extend(part.layers)
        for sub, size in part.weights.items():
            key = str(start + i)
            held.weights[f"{key}.{sub}" if sub else key] = size
    held.facts.pop(EMPTY, None)
    held.facts["filled"] = start + len(parts)
    return True


def replaces_empty(old: Any) -> bool:
    """True when a submodule of ``self`` may be replaced: an empty module list or ``nn.Sequential()`` that
    nothing was put into."""
    return isinstance(old, _Mod) and old.n == 0 and not old.layers and EMPTY in old.facts


def augmented(frame: Any, stmt: ast.AugAssign) -> Any:
    """The new value of ``name op= value``: for a local list of layers, ``layers += [nn.Conv2d(...), ...]``
    (weiaicunzai/pytorch-cifar100 @ 11d8418 ``models/vgg.py:44-61`` ``make_layers``, then ``nn.Sequential(
    *layers)``; torchvision's VGG the same) extends it as ``layers.extend([...])`` does: counted where the list
    reaches ``self``. Anything else is the plain operation."""
    target = stmt.target
    assert isinstance(target, ast.Name)
    held = frame.env.get(target.id)
    if isinstance(stmt.op, ast.Add) and isinstance(held, (list, tuple)):
        added = frame.ev(stmt.value)
        if isinstance(added, (list, tuple)):
            return tuple(held) + tuple(added)
    return frame.ev(ast.BinOp(ast.Name(target.id, ast.Load()), stmt.op, stmt.value))
