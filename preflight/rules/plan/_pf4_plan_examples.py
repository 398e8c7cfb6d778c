"""Examples of the project-level framework rules (PF405-PF407, PF410, PF411, PF413).

Each example is a small project: files separated by ``# --- <path>`` lines, run the
way ``preflight audit`` runs (bad ones must fire, good ones stay silent).
"""

from __future__ import annotations

import textwrap

PF405_BAD = [
    textwrap.dedent("""
        # --- train.py
        import torch
        import lightning as L

        class GAN(L.LightningModule):
            def __init__(self):
                super().__init__()
                self.automatic_optimization = False

            def training_step(self, batch, batch_idx):
                opt = self.optimizers()
                loss = self(batch).mean()
                self.manual_backward(loss)
                opt.step()
                opt.zero_grad()

        trainer = L.Trainer(devices=2, accumulate_grad_batches=4)  # error: PF405
        trainer.fit(GAN())
        """),
    # the module and the Trainer in two files, the clip value in a Hydra config
    textwrap.dedent("""
        # --- model.py
        import lightning as L

        class Module(L.LightningModule):
            def __init__(self):
                super().__init__()
                self.automatic_optimization = False

            def training_step(self, batch, batch_idx):
                opt = self.optimizers()
                self.manual_backward(self(batch).mean())
                opt.step()
                opt.zero_grad()
        # --- configs/trainer/default.yaml
        _target_: lightning.pytorch.trainer.Trainer
        max_epochs: 10
        gradient_clip_val: 0.5  # error: PF405
        """),
    # held-out-5's SPT launcher: the clip value is a parameter of main() with a literal default
    textwrap.dedent("""
        # --- train.py
        import lightning as L


        class SPT(L.LightningModule):
            def __init__(self):
                super().__init__()
                self.automatic_optimization = False

            def training_step(self, batch, batch_idx):
                opt = self.optimizers()
                self.manual_backward(self(batch).mean())
                opt.step()
                opt.zero_grad()


        def main(loader, max_epochs=100, cfg_clip=1.0):
            trainer = L.Trainer(max_epochs=max_epochs, gradient_clip_val=cfg_clip)  # error: PF405
            trainer.fit(SPT(), loader)
        """),
]

PF405_BAD.append(
    # threestudio issue 59: the Trainer's options spread from the run's YAML (`Trainer(**cfg.trainer)`)
    textwrap.dedent("""
        # --- systems.py
        import lightning.pytorch as pl


        class Fantasia3D(pl.LightningModule):
            def __init__(self, cfg):
                super().__init__()
                self.automatic_optimization = False

            def training_step(self, batch, batch_idx):
                opt = self.optimizers()
                opt.zero_grad()
                self.manual_backward(self(batch).mean())
                opt.step()
        # --- launch.py
        import lightning.pytorch as pl
        from omegaconf import OmegaConf

        from systems import Fantasia3D

        cfg = OmegaConf.load("configs/fantasia3d.yaml")
        trainer = pl.Trainer(accelerator="gpu", devices=1, **cfg.trainer)
        trainer.fit(Fantasia3D(cfg.system))
        # --- configs/fantasia3d.yaml
        system:
          lr: 0.01
        trainer:
          max_steps: 10000
          accumulate_grad_batches: 8  # error: PF405
        """))

PF405_GOOD = [
    textwrap.dedent("""
        # --- train.py
        import lightning as L

        class GAN(L.LightningModule):
            def __init__(self):
                super().__init__()
                self.automatic_optimization = False

            def training_step(self, batch, batch_idx):
                opt = self.optimizers()
                self.manual_backward(self(batch).mean())
                self.clip_gradients(opt, gradient_clip_val=0.5)
                if (batch_idx + 1) % 4 == 0:
                    opt.step()
                    opt.zero_grad()

        trainer = L.Trainer(devices=2, accumulate_grad_batches=1)
        trainer.fit(GAN())
        """),
    # automatic optimization: the flags are Lightning's job
    textwrap.dedent("""
        # --- train.py
        import lightning as L

        class Classifier(L.LightningModule):
            def training_step(self, batch, batch_idx):
                return self(batch).mean()

        trainer = L.Trainer(accumulate_grad_batches=8, gradient_clip_val=1.0)
        trainer.fit(Classifier())
        """),
    # two modules: the Trainer with flags fits the automatic one
    textwrap.dedent("""
        # --- train.py
        import lightning as L

        class Manual(L.LightningModule):
            def __init__(self):
                super().__init__()
                self.automatic_optimization = False

            def training_step(self, batch, batch_idx):
                opt = self.optimizers()
                self.manual_backward(self(batch).mean())
                opt.step()
                opt.zero_grad()

        class Auto(L.LightningModule):
            def training_step(self, batch, batch_idx):
                return self(batch).mean()

        model = Auto()
        trainer = L.Trainer(accumulate_grad_batches=8)
        trainer.fit(model)
        """),
    # a caller passes the clip value: not known statically
    textwrap.dedent("""
        # --- train.py
        import lightning as L


        class SPT(L.LightningModule):
            def __init__(self):
                super().__init__()
                self.automatic_optimization = False

            def training_step(self, batch, batch_idx):
                opt = self.optimizers()
                self.manual_backward(self(batch).mean())
                opt.step()
                opt.zero_grad()


        def main(loader, max_epochs=100, cfg_clip=1.0):
            trainer = L.Trainer(max_epochs=max_epochs, gradient_clip_val=cfg_clip)
            trainer.fit(SPT(), loader)


        main(loader, cfg_clip=None)
        """),
]

PF405_GOOD.extend([
    # the fix of threestudio issue 59: automatic optimization, the accumulation spread from the YAML
    textwrap.dedent("""
        # --- systems.py
        import lightning.pytorch as pl


        class Fantasia3D(pl.LightningModule):
            def training_step(self, batch, batch_idx):
                return self(batch).mean()
        # --- launch.py
        import lightning.pytorch as pl
        from omegaconf import OmegaConf

        from systems import Fantasia3D

        cfg = OmegaConf.load("configs/fantasia3d.yaml")
        trainer = pl.Trainer(**cfg.trainer)
        trainer.fit(Fantasia3D())
        # --- configs/fantasia3d.yaml
        trainer:
          accumulate_grad_batches: 8
        """),
    # tricky-correct: manual optimization, and the spread node of the YAML has no active flag (another
    # node of the same file does, but the Trainer never reads it)
    textwrap.dedent("""
        # --- systems.py
        import lightning.pytorch as pl


        class Gan(pl.LightningModule):
            def __init__(self):
                super().__init__()
                self.automatic_optimization = False

            def training_step(self, batch, batch_idx):
                opt = self.optimizers()
                opt.zero_grad()
                self.manual_backward(self(batch).mean())
                opt.step()
        # --- launch.py
        import lightning.pytorch as pl
        from omegaconf import OmegaConf

        from systems import Gan

        cfg = OmegaConf.load("configs/gan.yaml")
        trainer = pl.Trainer(**cfg.trainer)
        trainer.fit(Gan())
        # --- configs/gan.yaml
        trainer:
          max_epochs: 10
          accumulate_grad_batches: 1
        finetune:
          accumulate_grad_batches: 4
        """),
])

PF406_BAD = [
    textwrap.dedent("""
        # --- train.py
        import torch
        from transformers import Trainer, TrainingArguments

        class WeightedTrainer(Trainer):
            def compute_loss(self, model, inputs, return_outputs=False, num_items_in_batch=None):  # error: PF406
                labels = inputs.pop("labels")
                outputs = model(**inputs)
                loss = torch.nn.functional.cross_entropy(outputs.logits.flatten(0, 1), labels.flatten(),
                                                         weight=self.class_weights)
                return (loss, outputs) if return_outputs else loss

        args = TrainingArguments(output_dir="out", per_device_train_batch_size=4, gradient_accumulation_steps=8)
        WeightedTrainer(model=model, args=args, train_dataset=ds).train()
        """),
    # the accumulation comes from an arguments file read by HfArgumentParser
    textwrap.dedent("""
        # --- train.py
        from transformers import HfArgumentParser, Trainer, TrainingArguments

        class MyTrainer(Trainer):
            def compute_loss(self, model, inputs, return_outputs=False, **kwargs):  # error: PF406
                outputs = model(**inputs)
                return outputs.loss

        parser = HfArgumentParser((TrainingArguments,))
        (args,) = parser.parse_json_file("args.json")
        MyTrainer(model=model, args=args).train()
        # --- args.json
        {"output_dir": "out", "gradient_accumulation_steps": 16, "per_device_train_batch_size": 2}
        """),
    # named keys, but one of them is the top-level `labels` the Trainer counts
    textwrap.dedent("""
        # --- train.py
        from transformers import Trainer, TrainingArguments

        class PairTrainer(Trainer):
            def compute_loss(self, model, inputs, return_outputs=False, **kwargs):  # error: PF406
                outputs = model(input_ids=inputs["input_ids"], labels=inputs["labels"])
                return outputs.loss

        args = TrainingArguments(output_dir="out", gradient_accumulation_steps=4)
        PairTrainer(model=model, args=args).train()
        """),
]

PF406_BAD.append(
    # transformers 4.46+ passes `num_items_in_batch=` to every compute_loss: an override without it
    # stops with a TypeError at the first step, with or without accumulation (locuslab/tofu)
    textwrap.dedent("""
        # --- train.py
        from transformers import Trainer, TrainingArguments

        class ForgetTrainer(Trainer):
            def compute_loss(self, model, inputs, return_outputs=False):  # error: PF406
                forget_inputs, retain_inputs = inputs
                outputs = model(*forget_inputs)
                return -outputs.loss

        args = TrainingArguments(output_dir="out", per_device_train_batch_size=4)
        ForgetTrainer(model=model, args=args, train_dataset=ds).train()
        # --- requirements.txt
        transformers>=4.46
        """))

PF406_GOOD = [
    # a tuple batch (`forget_inputs, retain_inputs = inputs`): no top-level `labels` for the Trainer
    # to count, so `num_items_in_batch` is None and the Trainer divides by the window itself
    textwrap.dedent("""
        # --- train.py
        from transformers import Trainer, TrainingArguments

        class ForgetTrainer(Trainer):
            def compute_loss(self, model, inputs, return_outputs=False, num_items_in_batch=None):
                forget_inputs, retain_inputs = inputs
                input_ids, labels, attention_mask = forget_inputs
                outputs = model(input_ids, labels=labels, attention_mask=attention_mask)
                return -outputs.loss

        args = TrainingArguments(output_dir="out", per_device_train_batch_size=4, gradient_accumulation_steps=4)
        ForgetTrainer(model=model, args=args, train_dataset=ds).train()
        # --- requirements.txt
        transformers>=4.46
        """),
    # the same override without the parameter on a transformers that never passes it
    textwrap.dedent("""
        # --- train.py
        from transformers import Trainer, TrainingArguments

        class ForgetTrainer(Trainer):
            def compute_loss(self, model, inputs, return_outputs=False):
                forget_inputs, retain_inputs = inputs
                outputs = model(*forget_inputs)
                return -outputs.loss

        args = TrainingArguments(output_dir="out", per_device_train_batch_size=4)
        ForgetTrainer(model=model, args=args, train_dataset=ds).train()
        # --- requirements.txt
        transformers==4.44.2
        """),
    # the model's forward takes no loss keyword arguments: Trainer divides by the window itself
    textwrap.dedent("""
        # --- train.py
        import torch
        from transformers import Trainer, TrainingArguments

        class Classifier(torch.nn.Module):
            def __init__(self):
                super().__init__()
                self.head = torch.nn.Linear(16, 2)

            def forward(self, input_ids, labels=None):
                return {"logits": self.head(input_ids)}

        class WeightedTrainer(Trainer):
            def compute_loss(self, model, inputs, return_outputs=False, num_items_in_batch=None):
                labels = inputs.pop("labels")
                outputs = model(**inputs)
                loss = torch.nn.functional.cross_entropy(outputs["logits"], labels)
                return (loss, outputs) if return_outputs else loss

        model = Classifier()
        args = TrainingArguments(output_dir="out", per_device_train_batch_size=4, gradient_accumulation_steps=8)
        WeightedTrainer(model=model, args=args, train_dataset=ds).train()
        """),
    textwrap.dedent("""
        # --- train.py
        import torch
        from transformers import Trainer, TrainingArguments

        class WeightedTrainer(Trainer):
            def compute_loss(self, model, inputs, return_outputs=False, num_items_in_batch=None):
                labels = inputs.pop("labels")
                outputs = model(**inputs)
                loss = torch.nn.functional.cross_entropy(outputs.logits.flatten(0, 1), labels.flatten(),
                                                         reduction="sum") / num_items_in_batch
                return (loss, outputs) if return_outputs else loss

        args = TrainingArguments(output_dir="out", gradient_accumulation_steps=8)
        """),
    # the class says its loss is a plain mean; and a job without accumulation
    textwrap.dedent("""
        # --- train.py
        from transformers import Trainer, TrainingArguments

        class MeanLossTrainer(Trainer):
            loss_is_scaled_for_ga = False

            def compute_loss(self, model, inputs, return_outputs=False, num_items_in_batch=None):
                return model(**inputs).loss

        args = TrainingArguments(output_dir="out", gradient_accumulation_steps=8)
        # --- other/train.py
        from transformers import Trainer, TrainingArguments

        class PlainTrainer(Trainer):
            def compute_loss(self, model, inputs, return_outputs=False, **kwargs):
                return super().compute_loss(model, inputs, return_outputs, **kwargs)
        """),
    # open-unlearning's GradAscent: the batch is {"forget": {...}, "retain": {...}}, no top-level
    # `labels`, so the Trainer passes num_items_in_batch=None and divides by the window itself
    textwrap.dedent("""
        # --- train.py
        from transformers import Trainer, TrainingArguments

        class GradAscent(Trainer):
            def compute_loss(self, model, inputs, return_outputs=False, **kwargs):
                forget_inputs = inputs["forget"]
                outputs = model(input_ids=forget_inputs["input_ids"], labels=forget_inputs["labels"])
                loss = -outputs.loss
                if "retain" in inputs:
                    loss = loss + model(**inputs["retain"]).loss
                return (loss, outputs) if return_outputs else loss

        args = TrainingArguments(output_dir="out", per_device_train_batch_size=4, gradient_accumulation_steps=4)
        GradAscent(model=model, args=args, train_dataset=ds).train()
        """),
]

PF407_BAD = [
    textwrap.dedent("""
        # --- requirements.txt
        transformers==5.2.0
        peft>=0.15
        # --- train.py
        from transformers import AutoModelForCausalLM

        model = AutoModelForCausalLM.from_pretrained("meta-llama/Llama-3.1-8B", load_in_4bit=True)  # error: PF407
        """),
    # no version declared: the latest (5.x) is assumed, reported as a warning
    textwrap.dedent("""
        # --- finetune.py
        from transformers import AutoModelForSeq2SeqLM

        model = AutoModelForSeq2SeqLM.from_pretrained("google/flan-t5-xl", load_in_8bit=True, device_map="auto")  # warning: PF407
        """),
]

PF407_GOOD = [
    textwrap.dedent("""
        # --- requirements.txt
        transformers==4.44.2
        # --- train.py
        from transformers import AutoModelForCausalLM

        model = AutoModelForCausalLM.from_pretrained("meta-llama/Llama-3.1-8B", load_in_4bit=True)
        """),
    textwrap.dedent("""
        # --- requirements.txt
        transformers>=5.0
        # --- train.py
        from transformers import AutoModelForCausalLM, BitsAndBytesConfig

        model = AutoModelForCausalLM.from_pretrained(
            "meta-llama/Llama-3.1-8B", quantization_config=BitsAndBytesConfig(load_in_4bit=True))
        """),
]

PF410_BAD = [
    textwrap.dedent("""
        # --- pyproject.toml
        [project]
        dependencies = ["trl>=0.21", "transformers>=4.56"]
        # --- sft.py
        from trl import SFTConfig, SFTTrainer

        args = SFTConfig(output_dir="out", max_seq_length=2048, packing=False)  # error: PF410
        SFTTrainer(model="Qwen/Qwen2.5-0.5B", args=args, train_dataset=ds).train()
        """),
    # the trainer argument left SFTTrainer in 0.13: a declared 0.15 already rejects it, even with
    # the old-API arguments beside it
    textwrap.dedent("""
        # --- requirements.txt
        trl==0.15.2
        # --- sft.py
        from trl import SFTTrainer

        trainer = SFTTrainer(model=model, train_dataset=ds, dataset_text_field="text",
                             max_seq_length=512, tokenizer=tokenizer)  # error: PF410
        """),
    # no version declared, a trainer call in the current API: the latest TRL is assumed
    textwrap.dedent("""
        # --- sft.py
        from trl import SFTTrainer

        trainer = SFTTrainer(model=model, train_dataset=ds, processing_class=tokenizer,
                             max_seq_length=512)  # warning: PF410
        """),
]

PF410_GOOD = [
    textwrap.dedent("""
        # --- pyproject.toml
        [project]
        dependencies = ["trl>=0.21"]
        # --- sft.py
        from trl import SFTConfig

        args = SFTConfig(output_dir="out", max_length=2048)
        """),
    # an old TRL still takes the old name
    textwrap.dedent("""
        # --- requirements.txt
        trl==0.12.1
        # --- sft.py
        from trl import SFTConfig

        args = SFTConfig(output_dir="out", max_seq_length=2048)
        """),
    # no version declared, one call of the TRL <= 0.11 trainer API (tokenizer=, dataset_text_field=,
    # packing=): max_seq_length was a trainer argument there (mlabonne's llm-course notebooks)
    textwrap.dedent("""
        # --- sft.py
        from trl import SFTTrainer

        trainer = SFTTrainer(model=model, train_dataset=ds, peft_config=peft_config, dataset_text_field="text",
                             max_seq_length=None, tokenizer=tokenizer, args=training_arguments, packing=False)
        """),
]

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
]

PF411_GOOD = [
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
]

PF413_BAD = [
    textwrap.dedent("""
        # --- train.py
        from transformers import AutoModelForCausalLM, Trainer, TrainingArguments

        model = AutoModelForCausalLM.from_pretrained("meta-llama/Llama-3.1-70B")  # error: PF413
        args = TrainingArguments(output_dir="out", deepspeed="ds_zero3.json", bf16=True)
        Trainer(model=model, args=args, train_dataset=ds).train()
        # --- ds_zero3.json
        {
          "zero_optimization": {"stage": 3, "offload_param": {"device": "cpu"}},
          "bf16": {"enabled": "auto"},
          "train_micro_batch_size_per_gpu": "auto"
        }
        """),
]

PF413_GOOD = [
    textwrap.dedent("""
        # --- train.py
        from transformers import AutoModelForCausalLM, Trainer, TrainingArguments

        args = TrainingArguments(output_dir="out", deepspeed="ds_zero3.json", bf16=True)
        model = AutoModelForCausalLM.from_pretrained("meta-llama/Llama-3.1-70B")
        Trainer(model=model, args=args, train_dataset=ds).train()
        # --- ds_zero3.json
        {"zero_optimization": {"stage": 3}, "train_micro_batch_size_per_gpu": "auto"}
        """),
    # ZeRO-2 keeps full weights per rank anyway; a model built in a helper
    textwrap.dedent("""
        # --- train.py
        from transformers import AutoModelForCausalLM, Trainer, TrainingArguments

        def build():
            return AutoModelForCausalLM.from_pretrained("gpt2")

        model = AutoModelForCausalLM.from_pretrained("gpt2")
        args = TrainingArguments(output_dir="out", deepspeed="ds.json")
        # --- ds.json
        {"zero_optimization": {"stage": 2}, "train_micro_batch_size_per_gpu": 4}
        """),
]
