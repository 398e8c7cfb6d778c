"""PF342 examples: small projects (``# --- <path>`` sections); bad ones must fire at the pinned
line, good ones stay silent."""

from __future__ import annotations

import textwrap

_JOB = textwrap.dedent("""
    # --- train_sft.py
    import torch
    from transformers import AutoModelForCausalLM


    def grouped(model, weight_decay, no_decay={names}):  # {pin}
        return [
            {{"params": [p for n, p in model.named_parameters() if not any(nd in {key} for nd in no_decay)],
             "weight_decay": weight_decay}},
            {{"params": [p for n, p in model.named_parameters() if any(nd in {key} for nd in no_decay)],
             "weight_decay": 0.0}},
        ]


    model = AutoModelForCausalLM.from_pretrained("{model}", torch_dtype=torch.bfloat16)
    optimizer = torch.optim.AdamW(grouped(model, 0.1), lr=1e-5)
""")

BAD_EXAMPLES = [
    # DeepSpeedExamples PR 755: BERT's name list on Llama-2
    _JOB.format(names='["bias", "LayerNorm.weight"]', pin="warning: PF342", key="n",
                model="meta-llama/Llama-2-7b-hf"),
    _JOB.format(names='("bias", "LayerNorm.bias", "LayerNorm.weight")', pin="warning: PF342", key="n",
                model="facebook/opt-1.3b"),
]

GOOD_EXAMPLES = [
    # the fix: lower-cased names against the families' fragments
    _JOB.format(names='["bias", "layernorm", "layer_norm", "norm"]', pin="", key="n.lower()",
                model="meta-llama/Llama-2-7b-hf"),
    # tricky: the same BERT list on BERT, whose norms are named LayerNorm
    _JOB.format(names='["bias", "LayerNorm.weight"]', pin="", key="n", model="bert-base-uncased"),
    # tricky: BERT's spelling plus a fragment that matches Llama's norms
    _JOB.format(names='["bias", "LayerNorm.weight", "norm.weight"]', pin="", key="n",
                model="meta-llama/Llama-2-7b-hf"),
]
