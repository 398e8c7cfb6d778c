"""NVIDIA apex AMP O1: the GELU it runs in fp32 (est59).

apex O1 does not use ``torch.autocast``: ``amp.initialize(..., opt_level="O1")`` patches torch's
functions themselves (``apex/amp/_initialize.py`` lines 233-235: ``if properties.patch_torch_functions:
handle = amp_init(...)``; ``apex/amp/amp.py`` lines 90-101 wrap every name of each override list,
``wrap.cached_cast(module.MODULE, fn, cast_fn, ...)``, which replaces the attribute on the module,
``utils.set_func_save``). Read at apex 59978d5e (2022, the code of the Swin rows); the lists are the
same from 2019-10-23 (``5b29cc13``, "add gelu activation to fp32 list") until amp was removed in 2025.

- ``apex/amp/lists/functional_overrides.py`` (``MODULE = torch.nn.functional``): ``'linear'`` and the
  convolutions in ``FP16_FUNCS``; ``'gelu'`` in ``FP32_FUNCS`` (line 40), beside softmax,
  log_softmax and layer_norm, which ``torch.autocast`` also runs in fp32.
- ``utils.maybe_float`` (``apex/amp/utils.py`` lines 65-74): a CUDA half tensor becomes ``x.float()``.

So a GELU that calls ``torch.nn.functional.gelu`` when it runs receives an fp32 copy of the first MLP
linear's fp16 output and returns fp32: autograd's GELU keeps that fp32 input (4 bytes per element),
the fp16 output of the linear is freed, and the second linear (``F.linear``, fp16) keeps an fp16 cast
of the GELU output. ``torch.autocast`` has GELU on neither of its cast lists: GELU runs on and keeps
the fp16 input. Per token of a plain GELU MLP of width ``W``, apex O1 keeps ``W x (4 - 2)`` bytes more
(``activations._mlp``).

Which GELU looks the function up when it runs (``gelu_at_call``):

- ``nn.GELU`` (``forward``: ``F.gelu(input, ...)``): the reference Swin Transformer's ``Mlp``
  (``act_layer=nn.GELU``, microsoft/Swin-Transformer b05e621 ``models/swin_transformer.py`` lines
  14-30; its ``main.py`` lines 61 and 88-89 call ``amp.initialize`` with ``--amp-opt-level`` default
  O1 until #207 of 2022-05-14), timm's ``Mlp``, Mesa's ``GELU`` with compression off (``F.gelu(x)``,
  ziplab/Mesa 460e19a ``mesa/custom_gelu.py``);
- not transformers: ``GELUActivation.__init__`` binds ``self.act = nn.functional.gelu`` when the model
  is built (4.51.0 ``activations.py`` line 72; 2.x binds ``gelu = F.gelu`` at import), before
  ``amp.initialize`` patches the module: its GELU stays fp16 under O1.
"""

from __future__ import annotations

from typing import Any


def gelu_at_call(inp: Any) -> bool:
    """Whether the model's GELU calls ``torch.nn.functional.gelu`` when it runs: the job's fact
    (``gelu_at_call``) when known; else litgpt's modules do (``torch.nn.functional.gelu(x,
    approximate=...)`` in ``GptNeoxMLP.forward``) and transformers' do not (bound at construction)."""
    if getattr(inp, "gelu_at_call", None) is not None:
        return bool(inp.gelu_at_call)
    return getattr(inp, "model_impl", "transformers") == "litgpt"


def fp32_gelu(inp: Any) -> bool:
    """apex O1 runs the model's GELU in fp32 and keeps its fp32 input (module docstring): an amp-fp16
    job whose casts are apex's (``amp_impl`` "apex") and whose GELU is looked up when it runs."""
    return (getattr(inp, "amp_impl", "torch") == "apex" and str(getattr(inp, "precision", "")) == "amp-fp16"
            and gelu_at_call(inp))


def gelu_extra_bytes(width: int, comp: float) -> float:
    """Bytes per token more than torch autocast keeps in a plain GELU MLP of ``width`` under apex O1:
    GELU's saved input is an fp32 copy (4 bytes) instead of the linear's 16-bit output."""
    return float(width) * max(4.0 - comp, 0.0)
