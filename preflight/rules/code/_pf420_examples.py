"""PF420 examples: executable documentation. A bad example marks each line it must be
reported on with a trailing ``# error: PFxxx`` / ``# warning: PFxxx`` comment; the meta-test
asserts exactly those findings. Good examples must stay silent."""

from __future__ import annotations

import textwrap

PF420_BAD = [
    textwrap.dedent("""
    import torch
    from peft import LoraConfig, get_peft_model
    from transformers import AutoModelForCausalLM

    model = AutoModelForCausalLM.from_pretrained("gpt2")
    model = get_peft_model(model, LoraConfig(r=8, task_type="CAUSAL_LM"))
    model.gradient_checkpointing_enable()  # warning: PF420
    opt = torch.optim.AdamW(model.parameters(), lr=1e-4)
    for batch in loader:
        model(**batch).loss.backward()  # warning: PF487
        opt.step()
        opt.zero_grad()
"""),
]

PF420_BAD += [
    # transformers issue 23170: enabled on the PEFT model, then trained by the Trainer (transformers 4.x)
    textwrap.dedent("""
    from peft import LoraConfig, get_peft_model
    from transformers import AutoModelForCausalLM, Trainer, TrainingArguments

    model = get_peft_model(AutoModelForCausalLM.from_pretrained("gpt2"), LoraConfig(r=8))
    model.gradient_checkpointing_enable()  # warning: PF420
    Trainer(model=model, args=TrainingArguments("out"), train_dataset=ds).train()
"""),
]

PF420_GOOD = [
    textwrap.dedent("""
    import torch
    from peft import LoraConfig, get_peft_model
    from transformers import AutoModelForCausalLM

    model = AutoModelForCausalLM.from_pretrained("gpt2")
    model = get_peft_model(model, LoraConfig(r=8, task_type="CAUSAL_LM"))
    model.gradient_checkpointing_enable()
    model.enable_input_require_grads()
    opt = torch.optim.AdamW(model.parameters(), lr=1e-4)
"""),
    textwrap.dedent("""
    from peft import LoraConfig, get_peft_model
    from transformers import AutoModelForCausalLM

    model = get_peft_model(AutoModelForCausalLM.from_pretrained("gpt2"), LoraConfig(r=8))
    model.gradient_checkpointing_enable(gradient_checkpointing_kwargs={"use_reentrant": False})
"""),
    # the Trainer path with the input grads enabled
    textwrap.dedent("""
    from peft import LoraConfig, get_peft_model
    from transformers import AutoModelForCausalLM, Trainer, TrainingArguments

    model = get_peft_model(AutoModelForCausalLM.from_pretrained("gpt2"), LoraConfig(r=8))
    model.enable_input_require_grads()
    Trainer(model=model, args=TrainingArguments("out", gradient_checkpointing=True), train_dataset=ds).train()
"""),
    # tricky: the Trainer switches checkpointing on (transformers 5 enables the input grads itself)
    textwrap.dedent("""
    from peft import LoraConfig, get_peft_model
    from transformers import AutoModelForCausalLM, Trainer, TrainingArguments

    model = get_peft_model(AutoModelForCausalLM.from_pretrained("gpt2"), LoraConfig(r=8))
    args = TrainingArguments("out", gradient_checkpointing=True)
    Trainer(model=model, args=args, train_dataset=ds).train()
"""),
    # tricky: non-reentrant checkpointing through the Trainer's arguments
    textwrap.dedent("""
    from peft import LoraConfig, get_peft_model
    from transformers import AutoModelForCausalLM, Trainer, TrainingArguments

    model = get_peft_model(AutoModelForCausalLM.from_pretrained("gpt2"), LoraConfig(r=8))
    args = TrainingArguments("out", gradient_checkpointing=True, gradient_checkpointing_kwargs={"use_reentrant": False})
    Trainer(model=model, args=args, train_dataset=ds).train()
"""),
    # tricky: trl's SFTTrainer enables the input grads of a PEFT model itself
    textwrap.dedent("""
    from peft import LoraConfig, get_peft_model
    from transformers import AutoModelForCausalLM
    from trl import SFTConfig, SFTTrainer

    model = get_peft_model(AutoModelForCausalLM.from_pretrained("gpt2"), LoraConfig(r=8))
    model.gradient_checkpointing_enable()
    SFTTrainer(model=model, args=SFTConfig("out"), train_dataset=ds).train()
"""),
    # tricky: the embeddings are trained (modules_to_save), their output requires grad
    textwrap.dedent("""
    from peft import LoraConfig, get_peft_model
    from transformers import AutoModelForCausalLM, Trainer, TrainingArguments

    config = LoraConfig(r=8, modules_to_save=["embed_tokens", "lm_head"])
    model = get_peft_model(AutoModelForCausalLM.from_pretrained("gpt2"), config)
    model.gradient_checkpointing_enable()
    Trainer(model=model, args=TrainingArguments("out"), train_dataset=ds).train()
"""),
    # checkpointing only on the path without LoRA (shape of huggingface/peft
    # examples/lora_dreambooth/train_dreambooth.py:719-758 at 5d602fdbff04c33c1c4de55cda9d4ae1d7cb7e40)
    textwrap.dedent("""
    from peft import LoraConfig, get_peft_model
    from transformers import CLIPTextModel

    text_encoder = CLIPTextModel.from_pretrained(args.model, subfolder="text_encoder")
    if not args.train_text_encoder:
        text_encoder.requires_grad_(False)
    elif args.train_text_encoder and args.use_lora:
        text_encoder = get_peft_model(text_encoder, LoraConfig(r=8, target_modules=["q_proj", "v_proj"]))
    if args.gradient_checkpointing:
        unet.enable_gradient_checkpointing()
        if args.train_text_encoder and not args.use_lora:
            text_encoder.gradient_checkpointing_enable()
"""),
    # the same with `adapter != "full"` / `adapter == "full"` (shape of huggingface/peft
    # examples/stable_diffusion/train_dreambooth.py:902-920 at 5d602fdbff04c33c1c4de55cda9d4ae1d7cb7e40)
    textwrap.dedent("""
    from peft import LoraConfig, get_peft_model
    from transformers import CLIPTextModel

    text_encoder = CLIPTextModel.from_pretrained(args.model, subfolder="text_encoder")
    if args.train_text_encoder and args.adapter != "full":
        text_encoder = get_peft_model(text_encoder, LoraConfig(r=8, target_modules=["q_proj", "v_proj"]))
    if args.gradient_checkpointing:
        if args.train_text_encoder and args.adapter == "full":
            text_encoder.gradient_checkpointing_enable()
"""),
    # checkpointing on the base model of another test, before this test wraps its own
    # (shape of huggingface/peft tests/test_cartridge.py:249 at 5d602fdbff04c33c1c4de55cda9d4ae1d7cb7e40)
    textwrap.dedent("""
    from peft import LoraConfig, get_peft_model


    def test_wrap(base):
        model = get_peft_model(base, LoraConfig(r=8))
        model.enable_adapters()


    def test_checkpointing(base):
        base.gradient_checkpointing_enable()
        model = get_peft_model(base, LoraConfig(r=8))
"""),
    # PEFT's own preparation makes the embeddings' output require grad (shape of
    # huggingface/peft tests/test_lora_variants.py:431 at 5d602fdbff04c33c1c4de55cda9d4ae1d7cb7e40)
    textwrap.dedent("""
    from peft import LoraConfig, get_peft_model
    from transformers import AutoModelForCausalLM

    lora_model = get_peft_model(AutoModelForCausalLM.from_pretrained("gpt2"), LoraConfig(r=8))
    lora_model.prepare_model_for_gradient_checkpointing(lora_model)
    lora_model.gradient_checkpointing_enable()
"""),
]
