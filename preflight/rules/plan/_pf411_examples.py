"""PF411 examples: executable documentation. A bad example marks each line it must be
reported on with a trailing ``# error: PFxxx`` / ``# warning: PFxxx`` comment; the meta-test
asserts exactly those findings. Good examples must stay silent."""

from __future__ import annotations

import textwrap

PF411_BAD = [
    textwrap.dedent("""
        # --- requirements.txt
        transformers==4.46.3
        # --- train.py
        from peft import LoraConfig, get_peft_model
        from transformers import AutoModelForCausalLM, Trainer, TrainingArguments

        model = AutoModelForCausalLM.from_pretrained("meta-llama/Llama-3.2-1B")  # warning: PF411
        model = get_peft_model(model, LoraConfig(r=16, target_modules=["q_proj", "v_proj"], task_type="CAUSAL_LM"))
        args = TrainingArguments(output_dir="out", bf16=True, per_device_train_batch_size=4)
        Trainer(model=model, args=args, train_dataset=ds).train()
        """),
    # a cast after the load that keeps float32 is no cast to 16 bits
    textwrap.dedent("""
        # --- requirements.txt
        transformers==4.36.2
        # --- train.py
        import torch
        from accelerate import Accelerator
        from transformers import CLIPTextModel


        def main():
            accelerator = Accelerator(mixed_precision="fp16")
            text_encoder = CLIPTextModel.from_pretrained("openai/clip-vit-large-patch14")  # warning: PF411
            text_encoder.requires_grad_(False)
            text_encoder.to(accelerator.device, dtype=torch.float32)
        """),
    # the same adapters with the trainable parameters upcast (`cast_training_params`, diffusers' scripts):
    # the frozen base could load in fp16, and the float32 load doubles its memory
    textwrap.dedent("""
        # --- requirements.txt
        transformers==4.39.3
        peft==0.10.0
        # --- train.py
        import torch
        from accelerate import Accelerator
        from diffusers.training_utils import cast_training_params
        from peft import LoraConfig
        from transformers import CLIPTextModel


        def main(loader):
            accelerator = Accelerator(mixed_precision="fp16")
            text_encoder = CLIPTextModel.from_pretrained("openai/clip-vit-large-patch14")  # warning: PF411
            text_encoder.requires_grad_(False)
            text_encoder.add_adapter(LoraConfig(r=4, target_modules=["q_proj", "v_proj"]))
            cast_training_params(text_encoder, dtype=torch.float32)
            optimizer = torch.optim.AdamW([p for p in text_encoder.parameters() if p.requires_grad], lr=5e-6)
            text_encoder, optimizer, loader = accelerator.prepare(text_encoder, optimizer, loader)
            for batch in loader:
                loss = text_encoder(batch["input_ids"]).last_hidden_state.pow(2).mean()
                accelerator.backward(loss)
                optimizer.step()
                optimizer.zero_grad()
        """),
]

PF411_GOOD = [
    # tricky-correct (diffusers issue 7600's DreamBooth-LoRA-SDXL, held-out-32): LoRA adapters added to the
    # float32 text encoders under fp16 autocast; loaded in fp16, the adapters would be fp16 too (peft 0.10
    # gives them the base weights' dtype) and GradScaler would refuse to unscale them
    textwrap.dedent("""
        # --- requirements.txt
        transformers==4.39.3
        peft==0.10.0
        # --- train.py
        import torch
        from accelerate import Accelerator
        from peft import LoraConfig
        from transformers import CLIPTextModel


        def main(loader):
            accelerator = Accelerator(mixed_precision="fp16")
            text_encoder = CLIPTextModel.from_pretrained("openai/clip-vit-large-patch14")
            text_encoder.requires_grad_(False)
            text_encoder.add_adapter(LoraConfig(r=4, target_modules=["q_proj", "v_proj"]))
            optimizer = torch.optim.AdamW([p for p in text_encoder.parameters() if p.requires_grad], lr=5e-6)
            text_encoder, optimizer, loader = accelerator.prepare(text_encoder, optimizer, loader)
            for batch in loader:
                loss = text_encoder(batch["input_ids"]).last_hidden_state.pow(2).mean()
                accelerator.backward(loss)
                optimizer.step()
                optimizer.zero_grad()
        """),
    # tricky-correct: a full fine-tune in bf16 mixed precision keeps float32 master weights on purpose
    textwrap.dedent("""
        # --- requirements.txt
        transformers==4.40.2
        # --- train.py
        from transformers import AutoModelForQuestionAnswering, Trainer, TrainingArguments

        model = AutoModelForQuestionAnswering.from_pretrained("microsoft/deberta-v3-base")
        args = TrainingArguments(output_dir="out", bf16=True, per_device_train_batch_size=16)
        Trainer(model=model, args=args, train_dataset=ds).train()
        """),
    textwrap.dedent("""
        # --- requirements.txt
        transformers==4.46.3
        # --- train.py
        import torch
        from transformers import AutoModelForCausalLM, Trainer, TrainingArguments

        model = AutoModelForCausalLM.from_pretrained("meta-llama/Llama-3.2-1B", torch_dtype=torch.bfloat16)
        args = TrainingArguments(output_dir="out", bf16=True)
        """),
    # a diffusers model: its loading defaults are not transformers', and the trainable
    # UNet is kept in float32 on purpose as the master copy for fp16 autocast
    textwrap.dedent("""
        # --- requirements.txt
        transformers==4.46.3
        diffusers==0.31.0
        # --- train.py
        from accelerate import Accelerator
        from diffusers import UNet2DConditionModel

        accelerator = Accelerator(mixed_precision="fp16")
        unet = UNet2DConditionModel.from_pretrained("stabilityai/stable-diffusion-2-1", subfolder="unet")
        """),
    # transformers 5 loads with dtype="auto"
    textwrap.dedent("""
        # --- requirements.txt
        transformers==5.3.0
        # --- train.py
        from transformers import AutoModelForCausalLM, TrainingArguments

        model = AutoModelForCausalLM.from_pretrained("meta-llama/Llama-3.2-1B")
        args = TrainingArguments(output_dir="out", bf16=True)
        """),
    # tricky-correct: the frozen encoder is cast to the training dtype right after loading (diffusers
    # examples/text_to_image/train_text_to_image_lora.py, PR 6144: ``text_encoder.to(accelerator.device,
    # dtype=weight_dtype)``); only the load itself holds float32
    textwrap.dedent("""
        # --- requirements.txt
        transformers==4.36.2
        # --- train.py
        import torch
        from accelerate import Accelerator
        from transformers import CLIPTextModel


        def main():
            accelerator = Accelerator(mixed_precision="fp16")
            text_encoder = CLIPTextModel.from_pretrained("openai/clip-vit-large-patch14")
            text_encoder.requires_grad_(False)
            weight_dtype = torch.float16 if accelerator.mixed_precision == "fp16" else torch.float32
            text_encoder.to(accelerator.device, dtype=weight_dtype)
        """),
]
