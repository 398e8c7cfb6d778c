"""PF358 examples: small projects (``# --- <path>`` sections, ``# --- launch`` holds the launch
command); bad ones must fire at the pinned line, good ones stay silent."""

from __future__ import annotations

import textwrap

_CONFIG = """
# --- fsdp.yaml
compute_environment: LOCAL_MACHINE
distributed_type: FSDP
fsdp_config:
  fsdp_auto_wrap_policy: TRANSFORMER_BASED_WRAP
  fsdp_sharding_strategy: 1
  fsdp_transformer_layer_cls_to_wrap: MistralDecoderLayer
  fsdp_use_orig_params: true
mixed_precision: bf16
num_machines: 1
num_processes: 4
# --- launch
accelerate launch --config_file fsdp.yaml train.py
# --- requirements.txt
accelerate=={version}
bitsandbytes==0.41.1
"""

_SCRIPT = textwrap.dedent("""
    # --- train.py
    import bitsandbytes as bnb
    import torch
    from accelerate import Accelerator
    from transformers import AutoModelForCausalLM

    from data import make_loader


    def main():
        accelerator = Accelerator(gradient_accumulation_steps=4)
        model = AutoModelForCausalLM.from_pretrained("mistralai/Mistral-7B-v0.1", torch_dtype=torch.bfloat16)
        loader = make_loader(batch_size=2)
        {before}{pin}
        {prepare}
        for batch in loader:
            with accelerator.accumulate(model):
                accelerator.backward(model(**batch).loss)
                optimizer.step()
                optimizer.zero_grad()


    if __name__ == "__main__":
        main()
""")

_PAGED = "optimizer = bnb.optim.AdamW(model.parameters(), lr=1e-5, optim_bits=8, is_paged=True)"
_TOGETHER = "model, optimizer, loader = accelerator.prepare(model, optimizer, loader)"

BAD_EXAMPLES = [
    # accelerate issue 1902: the 8-bit paged AdamW prepared with the model under FSDP on 0.21.0
    _SCRIPT.format(before=_PAGED, pin="  # error: PF358", prepare=_TOGETHER) + _CONFIG.format(version="0.21.0"),
    # the same with a percentile-clipped 8-bit Lion on 0.15.0
    _SCRIPT.format(before="optimizer = bnb.optim.Lion(model.parameters(), lr=1e-5, optim_bits=8, "
                   "percentile_clipping=95)", pin="  # error: PF358", prepare=_TOGETHER)
    + _CONFIG.format(version="0.15.0"),
]

GOOD_EXAMPLES = [
    # the maintainer's fix: the model prepared first, the 8-bit optimizer built on the prepared parameters
    _SCRIPT.format(before="model = accelerator.prepare(model)", pin="",
                   prepare=_PAGED + "\n    optimizer, loader = accelerator.prepare(optimizer, loader)")
    + _CONFIG.format(version="0.21.0"),
    # accelerate 0.25 no longer rebuilds the optimizer
    _SCRIPT.format(before=_PAGED, pin="", prepare=_TOGETHER) + _CONFIG.format(version="0.25.0"),
    # tricky-correct: a class that fixes 8-bit and paging itself survives the rebuild; a torch optimizer
    # keeps every argument in `defaults`
    _SCRIPT.format(before="optimizer = bnb.optim.PagedAdamW8bit(model.parameters(), lr=1e-5)", pin="",
                   prepare=_TOGETHER) + _CONFIG.format(version="0.21.0"),
    _SCRIPT.format(before="optimizer = torch.optim.AdamW(model.parameters(), lr=1e-5, fused=True)", pin="",
                   prepare=_TOGETHER) + _CONFIG.format(version="0.21.0"),
]
