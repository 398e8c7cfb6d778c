"""PF659 examples: a bad example marks each line it must be reported on with a trailing
``# warning: PF659`` comment; good examples must stay silent."""

from __future__ import annotations

import textwrap

BAD_EXAMPLES = [
    # openvla-oft PR 155: every rank loads the 7B base, wraps it and merges; rank 0 alone saves
    textwrap.dedent("""\
    import torch
    import torch.distributed as dist
    from accelerate import PartialState
    from peft import PeftModel
    from transformers import AutoModelForVision2Seq

    distributed_state = PartialState()


    def save_training_checkpoint(cfg, vla, adapter_dir, checkpoint_dir):
        if distributed_state.is_main_process:
            vla.module.save_pretrained(adapter_dir)
        dist.barrier()
        if cfg.merge_lora_during_training:
            base_vla = AutoModelForVision2Seq.from_pretrained(cfg.vla_path, torch_dtype=torch.bfloat16)
            merged_vla = PeftModel.from_pretrained(base_vla, adapter_dir)
            merged_vla = merged_vla.merge_and_unload()  # warning: PF659
            if distributed_state.is_main_process:
                merged_vla.save_pretrained(checkpoint_dir)
        dist.barrier()
    """),
]

GOOD_EXAMPLES = [
    # the fix of PR 155: the load and the merge on the main process only
    textwrap.dedent("""\
    import torch
    import torch.distributed as dist
    from accelerate import PartialState
    from peft import PeftModel
    from transformers import AutoModelForVision2Seq

    distributed_state = PartialState()


    def save_training_checkpoint(cfg, vla, adapter_dir, checkpoint_dir):
        if cfg.merge_lora_during_training and distributed_state.is_main_process:
            base_vla = AutoModelForVision2Seq.from_pretrained(cfg.vla_path, torch_dtype=torch.bfloat16)
            merged_vla = PeftModel.from_pretrained(base_vla, adapter_dir)
            merged_vla = merged_vla.merge_and_unload()
            merged_vla.save_pretrained(checkpoint_dir)
        dist.barrier()
    """),
    # tricky: every rank evaluates the merged model, the main process alone saves it
    textwrap.dedent("""\
    from peft import PeftModel


    def merge_and_eval(base, adapter_dir, accelerator, loader, out):
        merged = PeftModel.from_pretrained(base, adapter_dir).merge_and_unload()
        score = evaluate(merged, loader)
        if accelerator.is_main_process:
            merged.save_pretrained(out)
        return score
    """),
    # tricky: a single-process export script
    textwrap.dedent("""\
    from peft import PeftModel

    model = PeftModel.from_pretrained(base, "out/adapter")
    merged = model.merge_and_unload()
    merged.save_pretrained("out/merged")
    """),
]
