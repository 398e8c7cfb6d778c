"""PF322 examples (small projects): bad ones must fire at the pinned line, good ones stay silent."""

from __future__ import annotations

import textwrap

_JOB = textwrap.dedent("""
    # --- requirements.txt
    peft=={peft}
    transformers==4.33.1
    # --- train.py
    import transformers
    from peft import LoraConfig, get_peft_model
    from transformers import AutoModelForCausalLM

    model = AutoModelForCausalLM.from_pretrained("bigscience/bloom-1b1")
    config = LoraConfig(r=8, lora_alpha=32, target_modules=["query_key_value"], task_type="CAUSAL_LM")
    {call}
    model.print_trainable_parameters()
    trainer = transformers.Trainer(model=model, train_dataset=data,
                                   args=transformers.TrainingArguments(output_dir="out", max_steps=400))
    trainer.train()
""")


def _job(peft: str, call: str) -> str:
    return _JOB.format(peft=peft, call=call)


PF322_BAD = [
    # held-out-27 (peft issue 1410): the named adapter is created frozen on 0.7.1
    _job("0.7.1", 'model = get_peft_model(model, config, adapter_name="abc")  # error: PF322'),
    # the name from a module constant, on 0.7.0
    _job("0.7.0", 'ADAPTER = "lora_default"\n'
                  'model = get_peft_model(model, config, adapter_name=ADAPTER)  # error: PF322'),
]

PF322_GOOD = [
    # the fix: the default name
    _job("0.7.1", "model = get_peft_model(model, config)"),
    # the same name on the release that fixed it
    _job("0.8.0", 'model = get_peft_model(model, config, adapter_name="abc")'),
    # tricky: the script activates the named adapter, which marks its layers trainable
    _job("0.7.1", 'model = get_peft_model(model, config, adapter_name="abc")\nmodel.set_adapter("abc")'),
    # tricky: "default" spelled out, and a name whose value is not known statically
    _job("0.7.1", 'model = get_peft_model(model, config, adapter_name="default")'),
    _job("0.7.1", "model = get_peft_model(model, config, adapter_name=args.adapter)"),
]
