"""PF580 examples: small projects (``# --- <path>`` sections, ``# --- launch`` holds the launch
command); bad ones must fire at the pinned line, good ones stay silent."""

from __future__ import annotations

import textwrap

_CONFIG = """
# --- fsdp.yaml
compute_environment: LOCAL_MACHINE
distributed_type: FSDP
fsdp_config:
  fsdp_auto_wrap_policy: TRANSFORMER_BASED_WRAP
  fsdp_sharding_strategy: FULL_SHARD
  fsdp_transformer_layer_cls_to_wrap: GPTNeoXLayer
  fsdp_use_orig_params: {orig}
mixed_precision: bf16
num_machines: 1
num_processes: 8
# --- launch
accelerate launch --config_file fsdp.yaml train.py
"""

_SEPARATE = textwrap.dedent("""
    # --- train.py
    import torch
    from accelerate import Accelerator
    from transformers import AutoModelForCausalLM

    from corpus import make_loader


    def main():
        accelerator = Accelerator()
        model = AutoModelForCausalLM.from_pretrained("EleutherAI/pythia-1.4b")
        {early}{pin}
        model = accelerator.prepare(model)
        {late}
        loader, optimizer = accelerator.prepare(make_loader(batch_size=8), optimizer)
        model.train()
        for batch in loader:
            loss = model(**batch).loss
            accelerator.backward(loss)
            optimizer.step()
            optimizer.zero_grad()


    if __name__ == "__main__":
        main()
""")

_TOGETHER = textwrap.dedent("""
    # --- train.py
    import torch
    from accelerate import Accelerator
    from transformers import AutoModelForSeq2SeqLM

    from summaries import make_loader


    def main():
        accelerator = Accelerator()
        model = AutoModelForSeq2SeqLM.from_pretrained("google/flan-t5-large")
        decay = [p for n, p in model.named_parameters() if "bias" not in n]
        rest = [p for n, p in model.named_parameters() if "bias" in n]
        optimizer = torch.optim.AdamW([{{"params": decay, "weight_decay": 0.01}}, {{"params": rest}}], lr=3e-4){pin}
        model, optimizer, loader = accelerator.prepare(model, optimizer, make_loader(batch_size=8))
        model.train()
        for batch in loader:
            loss = model(**batch).loss
            accelerator.backward(loss)
            optimizer.step()
            optimizer.zero_grad()


    if __name__ == "__main__":
        main()
""")

_EARLY = "optimizer = torch.optim.AdamW(model.parameters(), lr=1e-5, weight_decay=0.1)"

BAD_EXAMPLES = [
    # pytorch issue 107843: the optimizer built before the model is prepared alone
    _SEPARATE.format(early=_EARLY, pin="  # error: PF580", late="") + _CONFIG.format(orig="false"),
    # accelerate issue 2665: model and optimizer prepared together, use_orig_params false
    _TOGETHER.format(pin="  # error: PF580") + _CONFIG.format(orig="false"),
]

GOOD_EXAMPLES = [
    # the fix in the code: the optimizer built from the prepared model
    _SEPARATE.format(early="", pin="", late=_EARLY) + _CONFIG.format(orig="false"),
    # the fix in the config: FSDP keeps the original parameters
    _TOGETHER.format(pin="") + _CONFIG.format(orig="true"),
    # tricky-correct: accelerate 0.24 re-points the single optimizer prepared with the model
    _TOGETHER.format(pin="") + _CONFIG.format(orig="false") + """\
# --- requirements.txt
accelerate==0.24.1
""",
]
