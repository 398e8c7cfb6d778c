"""The size of a model a composed Hydra config builds around a ``transformers`` config node.

Hydra projects instantiate a model class with a config object that is itself a ``_target_`` node
(Dao-AILab/flash-attention @ the benchmark's commit ``training/configs/model/gpt2.yaml``:
``_target_: flash_attn.models.gpt.GPTLMHeadModel`` with ``config: {_target_: transformers.GPT2Config,
n_positions: ${datamodule.max_length}, ...}``, sizes from ``configs/model/gpt2model/gpt2-small.yaml``
``n_embd: 768, n_head: 12, n_layer: 12``; the trainer calls ``hydra.utils.instantiate(cfg.model)``).
The config node is data: read from the composed config, never imported or instantiated.

- a node with a ``_target_`` class whose ``config`` child is a ``_target_: transformers.<Name>Config``
  node, ``<Name>`` a model type the architecture reader knows (``GPT2Config`` -> ``gpt2``,
  ``GPTNeoXConfig`` -> ``gpt_neox``); the ``model`` section, or the one such node;
- every key of the config node resolved (interpolations included); one not known states nothing
  (it may size the model); the reader's defaults stand for the keys not given, as the class's do;
- ``pad_vocab_size_multiple`` (flash-attn's GPT models round the vocabulary up to it) applied;
- ``model.num_parameters`` from the architecture reader the estimator uses, medium.
"""

from __future__ import annotations

import math
from typing import Any, Callable, Iterable, Optional


def _model_type(target: str) -> Optional[str]:
    """``transformers.GPT2Config`` -> ``gpt2``: the reader's model type of that config class."""
    if not target.startswith("transformers.") or not target.endswith("Config"):
        return None
    name = target.rsplit(".", 1)[-1][: -len("Config")].lower()
    if not name:
        return None
    from preflight.estimate.arch import supported_model_types

    found = [t for t in supported_model_types() if t.replace("_", "").replace("-", "") == name]
    return found[0] if len(found) == 1 else None


def config_sizes(nodes: Iterable[tuple[tuple[str, ...], Any]], known: Callable[[tuple[str, ...]], Any],
                 add: Callable[..., None]) -> None:
    """``add("model.num_parameters", n, path, detail, "medium")`` for the model built around a config node."""
    built: list[tuple[tuple[str, ...], str, dict[str, Any], str]] = []
    for path, node in nodes:
        target = node.get("_target_") if isinstance(node, dict) else None
        config = node.get("config") if isinstance(node, dict) else None
        if not (isinstance(target, str) and isinstance(config, dict) and isinstance(config.get("_target_"), str)):
            continue
        model_type = _model_type(config["_target_"])
        if model_type is not None:
            built.append((path, target, config, model_type))
    if len(built) > 1:
        built = [b for b in built if b[0] == ("model",)]
    if len(built) != 1:
        return
    path, target, config, model_type = built[0]
    values: dict[str, Any] = {"model_type": model_type}
    for key in config:
        if key.startswith("_"):
            continue
        value = known((*path, "config", key))
        if value is None and config[key] is not None:
            return  # a value not known (it may size the model)
        values[key] = value
    multiple = values.pop("pad_vocab_size_multiple", None)
    from preflight.estimate.arch import ArchitectureError, from_hf_config

    if isinstance(multiple, int) and not isinstance(multiple, bool) and multiple > 1:
        try:
            vocab = from_hf_config(values, name=target).vocab_size
        except (ArchitectureError, ValueError, TypeError, KeyError):
            return
        values["vocab_size"] = int(math.ceil(vocab / multiple) * multiple)
    try:
        arch = from_hf_config(values, name=target, source=".".join((*path, "config")))
    except (ArchitectureError, ValueError, TypeError, KeyError):
        return
    total = arch.params_total
    if not isinstance(total, int) or isinstance(total, bool) or total <= 0:
        return
    where = ".".join((*path, "config"))
    add("model.num_parameters", total, (*path, "config"),
        f"{'.'.join(path) or 'the config'}: {target} built with {where} ({config['_target_']}, model type "
        f"{model_type}{', vocabulary padded to a multiple of ' + str(multiple) if multiple else ''}): "
        f"{total:,} parameters", "medium")
