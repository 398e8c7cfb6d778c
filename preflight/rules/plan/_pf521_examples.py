"""PF521 examples: small projects (``# --- <path>`` sections, ``# --- launch`` holds the launch
command); bad ones must fire at the pinned line, good ones stay silent."""

from __future__ import annotations

import textwrap

_ZERO3 = """\
# --- ds_config.json
{
  "train_micro_batch_size_per_gpu": "auto",
  "zero_optimization": {"stage": 3, "stage3_gather_16bit_weights_on_model_save": true}
}
# --- launch
deepspeed train.py --output_dir out --deepspeed ds_config.json
"""

_HEAD = textwrap.dedent("""
    # --- train.py
    import transformers
    from peft import LoraConfig, get_peft_model
    from transformers import Trainer


    def train():
        parser = transformers.HfArgumentParser((transformers.TrainingArguments,))
        (training_args,) = parser.parse_args_into_dataclasses()
        model = transformers.AutoModelForCausalLM.from_pretrained("facebook/opt-125m")
        model = get_peft_model(model, LoraConfig(r=8, target_modules=["q_proj", "v_proj"], task_type="CAUSAL_LM"))
        trainer = Trainer(model=model, args=training_args, train_dataset=None)
        trainer.train()
""")

PF521_BAD = [
    # PEFT issue 453 (FastChat train_lora): the adapter saved from partitioned LoRA weights
    _HEAD + """\
    model.save_pretrained(training_args.output_dir)  # warning: PF521
""" + _ZERO3,
    # the Trainer's own model, saved the same way
    _HEAD + """\
    trainer.save_state()
    trainer.model.save_pretrained(training_args.output_dir)  # warning: PF521
""" + _ZERO3,
    # trlx PR 429: Accelerate under ZeRO-3, the unwrapped module saved without a gathered state dict
    textwrap.dedent("""
    # --- trainer.py
    from accelerate import Accelerator


    class RLTrainer:
        def __init__(self, model, opt):
            self.accelerator = Accelerator()
            self.accelerator.state.deepspeed_plugin.deepspeed_config["train_micro_batch_size_per_gpu"] = 8
            self.model, self.opt = self.accelerator.prepare(model, opt)

        def save_pretrained(self, directory, **kwargs):
            self.accelerator.wait_for_everyone()
            self.accelerator.unwrap_model(self.model).save_pretrained(directory, **kwargs)  # warning: PF521
    # --- zero3.yaml
    compute_environment: LOCAL_MACHINE
    distributed_type: DEEPSPEED
    deepspeed_config:
      zero_stage: 3
      zero3_save_16bit_model: true
    num_processes: 8
    # --- launch
    accelerate launch --config_file zero3.yaml trainer.py
"""),
]

PF521_GOOD = [
    # the fix: a state dict gathered under GatheredParameters is passed
    _HEAD + """\
    state_dict = get_peft_state_maybe_zero_3(model.named_parameters())
    if training_args.local_rank in (-1, 0):
        model.save_pretrained(training_args.output_dir, state_dict=state_dict)
""" + _ZERO3,
    # saved through the Trainer, which gathers under ZeRO-3
    _HEAD + """\
    trainer.save_model(training_args.output_dir)
""" + _ZERO3,
    # a branch written for DeepSpeed
    _HEAD + """\
    if trainer.is_deepspeed_enabled:
        trainer.save_model(training_args.output_dir)
    else:
        model.save_pretrained(training_args.output_dir)
""" + _ZERO3,
    # ZeRO-2: every rank holds whole parameters
    _HEAD + """\
    model.save_pretrained(training_args.output_dir)
    tokenizer.save_pretrained(training_args.output_dir)
""" + _ZERO3.replace('"stage": 3', '"stage": 2'),
    # the fix of trlx PR 429: the gathered state dict is passed
    textwrap.dedent("""
    # --- trainer.py
    from accelerate import Accelerator


    class RLTrainer:
        def __init__(self, model, opt):
            self.accelerator = Accelerator()
            self.accelerator.state.deepspeed_plugin.deepspeed_config["train_micro_batch_size_per_gpu"] = 8
            self.model, self.opt = self.accelerator.prepare(model, opt)

        def save_pretrained(self, directory, **kwargs):
            self.accelerator.wait_for_everyone()
            state_dict = self.accelerator.get_state_dict(self.model)
            self.accelerator.unwrap_model(self.model).save_pretrained(
                directory, state_dict=state_dict, is_main_process=self.accelerator.is_main_process,
                save_function=self.accelerator.save, **kwargs)
    # --- zero3.yaml
    compute_environment: LOCAL_MACHINE
    distributed_type: DEEPSPEED
    deepspeed_config:
      zero_stage: 3
      zero3_save_16bit_model: true
    num_processes: 8
    # --- launch
    accelerate launch --config_file zero3.yaml trainer.py
"""),
]
