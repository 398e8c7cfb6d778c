"""The dropout probabilities a model's config states, for the models whose readers did not keep them.

In training (``model.train()``), a dropout with p > 0 on CUDA runs ``at::native_dropout``, whose
backward keeps a bool mask of its input's shape (1 byte per element); with p == 0,
``nn.functional.dropout`` returns its input and keeps nothing. What the activations charge per
layer therefore depends on p being positive, read from the config the model is built from:

- BERT, RoBERTa, XLM-R, ELECTRA, ALBERT: ``attention_probs_dropout_prob`` on the attention
  probabilities (``ElectraSelfAttention``: ``self.dropout = nn.Dropout(config.attention_probs_
  dropout_prob)``, applied to the softmax output before the probability matmul; transformers
  4.51.0 ``models/electra/modeling_electra.py`` lines 224, 318-328) and ``hidden_dropout_prob``
  on the residual stream (``ElectraSelfOutput`` / ``ElectraOutput`` line 347 / 435, the
  embeddings line 152). The config classes' defaults (4.51.0 ``configuration_*.py``): 0.1 and
  0.1 for BERT, RoBERTa, XLM-R and ELECTRA, 0 and 0 for ALBERT.
- DistilBERT: ``attention_dropout`` on the probabilities, ``dropout`` on the residual stream
  (defaults 0.1 / 0.1, ``configuration_distilbert.py`` lines 101-102).
- GPT-2: ``attn_pdrop`` on the probabilities, ``resid_pdrop`` on the residual stream (defaults
  0.1 / 0.1, ``configuration_gpt2.py`` lines 146-148).
- T5, mT5, umT5: ``dropout_rate`` on both (``T5Attention``: ``self.dropout = config.dropout_rate``,
  ``nn.functional.dropout(attn_weights, p=self.dropout, ...)``, ``modeling_t5.py`` lines 366, 560;
  default 0.1).
- BART, mBART, Marian, Pegasus, Whisper: ``attention_dropout`` on the probabilities, ``dropout`` on
  the residual stream (``BartEncoderLayer``: ``dropout=config.attention_dropout``, ``self.dropout =
  config.dropout``, ``modeling_bart.py`` lines 536, 540); defaults 0.0 / 0.1 (Whisper 0.0 / 0.0):
  the table's 0.1 for BART's probabilities was the checkpoints' value, not the class default.
- ViT, DeiT, DINOv2: ``attention_probs_dropout_prob`` / ``hidden_dropout_prob``, defaults 0 / 0
  (``modeling_vit.py`` lines 230, 288).

Before this module, ``activations._dropout`` fell back to a table by model type, which had no
ELECTRA entry (so ELECTRA's eager attention was charged as if its probabilities were not
dropped out: the softmax output only, 2 of the 5 bytes per score that autograd keeps in fp16)
and ignored a config that sets p = 0 (a GPT-2 config with ``attn_pdrop: 0.0``).

Kept in ``Architecture.extra`` under the keys the activations read: ``dropout`` (the attention
probabilities' p) and ``resid_dropout`` (the residual stream's p). A job's own override
(``EstimateInput.dropout``) still replaces both.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any, Dict, Mapping, Optional, Tuple

#: model type -> ((attention key, default), (residual key, default)), the config class's names
#: and defaults in transformers 4.51.0
CONFIG_KEYS: Dict[str, Tuple[Tuple[str, float], Tuple[str, float]]] = {
    "bert": (("attention_probs_dropout_prob", 0.1), ("hidden_dropout_prob", 0.1)),
    "roberta": (("attention_probs_dropout_prob", 0.1), ("hidden_dropout_prob", 0.1)),
    "xlm-roberta": (("attention_probs_dropout_prob", 0.1), ("hidden_dropout_prob", 0.1)),
    "electra": (("attention_probs_dropout_prob", 0.1), ("hidden_dropout_prob", 0.1)),
    "albert": (("attention_probs_dropout_prob", 0.0), ("hidden_dropout_prob", 0.0)),
    "distilbert": (("attention_dropout", 0.1), ("dropout", 0.1)),
    "gpt2": (("attn_pdrop", 0.1), ("resid_pdrop", 0.1)),
    "t5": (("dropout_rate", 0.1), ("dropout_rate", 0.1)),
    "mt5": (("dropout_rate", 0.1), ("dropout_rate", 0.1)),
    "umt5": (("dropout_rate", 0.1), ("dropout_rate", 0.1)),
    "bart": (("attention_dropout", 0.0), ("dropout", 0.1)),
    "mbart": (("attention_dropout", 0.0), ("dropout", 0.1)),
    "marian": (("attention_dropout", 0.0), ("dropout", 0.1)),
    "pegasus": (("attention_dropout", 0.0), ("dropout", 0.1)),
    "whisper": (("attention_dropout", 0.0), ("dropout", 0.0)),
    "vit": (("attention_probs_dropout_prob", 0.0), ("hidden_dropout_prob", 0.0)),
    "deit": (("attention_probs_dropout_prob", 0.0), ("hidden_dropout_prob", 0.0)),
    "dinov2": (("attention_probs_dropout_prob", 0.0), ("hidden_dropout_prob", 0.0)),
}


class DropoutConfigError(ValueError):
    """A stated dropout probability that ``nn.Dropout`` would refuse (not a number in [0, 1])."""


def _probability(config: Mapping[str, Any], key: str, default: float, where: str) -> float:
    value = config.get(key, default)
    if value is None:
        return default
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise DropoutConfigError(f"{where}: '{key}' must be a number between 0 and 1, got {value!r}")
    p = float(value)
    if not 0.0 <= p <= 1.0:
        # torch.nn.Dropout: "dropout probability has to be between 0 and 1"
        raise DropoutConfigError(f"{where}: '{key}' must be between 0 and 1, got {value!r}")
    return p


def config_dropouts(model_type: str, config: Mapping[str, Any],
                    where: str = "config") -> Optional[Dict[str, float]]:
    """``{"dropout": p_attention, "resid_dropout": p_residual}`` from the config (the config
    class's default for a key it leaves out); None for a model type not listed here."""
    keys = CONFIG_KEYS.get(model_type)
    if keys is None:
        return None
    (attn_key, attn_default), (resid_key, resid_default) = keys
    return {"dropout": _probability(config, attn_key, attn_default, where),
            "resid_dropout": _probability(config, resid_key, resid_default, where)}


def with_config_dropouts(arch: Any, config: Mapping[str, Any], where: str = "config") -> Any:
    """``arch`` with the config's dropout probabilities in ``extra`` (keys a reader already set
    are kept: OPT's reader sets its own)."""
    found = config_dropouts(str(getattr(arch, "model_type", "")), config, where)
    if found is None:
        return arch
    extra = dict(getattr(arch, "extra", None) or {})
    for key, value in found.items():
        extra.setdefault(key, value)
    return replace(arch, extra=extra)
