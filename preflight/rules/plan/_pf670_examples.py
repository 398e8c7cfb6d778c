"""PF670 examples: small projects (``# --- <path>`` sections, ``# --- launch`` holds the launch
command); bad ones must fire at the pinned line, good ones stay silent."""

from __future__ import annotations

from textwrap import dedent

_TRAINER_JOB = dedent("""
    # --- sft.py
    from transformers import AutoModelForCausalLM, HfArgumentParser, Seq2SeqTrainer, Seq2SeqTrainingArguments


    def main(train_ds, collator):
        (training_args,) = HfArgumentParser((Seq2SeqTrainingArguments,)).parse_args_into_dataclasses()
        model = AutoModelForCausalLM.from_pretrained("meta-llama/Meta-Llama-3-8B")
        trainer = Seq2SeqTrainer(model=model, args=training_args, train_dataset=train_ds, data_collator=collator)
        trainer.train()
    # --- ds_config.json
    {{
      "train_micro_batch_size_per_gpu": "auto",
      "gradient_accumulation_steps": "auto",
      "bf16": {{
        "enabled": {bf16}
      }},
      "fp16": {{
        "enabled": {fp16}
      }},
      "zero_optimization": {{"stage": 3}}
    }}
    # --- launch
    deepspeed --num_gpus 4 sft.py --output_dir out --bf16 --deepspeed ds_config.json
    """)

_RAW_JOB = dedent("""
    # --- train.py
    import deepspeed
    import torch


    def main(args, dataset):
        model = torch.nn.Linear(512, 512)
        engine, _, loader, _ = deepspeed.initialize(args=args, model=model, model_parameters=model.parameters(),
                                                    training_data=dataset)
        for x, y in loader:
            loss = torch.nn.functional.mse_loss(engine(x), y)
            engine.backward(loss)
            engine.step()
    # --- ds_config.json
    {{
      "train_batch_size": 32,
      "bf16": {{"enabled": true}},
      "fp16": {{
        "enabled": {fp16}
      }}
    }}
    # --- requirements.txt
    deepspeed{version}
    # --- launch
    deepspeed --num_gpus 2 train.py --deepspeed --deepspeed_config ds_config.json
    """)

PF670_BAD = [
    # LlamaFactory issue 3493: "enabled": "true" / "false" under the HF Trainer (both lines fire)
    _TRAINER_JOB.format(bf16='"true"', fp16='"false"')
    + "# --- expect\nds_config.json:5: error: PF670\nds_config.json:8: error: PF670\n",
    # only the bf16 switch quoted
    _TRAINER_JOB.format(bf16='"True"', fp16="false") + "# --- expect\nds_config.json:5: error: PF670\n",
    # no HF Trainer: "false" on a DeepSpeed release that reads the raw JSON value (truthy string)
    _RAW_JOB.format(fp16='"false"', version="==0.14.4") + "# --- expect\nds_config.json:5: error: PF670\n",
]

PF670_GOOD = [
    # the fix of 3493: "auto" (filled from the Trainer's flags)
    _TRAINER_JOB.format(bf16='"auto"', fp16='"auto"'),
    # JSON booleans
    _TRAINER_JOB.format(bf16="true", fp16="false"),
    # tricky: no HF Trainer and DeepSpeed 0.17.1 (pydantic bool fields convert the string)
    _RAW_JOB.format(fp16='"false"', version="==0.17.1"),
    # tricky: no HF Trainer and DeepSpeed not pinned
    _RAW_JOB.format(fp16='"false"', version=""),
    # tricky: "true" read by an old DeepSpeed directly is on, as meant
    _RAW_JOB.format(fp16='"true"', version="==0.14.4").replace('"bf16": {"enabled": true}', '"bf16": {"enabled": false}'),
]
