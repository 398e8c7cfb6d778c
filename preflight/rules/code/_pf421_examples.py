"""PF421 and PF422 examples (moved out of _pf414_examples.py to keep it under 600 lines):
bad ones must fire on their pinned lines, good ones stay silent."""

from __future__ import annotations

import textwrap

PF421_BAD = [
    textwrap.dedent("""
    from transformers import AutoTokenizer, DataCollatorForLanguageModeling

    tokenizer = AutoTokenizer.from_pretrained("gpt2")
    tokenizer.pad_token = tokenizer.eos_token  # warning: PF421
    collator = DataCollatorForLanguageModeling(tokenizer=tokenizer, mlm=False)
"""),
    # mlabonne/llm-course issue 33: old-API SFTTrainer with no collator builds the masking one itself
    textwrap.dedent("""
    from transformers import AutoTokenizer
    from trl import SFTTrainer

    tokenizer = AutoTokenizer.from_pretrained("NousResearch/Llama-2-7b-chat-hf")
    tokenizer.pad_token = tokenizer.eos_token  # warning: PF421
    trainer = SFTTrainer(model=model, train_dataset=dataset, dataset_text_field="text", max_seq_length=None,
                         tokenizer=tokenizer, args=training_arguments, packing=False)
"""),
    # the text gets an EOS appended by the tokenizing function: every one of them is masked
    textwrap.dedent("""
    from transformers import AutoTokenizer, DataCollatorForLanguageModeling

    tokenizer = AutoTokenizer.from_pretrained("gpt2")
    tokenizer.pad_token = tokenizer.eos_token  # warning: PF421
    data = raw.map(lambda ex: tokenizer(ex["text"] + tokenizer.eos_token, truncation=True), batched=False)
    collator = DataCollatorForLanguageModeling(tokenizer, mlm=False)
"""),
    # a T5-family tokenizer appends </s> to every encoded text itself
    textwrap.dedent("""
    from transformers import AutoTokenizer, DataCollatorForLanguageModeling

    tokenizer = AutoTokenizer.from_pretrained("google/flan-t5-base")
    tokenizer.pad_token = tokenizer.eos_token  # warning: PF421
    data = raw.map(lambda ex: tokenizer(ex["text"], truncation=True), batched=True)
    collator = DataCollatorForLanguageModeling(tokenizer, mlm=False)
"""),
    # DeepSeek-Coder issue 163: pad = EOS, EOS appended to every response, pad-id labels masked by hand
    textwrap.dedent("""
    from transformers import AutoTokenizer

    tokenizer = AutoTokenizer.from_pretrained("deepseek-ai/deepseek-coder-6.7b-base")
    tokenizer.pad_token = tokenizer.eos_token


    def collate(rows):
        enc = tokenizer([r["prompt"] + r["output"] + tokenizer.eos_token for r in rows], padding=True,
                        return_tensors="pt")
        labels = enc["input_ids"].clone()
        labels[labels == tokenizer.pad_token_id] = -100  # warning: PF421
        enc["labels"] = labels
        return enc
"""),
    # token ids with the EOS id appended, masked with masked_fill
    textwrap.dedent("""
    import torch


    class Data:
        def __init__(self, tok, rows):
            self.tok = tok
            self.tok.pad_token_id = self.tok.eos_token_id
            self.rows = [tok.encode(r) + [tok.eos_token_id] for r in rows]

        def collate(self, ids):
            ids = torch.nn.utils.rnn.pad_sequence(ids, batch_first=True, padding_value=self.tok.pad_token_id)
            labels = ids.masked_fill(ids == self.tok.pad_token_id, -100)  # warning: PF421
            return ids, labels
"""),
]

PF421_GOOD = [
    # zero_nlp issue 49 / DeepSpeed issue 2174: GPT-2-family causal-LM fine-tuning on raw text; the
    # tokenizer appends no EOS, so the only pad-id labels the collator masks are padding
    textwrap.dedent("""
    from transformers import AutoModelForCausalLM, AutoTokenizer, DataCollatorForLanguageModeling, Trainer


    def main(raw, args):
        tokenizer = AutoTokenizer.from_pretrained("gpt2-medium")
        tokenizer.pad_token = tokenizer.eos_token
        model = AutoModelForCausalLM.from_pretrained("gpt2-medium")
        data = raw.map(lambda ex: tokenizer(ex["text"], truncation=True, max_length=512), batched=True,
                       remove_columns=["text"])
        trainer = Trainer(model=model, args=args, train_dataset=data,
                          data_collator=DataCollatorForLanguageModeling(tokenizer, mlm=False))
        trainer.train()
"""),
    textwrap.dedent("""
    from transformers import AutoTokenizer, DataCollatorForLanguageModeling

    tokenizer = AutoTokenizer.from_pretrained("gpt2")
    tokenizer.add_special_tokens({"pad_token": "<|pad|>"})
    collator = DataCollatorForLanguageModeling(tokenizer=tokenizer, mlm=False)
"""),
    # a collator that pads the labels with -100 itself
    textwrap.dedent("""
    from transformers import AutoTokenizer, DataCollatorForSeq2Seq

    tokenizer = AutoTokenizer.from_pretrained("gpt2")
    tokenizer.pad_token = tokenizer.eos_token
    collator = DataCollatorForSeq2Seq(tokenizer, label_pad_token_id=-100)
"""),
    # new-API SFTTrainer (its own collator keeps the EOS label); old API with an explicit collator or packing
    textwrap.dedent("""
    from transformers import AutoTokenizer, DataCollatorForSeq2Seq
    from trl import SFTConfig, SFTTrainer

    tokenizer = AutoTokenizer.from_pretrained("Qwen/Qwen2.5-0.5B")
    tokenizer.pad_token = tokenizer.eos_token
    SFTTrainer(model=model, train_dataset=ds, args=SFTConfig(output_dir="out"), processing_class=tokenizer)
    SFTTrainer(model=model, train_dataset=ds, tokenizer=tokenizer, data_collator=DataCollatorForSeq2Seq(tokenizer))
    SFTTrainer(model=model, train_dataset=ds, dataset_text_field="text", tokenizer=tokenizer, packing=True)
"""),
    # the fix of DeepSeek-Coder issue 163: only padded positions are masked
    textwrap.dedent("""
    from transformers import AutoTokenizer

    tokenizer = AutoTokenizer.from_pretrained("deepseek-ai/deepseek-coder-6.7b-base")
    tokenizer.pad_token = tokenizer.eos_token


    def collate(rows):
        enc = tokenizer([r["prompt"] + r["output"] + tokenizer.eos_token for r in rows], padding=True,
                        return_tensors="pt")
        labels = enc["input_ids"].clone()
        labels[enc["attention_mask"] == 0] = -100
        enc["labels"] = labels
        return enc
"""),
    # tricky: pad = EOS and pad-id labels masked, but no EOS is put into the raw text (GPT-2 appends
    # none), so only padding is masked
    textwrap.dedent("""
    from transformers import AutoTokenizer

    tokenizer = AutoTokenizer.from_pretrained("gpt2")
    tokenizer.pad_token = tokenizer.eos_token


    def collate(rows):
        enc = tokenizer([r["text"] for r in rows], padding=True, truncation=True, return_tensors="pt")
        labels = enc["input_ids"].clone()
        labels[labels == tokenizer.pad_token_id] = -100
        enc["labels"] = labels
        return enc
"""),
    # tricky: EOS appended, but the pad token is a distinct token, so masking pad ids keeps every EOS
    textwrap.dedent("""
    from transformers import AutoTokenizer

    tokenizer = AutoTokenizer.from_pretrained("meta-llama/Llama-2-7b-hf")
    tokenizer.pad_token = tokenizer.unk_token


    def collate(rows):
        enc = tokenizer([r["text"] + tokenizer.eos_token for r in rows], padding=True, return_tensors="pt")
        labels = enc["input_ids"].clone()
        labels[labels == tokenizer.pad_token_id] = -100
        enc["labels"] = labels
        return enc
"""),
]

PF422_BAD = [
    textwrap.dedent("""
    import torch
    from transformers import AutoModelForCausalLM, Trainer, TrainingArguments

    model = AutoModelForCausalLM.from_pretrained("gpt2", torch_dtype=torch.float16)  # error: PF422
    args = TrainingArguments(output_dir="out", fp16=True)
    Trainer(model=model, args=args, train_dataset=ds).train()
"""),
    textwrap.dedent("""
    import torch

    model = Net().cuda().half()  # error: PF422
    scaler = torch.cuda.amp.GradScaler()
"""),
    # d3po: the trained UNet cast to fp16 through a dtype variable
    textwrap.dedent("""
    import torch
    from accelerate import Accelerator


    def main(config, pipeline):
        accelerator = Accelerator(mixed_precision="fp16")
        inference_dtype = torch.float16
        pipeline.vae.to(accelerator.device, dtype=inference_dtype)
        pipeline.unet.to(accelerator.device, dtype=inference_dtype)  # error: PF422
        unet = pipeline.unet
        optimizer = torch.optim.AdamW(unet.parameters(), lr=1e-5)
        unet, optimizer = accelerator.prepare(unet, optimizer)
"""),
    # held-out-4 (accelerate issue 1778): the trained UNet is cast to `weight_dtype`, float16 exactly when
    # the launch asks for fp16 mixed precision
    textwrap.dedent("""
    import torch
    from accelerate import Accelerator
    from diffusers import AutoencoderKL, UNet2DConditionModel


    def main(args):
        accelerator = Accelerator()
        vae = AutoencoderKL.from_pretrained(args.model, subfolder="vae")
        unet = UNet2DConditionModel.from_pretrained(args.model, subfolder="unet")
        vae.requires_grad_(False)
        weight_dtype = torch.float32
        if accelerator.mixed_precision == "fp16":
            weight_dtype = torch.float16
        vae.to(accelerator.device, dtype=weight_dtype)
        unet.to(accelerator.device, dtype=weight_dtype)  # error: PF422
        optimizer = torch.optim.AdamW(unet.parameters(), lr=1e-5)
        unet, optimizer = accelerator.prepare(unet, optimizer)
"""),
    # held-out-14 (SVD fine-tune): weight_dtype from a conditional expression on the launch's precision,
    # the UNet unfrozen after the cast and only some of its blocks handed to the optimizer
    textwrap.dedent("""
    import torch
    from accelerate import Accelerator
    from diffusers import UNetSpatioTemporalConditionModel


    def main(args):
        accelerator = Accelerator()
        weight_dtype = torch.float16 if accelerator.mixed_precision == "fp16" else torch.float32
        unet = UNetSpatioTemporalConditionModel.from_pretrained(args.model, subfolder="unet")
        unet.to(accelerator.device, dtype=weight_dtype)  # error: PF422
        unet.requires_grad_(True)
        trained = [p for n, p in unet.named_parameters() if "temporal_transformer_block" in n]
        optimizer = torch.optim.AdamW(trained, lr=1e-5)
        unet, optimizer = accelerator.prepare(unet, optimizer)
"""),
]

PF422_GOOD = [
    # Lightning's DeepSpeed tests (pytorch-lightning 7f0c343,
    # tests/tests_pytorch/strategies/test_deepspeed.py): a loaded parameter cast to compare it
    textwrap.dedent("""
    import torch
    import lightning as L


    def test_deepspeed(tmp_path):
        trainer = L.Trainer(precision="16-mixed", strategy="deepspeed")
        model = BoringModel()
        trainer.fit(model)
        saved_model = torch.load(tmp_path / "model.pt")
        for saved_model_param, current_model_param in zip(saved_model.parameters(), model.parameters()):
            assert torch.equal(saved_model_param.half(), current_model_param)
        scaler = torch.cuda.amp.GradScaler()
"""),
    textwrap.dedent("""
    import torch
    from transformers import AutoModelForCausalLM, Trainer, TrainingArguments

    model = AutoModelForCausalLM.from_pretrained("gpt2")
    args = TrainingArguments(output_dir="out", fp16=True)
    Trainer(model=model, args=args, train_dataset=ds).train()
"""),
    # QLoRA: 4-bit base, float32 adapters
    textwrap.dedent("""
    import torch
    from transformers import AutoModelForCausalLM, BitsAndBytesConfig, TrainingArguments

    model = AutoModelForCausalLM.from_pretrained("m", torch_dtype=torch.float16,
                                                 quantization_config=BitsAndBytesConfig(load_in_4bit=True))
    args = TrainingArguments(output_dir="out", fp16=True)
"""),
    # inference in float16: nothing is trained with a scaler
    textwrap.dedent("""
    import torch
    from transformers import AutoModelForCausalLM

    model = AutoModelForCausalLM.from_pretrained("gpt2", torch_dtype=torch.float16)
    print(model.generate(**inputs))
"""),
    # diffusers: only the frozen VAE / text encoder are cast to weight_dtype; the trained UNet stays fp32
    textwrap.dedent("""
    import torch
    from accelerate import Accelerator


    def main(args, vae, text_encoder, unet):
        accelerator = Accelerator(mixed_precision=args.mixed_precision)
        weight_dtype = torch.float32
        if accelerator.mixed_precision == "fp16":
            weight_dtype = torch.float16
        vae.requires_grad_(False)
        text_encoder.requires_grad_(False)
        vae.to(accelerator.device, dtype=weight_dtype)
        text_encoder.to(accelerator.device, dtype=weight_dtype)
        optimizer = torch.optim.AdamW(unet.parameters(), lr=1e-5)
        unet, optimizer = accelerator.prepare(unet, optimizer)
"""),
    # the fix: only the frozen VAE is cast; and a frozen UNet whose LoRA layers train (in float32)
    textwrap.dedent("""
    import torch
    from accelerate import Accelerator
    from diffusers import AutoencoderKL, UNet2DConditionModel


    def main(args):
        accelerator = Accelerator()
        vae = AutoencoderKL.from_pretrained(args.model, subfolder="vae")
        unet = UNet2DConditionModel.from_pretrained(args.model, subfolder="unet")
        vae.requires_grad_(False)
        weight_dtype = torch.float32
        if accelerator.mixed_precision == "fp16":
            weight_dtype = torch.float16
        vae.to(accelerator.device, dtype=weight_dtype)
        unet.to(accelerator.device)
        optimizer = torch.optim.AdamW(unet.parameters(), lr=1e-5)
        unet, optimizer = accelerator.prepare(unet, optimizer)
"""),
    textwrap.dedent("""
    import torch
    from accelerate import Accelerator
    from diffusers import AutoencoderKL, UNet2DConditionModel


    def main(args):
        accelerator = Accelerator()
        vae = AutoencoderKL.from_pretrained(args.model, subfolder="vae")
        unet = UNet2DConditionModel.from_pretrained(args.model, subfolder="unet")
        vae.requires_grad_(False)
        unet.requires_grad_(False)
        weight_dtype = torch.float32
        if accelerator.mixed_precision == "fp16":
            weight_dtype = torch.float16
        vae.to(accelerator.device, dtype=weight_dtype)
        unet.to(accelerator.device, dtype=weight_dtype)
        optimizer = torch.optim.AdamW(lora_layers, lr=1e-5)
        unet, optimizer = accelerator.prepare(unet, optimizer)
"""),
    # tricky-correct (SVD twin): the frozen VAE takes weight_dtype, the trained UNet stays float32; the
    # conditional dtype alone is not a cast of a trained module
    textwrap.dedent("""
    import torch
    from accelerate import Accelerator
    from diffusers import AutoencoderKLTemporalDecoder, UNetSpatioTemporalConditionModel


    def main(args):
        accelerator = Accelerator()
        weight_dtype = torch.float16 if accelerator.mixed_precision == "fp16" else torch.float32
        vae = AutoencoderKLTemporalDecoder.from_pretrained(args.model, subfolder="vae")
        unet = UNetSpatioTemporalConditionModel.from_pretrained(args.model, subfolder="unet")
        vae.requires_grad_(False)
        vae.to(accelerator.device, dtype=weight_dtype)
        unet.to(accelerator.device)
        unet.requires_grad_(True)
        optimizer = torch.optim.AdamW(unet.parameters(), lr=1e-5)
        unet, optimizer = accelerator.prepare(unet, optimizer)
"""),
]

_LORA_AFTER_CAST = textwrap.dedent("""\
    import torch
    from accelerate import Accelerator
    from peft import LoraConfig


    def train(args, transformer):
        accelerator = Accelerator(mixed_precision=args.mixed_precision)
        weight_dtype = torch.float32
        if accelerator.mixed_precision == "fp16":
            weight_dtype = torch.float16
        transformer.requires_grad_(False)
        transformer.to(accelerator.device, dtype=weight_dtype){pin}
        transformer.add_adapter(LoraConfig(r=16, lora_alpha=16, target_modules=["to_q", "to_k", "to_v"]))
    {upcast}    params = [p for p in transformer.parameters() if p.requires_grad]
        optimizer = torch.optim.AdamW(params, lr=1e-4)
        transformer, optimizer = accelerator.prepare(transformer, optimizer)
""")

# diffusers PR 6231 shape (train_text_to_image_lora_sdxl): the LoRA adapters added after the fp16
# cast are fp16, and the GradScaler refuses them ("Attempting to unscale FP16 gradients")
PF422_BAD.append(_LORA_AFTER_CAST.format(pin="  # error: PF422", upcast=""))

PF422_GOOD.extend([
    # the YOLO training scripts' shape: the float16 cast undone in the same chain ("pre-reduce
    # anchor precision"), then AMP with a GradScaler on the float32 weights
    textwrap.dedent("""
    import torch

    model = Detector(cfg).to(device)
    if opt.round_anchors:
        model.half().float()  # round the anchors to half precision, keep float32 weights
    optimizer = torch.optim.SGD(model.parameters(), lr=0.01)
    scaler = torch.cuda.amp.GradScaler(enabled=True)
    for images, targets in loader:
        with torch.cuda.amp.autocast():
            loss = compute_loss(model(images), targets)
        scaler.scale(loss).backward()
        scaler.step(optimizer)
        scaler.update()
        optimizer.zero_grad()
"""),
    # the fix in diffusers' scripts: the trainable (LoRA) parameters upcast after add_adapter
    _LORA_AFTER_CAST.format(pin="", upcast="    cast_training_params(transformer, dtype=torch.float32)\n"),
    # the adapters added before the fp16 cast of a frozen model, then upcast by a loop
    _LORA_AFTER_CAST.format(pin="", upcast="    for p in transformer.parameters():\n"
                                           "        if p.requires_grad:\n"
                                           "            p.data = p.data.to(torch.float32)\n"),
])

# a DreamBooth-style script at module level: the text encoder is trained on a flag (its parameters go
# to the optimizer through itertools.chain), frozen only when the flag is off, and cast to fp16 always
_FLAGGED_ENCODER = textwrap.dedent("""\
    import itertools

    import torch
    from accelerate import Accelerator
    from transformers import CLIPTextModel

    accelerator = Accelerator(mixed_precision="fp16")
    text_encoder = CLIPTextModel.from_pretrained("openai/clip-vit-large-patch14")
    if not args.train_text_encoder:
        text_encoder.requires_grad_(False)
    params = (itertools.chain(unet.parameters(), text_encoder.parameters())
              if args.train_text_encoder else unet.parameters())
    optimizer = torch.optim.AdamW(params, lr=5e-6)
    weight_dtype = torch.float16
    {cast}
    unet, text_encoder, optimizer = accelerator.prepare(unet, text_encoder, optimizer)
    for batch in loader:
        loss = unet(batch, text_encoder(batch["ids"])[0]).loss
        accelerator.backward(loss)
        optimizer.step()
        optimizer.zero_grad()
    """)
PF422_BAD.append(_FLAGGED_ENCODER.format(cast="text_encoder.to(accelerator.device, dtype=weight_dtype)  # error: PF422"))
PF422_GOOD.append(
    # the fix: cast only when the flag leaves the encoder frozen (the same condition as the freeze)
    _FLAGGED_ENCODER.format(cast="if not args.train_text_encoder:\n"
                                 "    text_encoder.to(accelerator.device, dtype=weight_dtype)"))
PF422_GOOD.append(
    # tricky-correct (diffusers' dreambooth script): the cast's condition holds the freeze's as a conjunct
    _FLAGGED_ENCODER.format(cast="if not args.train_text_encoder and text_encoder is not None:\n"
                                 "    text_encoder.to(accelerator.device, dtype=weight_dtype)"))
PF422_GOOD.append(
    # tricky-correct (diffusers' amused/LoRA scripts): no freeze at all, the encoder trained on the flag and
    # cast to fp16 only when the flag is off
    _FLAGGED_ENCODER.replace("if not args.train_text_encoder:\n    text_encoder.requires_grad_(False)\n", "").format(
        cast="if not args.train_text_encoder:\n    text_encoder.to(accelerator.device, dtype=weight_dtype)"))


# hunt46: the Trainer's fp16_full_eval cast in an evaluation function is silent; the same cast where the
# trained model is prepared is reported
PF422_GOOD.append(textwrap.dedent("""
    import torch


    class Trainer:
        # microsoft/LoRA examples/NLU/src/transformers/trainer.py (a vendored Transformers Trainer): the
        # GradScaler scales the training steps; fp16_full_eval halves the model in the evaluation loop only
        def __init__(self, model, args):
            self.model = model
            self.args = args
            self.scaler = torch.cuda.amp.GradScaler()

        def train(self, loader):
            model = self.model
            optimizer = torch.optim.AdamW(model.parameters(), lr=1e-4)
            for batch in loader:
                with torch.cuda.amp.autocast():
                    loss = self.model(**batch).loss
                self.scaler.scale(loss).backward()
                self.scaler.step(optimizer)
                self.scaler.update()
                optimizer.zero_grad()

        def prediction_loop(self, loader):
            model = self.model
            if self.args.fp16_full_eval:
                model = model.half().to(self.args.device)
            with torch.no_grad():
                return [model(**batch).logits for batch in loader]
    """))
PF422_BAD.append(textwrap.dedent("""
    import torch


    class Trainer:
        # microsoft/LoRA examples/NLU/src/transformers/trainer.py (a vendored Transformers Trainer): the
        # GradScaler scales the training steps; the same cast outside an evaluation function halves the trained model
        def __init__(self, model, args):
            self.model = model
            self.args = args
            self.scaler = torch.cuda.amp.GradScaler()

        def train(self, loader):
            model = self.model
            optimizer = torch.optim.AdamW(model.parameters(), lr=1e-4)
            for batch in loader:
                with torch.cuda.amp.autocast():
                    loss = self.model(**batch).loss
                self.scaler.scale(loss).backward()
                self.scaler.step(optimizer)
                self.scaler.update()
                optimizer.zero_grad()

        def prepare(self):
            model = self.model
            if self.args.fp16:
                model = model.half().to(self.args.device)  # error: PF422
            self.model = model
    """))
