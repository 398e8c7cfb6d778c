"""PF444 examples (single files): bad ones must fire at the pinned line, good ones stay silent."""

import textwrap

BAD_EXAMPLES = [
    # alpaca-lora issue 477 (finetune.py)
    textwrap.dedent("""
    import transformers
    from peft import LoraConfig, get_peft_model, get_peft_model_state_dict


    def train(model, train_data, output_dir):
        model = get_peft_model(model, LoraConfig(r=8, task_type="CAUSAL_LM"))
        trainer = transformers.Trainer(model=model, train_dataset=train_data,
                                       args=transformers.TrainingArguments(output_dir=output_dir))
        old_state_dict = model.state_dict
        model.state_dict = (lambda self, *_, **__: get_peft_model_state_dict(self, old_state_dict())).__get__(  # warning: PF444
            model, type(model))
        trainer.train()
        model.save_pretrained(output_dir)
"""),
    # a named function bound with types.MethodType
    textwrap.dedent("""
    import types

    from peft import get_peft_model_state_dict


    def patch_and_save(model, out):
        original = model.state_dict
        model.state_dict = types.MethodType(lambda self: get_peft_model_state_dict(self, original()), model)  # warning: PF444
        model.save_pretrained(out)
"""),
]

GOOD_EXAMPLES = [
    # the fix: save_pretrained keeps the adapter by itself
    textwrap.dedent("""
    import transformers
    from peft import LoraConfig, get_peft_model


    def train(model, train_data, output_dir):
        model = get_peft_model(model, LoraConfig(r=8, task_type="CAUSAL_LM"))
        trainer = transformers.Trainer(model=model, train_dataset=train_data,
                                       args=transformers.TrainingArguments(output_dir=output_dir))
        trainer.train()
        model.save_pretrained(output_dir)
"""),
    # the adapter's dict saved explicitly with torch.save (no save_pretrained, no Trainer)
    textwrap.dedent("""
    import torch
    from peft import get_peft_model_state_dict


    def save_adapter(model, path):
        torch.save(get_peft_model_state_dict(model), path)
"""),
]
