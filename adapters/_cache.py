"""``model.use_cache`` when activation checkpointing is torch's wrapper.

transformers' decoders return their key/value cache from a training forward whenever
``config.use_cache`` is on (the default). Only transformers' own checkpointing switches it off
(``if self.gradient_checkpointing and self.training: use_cache = False``, after
``gradient_checkpointing_enable()``). FSDP's activation checkpointing (accelerate's
``fsdp_activation_checkpointing``, ``FullyShardedDataParallelPlugin(activation_checkpointing=
True)``, the Trainer's ``fsdp_config`` ``activation_checkpointing``) wraps the layers with
torch's ``checkpoint_wrapper`` and leaves that flag off, so the cache stays on. The fact is a
default (source kind ``default``, medium): an explicit ``use_cache=`` in the script wins.
"""

from __future__ import annotations

from preflight.plan import Source

DETAIL = ("config.use_cache stays on (transformers' default): FSDP activation checkpointing wraps "
          "the layers with torch's checkpoint_wrapper and leaves model.gradient_checkpointing off, "
          "whose branch is what switches the cache off")


def cache_stays_on(source: Source) -> Source:
    """The default-kind source of ``model.use_cache`` True, at the checkpointing switch."""
    return Source("default", source.path, source.line, source.key, f"{source.location()}: {DETAIL}")
