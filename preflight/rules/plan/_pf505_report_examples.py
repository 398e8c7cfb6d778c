"""PF505 examples rebuilt from public reports (DeepSpeedExamples PR 415, accelerate issue 883), kept beside
``_pf505_examples`` (which appends them, in this order) so that neither module grows past the project's size:
each bad example marks its lines with ``# warning: PF505`` or an ``# --- expect`` block; good ones stay silent."""

from __future__ import annotations

import textwrap

REPORT_BAD: list[str] = []
REPORT_GOOD: list[str] = []

# held-out-30 (DeepSpeedExamples PR 415, DeepSpeed-Chat step 1): the engine handed to a project save
# helper on rank 0, whose body torch.saves the module's own state dict; the stage comes from the launch
# line through the dict helper
_CHAT_SAVE = textwrap.dedent("""
    # --- main.py
    import argparse

    import deepspeed
    import torch

    from utils.ds_utils import get_train_ds_config
    from utils.utils import save_hf_format, save_zero_three_model


    def main():
        parser = argparse.ArgumentParser()
        parser.add_argument("--local_rank", type=int, default=-1)
        parser.add_argument("--zero_stage", type=int, default=0)
        parser.add_argument("--output_dir", default="out")
        args = parser.parse_args()
        ds_config = get_train_ds_config(stage=args.zero_stage)
        model, optimizer, _, _ = deepspeed.initialize(model=net, args=args, config=ds_config,
                                                      model_parameters=net.parameters())
        for batch in loader:
            model.backward(model(**batch).loss)
            model.step()
        if torch.distributed.get_rank() == 0:
            save_hf_format(model, tokenizer, args){pin}
    {later}

    main()
    # --- utils/__init__.py
    # --- utils/ds_utils.py
    def get_train_ds_config(stage=2):
        return {{"train_batch_size": 32, "train_micro_batch_size_per_gpu": 4,
                "zero_optimization": {{"stage": stage}}, "fp16": {{"enabled": True}}}}
    # --- utils/utils.py
    import os

    import deepspeed
    import torch


    def save_hf_format(model, tokenizer, args):
        model_to_save = model.module if hasattr(model, "module") else model
        save_dict = model_to_save.state_dict()
        torch.save(save_dict, os.path.join(args.output_dir, "pytorch_model.bin"))
        tokenizer.save_vocabulary(args.output_dir)


    def save_zero_three_model(model, rank, save_dir):
        out = {{}}
        for k, v in model.module.named_parameters():
            with deepspeed.zero.GatheredParameters([v]):
                out[k] = v.data.cpu()
        if rank == 0:
            torch.save(out, os.path.join(save_dir, "pytorch_model.bin"))
    # --- launch
    deepspeed --num_gpus 8 main.py --zero_stage {stage} --output_dir out
""")

REPORT_BAD.append(_CHAT_SAVE.format(pin="  # warning: PF505", later="", stage=3))
REPORT_GOOD.extend([
    # the PR's fix: the ZeRO-3 parameters are gathered and the file overwritten after the rank-0 helper
    _CHAT_SAVE.format(pin="", stage=3, later="        if args.zero_stage == 3:\n"
                      "            save_zero_three_model(model, torch.distributed.get_rank(), args.output_dir)"),
    # tricky-correct: the same helper at ZeRO stage 2, where every rank holds whole parameters
    _CHAT_SAVE.format(pin="", later="", stage=2),
])

# accelerate issue 883 (held-out-34): the no_trainer example's final save under an accelerate ZeRO-3 config with
# zero3_save_16bit_model false: get_state_dict raises ValueError("Cannot get 16bit model weights ...")
_NO_TRAINER_SAVE = textwrap.dedent("""
    # --- run_clm_no_trainer.py
    from accelerate import Accelerator


    def main(args, model, optimizer, loader, tokenizer):
        accelerator = Accelerator()
        model, optimizer, loader = accelerator.prepare(model, optimizer, loader)
        for batch in loader:
            accelerator.backward(model(**batch).loss)
            optimizer.step()
            optimizer.zero_grad()
        accelerator.wait_for_everyone()
        unwrapped_model = accelerator.unwrap_model(model)
        {save}
    # --- default_config.yaml
    compute_environment: LOCAL_MACHINE
    deepspeed_config:
      offload_optimizer_device: cpu
      zero3_save_16bit_model: {flag}
      zero_stage: 3
    distributed_type: DEEPSPEED
    num_processes: 4
""")
_SAVE = ("unwrapped_model.save_pretrained(args.output_dir, is_main_process=accelerator.is_main_process,\n"
         "                                        save_function=accelerator.save,\n"
         "                                        state_dict=accelerator.get_state_dict(model))")
REPORT_BAD.append(_NO_TRAINER_SAVE.format(save=_SAVE, flag="false") + "# --- expect\n"
                 "default_config.yaml:4: warning: PF505\n")
REPORT_GOOD.extend([
    # the fix: the 16-bit save flag on
    _NO_TRAINER_SAVE.format(save=_SAVE, flag="true"),
    # tricky-correct: the flag off, and the script falls back to a ZeRO checkpoint when the gather refuses
    _NO_TRAINER_SAVE.format(flag="false", save=(
        "try:\n"
        "        state_dict = accelerator.get_state_dict(model)\n"
        "    except ValueError:\n"
        "        model.save_checkpoint(args.output_dir)\n"
        "    else:\n"
        "        unwrapped_model.save_pretrained(args.output_dir, state_dict=state_dict,\n"
        "                                            is_main_process=accelerator.is_main_process)")),
])
