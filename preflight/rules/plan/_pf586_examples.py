"""PF586 examples: small projects (``# --- <path>`` sections, ``# --- launch`` holds the launch
command); bad ones must fire at the pinned line, good ones stay silent."""

from __future__ import annotations

import textwrap

_ARCH = textwrap.dedent("""
    # --- vlm_arch.py
    import torch
    import torch.nn as nn
    from transformers import LlamaForCausalLM


    class VisionLlama(LlamaForCausalLM):
        def __init__(self, config):
            super().__init__(config)
            self.mm_projector = nn.Linear(1024, config.hidden_size)

        def load_projector(self, path):
            weights = torch.load(path, map_location="cpu")
    {body}
""")

_TRAIN = textwrap.dedent("""
    # --- train.py
    import transformers

    from vlm_arch import VisionLlama


    def main():
        parser = transformers.HfArgumentParser((transformers.TrainingArguments,))
        (training_args,) = parser.parse_args_into_dataclasses()
        model = VisionLlama.from_pretrained("lmsys/vicuna-7b-v1.5")
        model.load_projector("mm_projector.bin"){pin}
        transformers.Trainer(model=model, args=training_args).train()
    # --- zero3.json
    {{"train_micro_batch_size_per_gpu": "auto", "zero_optimization": {{"stage": {stage}}}}}
    # --- launch
    deepspeed train.py --deepspeed zero3.json --output_dir out
""")

_PLAIN = "        self.mm_projector.load_state_dict(weights)\n"
_GATHERED = ("        import deepspeed\n"
             "        with deepspeed.zero.GatheredParameters(list(self.mm_projector.parameters()), modifier_rank=0):\n"
             "            self.mm_projector.load_state_dict(weights)\n")

BAD_EXAMPLES = [
    # DeepSpeed issue 5326 (LLaMA-VID): the projector of a model built under zero.Init loaded with a plain load_state_dict
    _ARCH.format(body=_PLAIN) + _TRAIN.format(pin="  # error: PF586", stage=3),
    # the same load written in the script on the attribute
    textwrap.dedent("""
    # --- train.py
    import torch
    import transformers
    from transformers import AutoModelForCausalLM


    def main():
        args = transformers.TrainingArguments(output_dir="out", deepspeed="zero3.json", bf16=True)
        model = AutoModelForCausalLM.from_pretrained("Qwen/Qwen2-7B")
        model.lm_head.load_state_dict(torch.load("head.pt"))  # error: PF586
        transformers.Trainer(model=model, args=args).train()
    # --- zero3.json
    {"train_micro_batch_size_per_gpu": "auto", "zero_optimization": {"stage": 3}}
    # --- launch
    deepspeed train.py
"""),
]

GOOD_EXAMPLES = [
    # the fix: the load gathered, rank 0 writes
    _ARCH.format(body=_GATHERED) + _TRAIN.format(pin="", stage=3),
    # ZeRO-2 keeps whole parameters on every rank
    _ARCH.format(body=_PLAIN) + _TRAIN.format(pin="", stage=2),
    # tricky (LLaVA's shape): the projector is built in the method, after zero.Init, then loaded
    _ARCH.format(body="        self.mm_projector = nn.Linear(1024, self.config.hidden_size)\n" + _PLAIN)
    + _TRAIN.format(pin="", stage=3),
]
