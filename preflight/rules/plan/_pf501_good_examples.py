"""PF501's correct-code twins: jobs whose plan must NOT produce it (executable documentation, see
tests/test_rules_meta.py; the must-fire jobs are in ``_pf501_examples``)."""

from __future__ import annotations

import textwrap

PF501_GOOD = [
    # tricky-correct (transformers issue 25841's shape): the Trainer's model is built in an imported
    # module that attaches a LoRA adapter with add_adapter(); the Trainer's "full fine-tune" is only
    # a guess, not a second setting that disagrees with the LoRA read in model.py
    textwrap.dedent("""
    # --- model.py
    from peft import LoraConfig
    from transformers import AutoModelForCausalLM, PretrainedConfig, PreTrainedModel


    class CustomModel(PreTrainedModel):
        config_class = PretrainedConfig

        def __init__(self, config):
            super().__init__(config)
            self.model = AutoModelForCausalLM.from_pretrained("EleutherAI/pythia-70m")
            self.model.add_adapter(LoraConfig(task_type="CAUSAL_LM", r=8, lora_alpha=32))
            self.model.gradient_checkpointing_enable()
            self.model.enable_input_require_grads()

        def forward(self, input_ids, attention_mask=None, labels=None):
            return self.model(input_ids=input_ids, attention_mask=attention_mask, labels=labels)
    # --- train.py
    from transformers import PretrainedConfig, Trainer, TrainingArguments

    from model import CustomModel
    from data import train_dataset

    model = CustomModel(PretrainedConfig())
    args = TrainingArguments(output_dir="out", per_device_train_batch_size=8, num_train_epochs=1)
    trainer = Trainer(model=model, args=args, train_dataset=train_dataset)
    trainer.train()
    # --- requirements.txt
    transformers==4.32.1
    peft==0.5.0
"""),
    # CVI-SZU/Linly issue 83's fix: fp32 weights handed to a bf16 DeepSpeed engine, which casts the
    # parameters to bf16 in `initialize`: the load dtype is no second precision setting
    textwrap.dedent("""
    # --- pretrain.py
    import argparse

    import deepspeed
    import torch
    from transformers import LlamaForCausalLM


    def main(train_loader):
        parser = argparse.ArgumentParser()
        parser.add_argument("--local_rank", type=int, default=-1)
        parser = deepspeed.add_config_arguments(parser)
        args = parser.parse_args()
        deepspeed.init_distributed()
        with deepspeed.zero.Init(config_dict_or_path=args.deepspeed_config):
            model = LlamaForCausalLM.from_pretrained("models/llama_7b", torch_dtype=torch.float32)
        engine, optimizer, _, _ = deepspeed.initialize(args=args, model=model, model_parameters=model.parameters())
        for batch in train_loader:
            loss = engine(**batch).loss
            engine.backward(loss)
            engine.step()
    # --- ds_zero3_config.json
    {"train_micro_batch_size_per_gpu": 24, "gradient_accumulation_steps": 1, "bf16": {"enabled": true},
     "zero_optimization": {"stage": 3}}
    # --- launch
    deepspeed --num_gpus 8 pretrain.py --deepspeed --deepspeed_config ds_zero3_config.json
"""),
    # tricky-correct: the script accumulates over engine.backward calls itself, marking the last one
    # with set_gradient_accumulation_boundary; the config's accumulation of 1 is the design
    textwrap.dedent("""
    # --- train.py
    import argparse
    import json

    import deepspeed

    from rl_data import packed_microbatches, policy_loss


    def main(policy):
        parser = argparse.ArgumentParser()
        parser.add_argument("--deepspeed_config", type=str, required=True)
        parser.add_argument("--accumulation_steps", type=int, default=4)
        parser.add_argument("--local_rank", type=int, default=-1)
        args = parser.parse_args()
        with open(args.deepspeed_config) as f:
            ds_config = json.load(f)
        model, optimizer, _, _ = deepspeed.initialize(model=policy, model_parameters=policy.parameters(),
                                                      config=ds_config)
        for step in range(1000):
            micro_batches = packed_microbatches(step, args.accumulation_steps)
            for i, mb in enumerate(micro_batches):
                loss = policy_loss(model(input_ids=mb["input_ids"]).logits, mb) / args.accumulation_steps
                model.set_gradient_accumulation_boundary(i == len(micro_batches) - 1)
                model.backward(loss)
            model.step()
    # --- ds_config.json
    {"train_micro_batch_size_per_gpu": 1, "gradient_accumulation_steps": 1, "zero_optimization": {"stage": 2}}
    # --- launch
    deepspeed --num_gpus 8 train.py --deepspeed_config ds_config.json --accumulation_steps 4
"""),
    # DeepSpeed bf16 and TrainingArguments(bf16=True), a bfloat16 load: all bf16, no conflict
    textwrap.dedent("""
    # --- train.py
    import torch
    from transformers import AutoModelForCausalLM, Trainer, TrainingArguments

    args = TrainingArguments(output_dir="out", bf16=True, deepspeed="ds.json", per_device_train_batch_size=2)
    model = AutoModelForCausalLM.from_pretrained("meta-llama/Llama-3.1-8B", torch_dtype=torch.bfloat16)
    # --- ds.json
    {"train_micro_batch_size_per_gpu": 2, "bf16": {"enabled": true}, "zero_optimization": {"stage": 2}}
"""),
    # "auto": the Trainer fills the DeepSpeed value from its own argument
    textwrap.dedent("""
    # --- train.py
    from transformers import Trainer, TrainingArguments

    args = TrainingArguments(output_dir="out", per_device_train_batch_size=8, deepspeed="ds.json")
    # --- ds.json
    {"train_micro_batch_size_per_gpu": "auto", "zero_optimization": {"stage": 2}}
"""),
    # the same value in both places
    textwrap.dedent("""
    # --- train.py
    from transformers import Trainer, TrainingArguments

    args = TrainingArguments(output_dir="out", per_device_train_batch_size=4, deepspeed="ds.json")
    # --- ds.json
    {"train_micro_batch_size_per_gpu": 4, "zero_optimization": {"stage": 2}}
"""),
    # "auto" is filled from TrainingArguments; or the launch line passes --fp16
    textwrap.dedent("""
    # --- sft.py
    from transformers import HfArgumentParser, Seq2SeqTrainer, Seq2SeqTrainingArguments

    model_args, training_args = HfArgumentParser((ModelArguments, Seq2SeqTrainingArguments)).parse_args_into_dataclasses()
    Seq2SeqTrainer(model=model, args=training_args).train()
    # --- ds_config.json
    {"fp16": {"enabled": "auto"}, "bf16": {"enabled": true}, "zero_optimization": {"stage": 2}}
    # --- launch
    deepspeed --num_gpus 2 sft.py --do_train --output_dir out --bf16 --deepspeed ds_config.json
"""),
    # a Trainer subclass whose training_step calls backward itself (transformers PR 9705's
    # shape): the Trainer still owns the loop, so the job fine-tunes; `trainer.train()` and the
    # override's backward are not two task modes
    textwrap.dedent("""
    # --- run_clm.py
    from transformers import AutoModelForCausalLM, HfArgumentParser, TrainingArguments

    from trainer import RDropTrainer

    training_args, rest = HfArgumentParser(TrainingArguments).parse_args_into_dataclasses(return_remaining_strings=True)
    model = AutoModelForCausalLM.from_pretrained("gpt2-large")
    trainer = RDropTrainer(model=model, args=training_args, train_dataset=None)
    trainer.train()
    # --- trainer.py
    from transformers import Trainer


    class RDropTrainer(Trainer):
        def training_step(self, model, inputs, num_items_in_batch=None):
            model.train()
            out1 = model(**inputs)
            out2 = model(**inputs)
            loss = 0.5 * (out1.loss + out2.loss)
            self.accelerator.backward(loss)
            return loss.detach()
    # --- ds_config.json
    {"fp16": {"enabled": "auto"}, "train_micro_batch_size_per_gpu": "auto", "zero_optimization": {"stage": 2}}
    # --- launch
    deepspeed --num_gpus 4 run_clm.py --per_device_train_batch_size 4 --deepspeed ds_config.json --output_dir out
"""),
    # tricky-correct (tinyworlds PR 13's shape): a two-stage pipeline, each stage its own script with a
    # `__main__` block; their DataLoader batch sizes belong to two jobs, not one job said twice
    textwrap.dedent("""
    # --- train_tokenizer.py
    import torch
    from torch.utils.data import DataLoader

    from models import VideoTokenizer, clips


    def main():
        model = VideoTokenizer().cuda()
        opt = torch.optim.AdamW(model.parameters(), lr=3e-4)
        for frames in DataLoader(clips(), batch_size=32, shuffle=True):
            loss = model(frames.cuda())
            opt.zero_grad()
            loss.backward()
            opt.step()


    if __name__ == "__main__":
        main()
    # --- train_dynamics.py
    import torch
    from torch.utils.data import DataLoader

    from models import DynamicsModel, clips


    def main():
        model = DynamicsModel().cuda()
        opt = torch.optim.AdamW(model.parameters(), lr=1e-4)
        for frames in DataLoader(clips(), batch_size=16, shuffle=True):
            loss = model(frames.cuda())
            opt.zero_grad()
            loss.backward()
            opt.step()


    if __name__ == "__main__":
        main()
    # --- launch
    python train_tokenizer.py
"""),
    # tricky-correct: float32 weights loaded in the LightningModule's file, `precision="16-mixed"` in the
    # training script: mixed precision autocasts the forward and keeps float32 parameters, as intended
    textwrap.dedent("""
    # --- train.py
    import lightning as L

    from model import LitLM

    if __name__ == "__main__":
        trainer = L.Trainer(accelerator="gpu", devices=1, precision="16-mixed", max_steps=1000)
        trainer.fit(LitLM("EleutherAI/pythia-1b"))
    # --- model.py
    import lightning as L
    import torch
    from transformers import AutoModelForCausalLM


    class LitLM(L.LightningModule):
        def __init__(self, name):
            super().__init__()
            self.model = AutoModelForCausalLM.from_pretrained(name, torch_dtype=torch.float32)

        def training_step(self, batch, batch_idx):
            return self.model(**batch).loss

        def configure_optimizers(self):
            return torch.optim.AdamW(self.parameters(), lr=2e-5)
    # --- launch
    python train.py
"""),
    # tricky-correct (lightning issue 5326's T5 fine-tuner, held-out-32): the LightningModule loads
    # pretrained weights in its own file, the launcher file only fits it: one full fine-tune, not
    # "finetune" against "train"
    textwrap.dedent("""
    # --- t5_finetuner.py
    import pytorch_lightning as pl
    import torch
    from transformers import AdamW, T5ForConditionalGeneration, T5Tokenizer


    class T5FineTuner(pl.LightningModule):
        def __init__(self, hparams):
            super().__init__()
            self.hparams = hparams
            self.model = T5ForConditionalGeneration.from_pretrained(hparams.model_name_or_path)
            self.tokenizer = T5Tokenizer.from_pretrained(hparams.tokenizer_name_or_path)

        def forward(self, input_ids, attention_mask=None, decoder_attention_mask=None, labels=None):
            return self.model(input_ids, attention_mask=attention_mask, decoder_attention_mask=decoder_attention_mask,
                              labels=labels)

        def _step(self, batch):
            labels = batch["target_ids"]
            labels[labels[:, :] == self.tokenizer.pad_token_id] = -100
            outputs = self(input_ids=batch["source_ids"], attention_mask=batch["source_mask"], labels=labels,
                           decoder_attention_mask=batch["target_mask"])
            return outputs[0]

        def training_step(self, batch, batch_idx):
            loss = self._step(batch)
            self.log("train_loss", loss)
            return loss

        def configure_optimizers(self):
            no_decay = ["bias", "LayerNorm.weight"]
            grouped = [
                {"params": [p for n, p in self.model.named_parameters() if not any(nd in n for nd in no_decay)],
                 "weight_decay": self.hparams.weight_decay},
                {"params": [p for n, p in self.model.named_parameters() if any(nd in n for nd in no_decay)], "weight_decay": 0.0},
            ]
            optimizer = AdamW(grouped, lr=self.hparams.learning_rate, eps=self.hparams.adam_epsilon)
            self.opt = optimizer
            return [optimizer]

        def optimizer_step(self,
                           epoch=None,
                           batch_idx=None,
                           optimizer=None,
                           optimizer_idx=None,
                           optimizer_closure=None,
                           on_tpu=None,
                           using_native_amp=None,
                           using_lbfgs=None):
            optimizer.step(closure=optimizer_closure)
            optimizer.zero_grad()
    # --- train.py
    import argparse

    import pytorch_lightning as pl

    from t5_finetuner import T5FineTuner

    args = argparse.Namespace(model_name_or_path="t5-base", tokenizer_name_or_path="t5-base", learning_rate=3e-4,
                              weight_decay=0.0, adam_epsilon=1e-8)
    model = T5FineTuner(args)
    trainer = pl.Trainer(gpus=1, max_epochs=2, accumulate_grad_batches=16)
    trainer.fit(model)
    # --- requirements.txt
    pytorch-lightning==1.1.4
    transformers==4.1.1
    # --- launch
    python train.py
"""),
    # tricky-correct: an RL loop whose rollout helper only generates; the job trains (one task mode)
    textwrap.dedent("""
    # --- rollout.py
    import torch


    @torch.no_grad()
    def rollout(model, prompts, max_new_tokens=256):
        return model.generate(**prompts, max_new_tokens=max_new_tokens, do_sample=True)
    # --- train_rl.py
    import torch
    from transformers import AutoModelForCausalLM

    from rollout import rollout


    def main(loader):
        model = AutoModelForCausalLM.from_pretrained("Qwen/Qwen2.5-0.5B").cuda()
        opt = torch.optim.AdamW(model.parameters(), lr=1e-6)
        for prompts in loader:
            completions = rollout(model, prompts)
            loss = model(input_ids=completions, labels=completions).loss
            loss.backward()
            opt.step()
            opt.zero_grad()
    # --- launch
    python train_rl.py
"""),
    # Lightning issue 12862 (held-out-20's tricky-correct program): training on 8 GPUs and testing on one
    # in a script of its own (each run on its own, neither importing the other): two jobs, not one job
    # that states its devices twice
    textwrap.dedent("""
    # --- train.py
    import argparse

    import lightning as L
    from lightning.pytorch.callbacks import ModelCheckpoint

    from seg.data import CityscapesDataModule
    from seg.module import SegModule


    def main():
        p = argparse.ArgumentParser()
        p.add_argument("--root", default="/data/cityscapes")
        args = p.parse_args()
        dm = CityscapesDataModule(args.root, batch_size=4, num_workers=8)
        model = SegModule(num_classes=19, lr=0.01, max_epochs=200)
        ckpt = ModelCheckpoint(dirpath="checkpoints", monitor="val_miou", mode="max", save_top_k=1, filename="best")
        trainer = L.Trainer(max_epochs=200, accelerator="gpu", devices=8, strategy="ddp", sync_batchnorm=True, precision="16-mixed", callbacks=[ckpt])
        trainer.fit(model, datamodule=dm)


    if __name__ == "__main__":
        main()
    # --- test.py
    import argparse

    import lightning as L

    from seg.data import CityscapesDataModule
    from seg.module import SegModule


    def main():
        p = argparse.ArgumentParser()
        p.add_argument("--root", default="/data/cityscapes")
        p.add_argument("--ckpt", default="checkpoints/best.ckpt")
        args = p.parse_args()
        dm = CityscapesDataModule(args.root, batch_size=4, num_workers=8)
        model = SegModule.load_from_checkpoint(args.ckpt)
        tester = L.Trainer(accelerator="gpu", devices=1, num_nodes=1, precision="16-mixed", logger=False)
        tester.test(model, datamodule=dm)


    if __name__ == "__main__":
        main()
    # --- seg/module.py
    import lightning as L
    import torch
    import torch.nn.functional as F
    from torchmetrics.classification import MulticlassJaccardIndex

    from seg.nets import deeplabv3plus


    class SegModule(L.LightningModule):
        def __init__(self, num_classes, lr, max_epochs):
            super().__init__()
            self.save_hyperparameters()
            self.net = deeplabv3plus(num_classes)
            self.val_miou = MulticlassJaccardIndex(num_classes, ignore_index=255)
            self.test_miou = MulticlassJaccardIndex(num_classes, ignore_index=255)

        def training_step(self, batch, batch_idx):
            x, y = batch
            loss = F.cross_entropy(self.net(x), y, ignore_index=255)
            self.log("train_loss", loss)
            return loss

        def validation_step(self, batch, batch_idx):
            x, y = batch
            self.val_miou.update(self.net(x).argmax(1), y)
            self.log("val_miou", self.val_miou, on_epoch=True)

        def test_step(self, batch, batch_idx):
            x, y = batch
            self.test_miou.update(self.net(x).argmax(1), y)
            self.log("test_miou", self.test_miou, on_epoch=True)

        def configure_optimizers(self):
            opt = torch.optim.SGD(self.parameters(), lr=self.hparams.lr, momentum=0.9, weight_decay=1e-4)
            sched = torch.optim.lr_scheduler.PolynomialLR(opt, total_iters=self.hparams.max_epochs, power=0.9)
            return [opt], [sched]
    # --- launch
    python test.py --root /data/cityscapes --ckpt checkpoints/best.ckpt
"""),
    # tricky-correct: the launch line reuses an 8-GPU accelerate config for a one-process run.
    # `accelerate launch` fills from the file only what the command leaves unset (commands/launch.py
    # _validate_launch_command), so `--num_processes 1` is the deliberate override and the file's 8 is
    # never used: the plan holds only the command's value and nothing conflicts (InternImage's
    # accelerate + DeepSpeed recipe)
    textwrap.dedent("""
    # --- train.py
    from accelerate import Accelerator

    accelerator = Accelerator()
    model, optimizer, loader = accelerator.prepare(model, optimizer, loader)
    # --- dist_8gpus.yaml
    compute_environment: LOCAL_MACHINE
    distributed_type: MULTI_GPU
    machine_rank: 0
    num_machines: 1
    num_processes: 8
    # --- launch
    accelerate launch --config_file dist_8gpus.yaml --num_processes 1 train.py
"""),
    # tricky-correct: a seq2seq job truncates sources to --max_source_length and the labels, tokenized under
    # `with tokenizer.as_target_tokenizer():`, to --max_target_length (transformers issue 10032's run_seq2seq.py):
    # two lengths by design, not one sequence length set twice
    textwrap.dedent("""\
    # --- run_seq2seq.py
    import argparse

    from datasets import load_dataset
    from transformers import (AutoModelForSeq2SeqLM, AutoTokenizer, DataCollatorForSeq2Seq, Seq2SeqTrainer,
                              Seq2SeqTrainingArguments)

    parser = argparse.ArgumentParser()
    parser.add_argument("--max_source_length", type=int, default=1024)
    parser.add_argument("--max_target_length", type=int, default=128)
    args = parser.parse_args()
    tokenizer = AutoTokenizer.from_pretrained("t5-small")
    model = AutoModelForSeq2SeqLM.from_pretrained("t5-small")


    def preprocess(examples):
        model_inputs = tokenizer(examples["article"], max_length=args.max_source_length, truncation=True)
        with tokenizer.as_target_tokenizer():
            labels = tokenizer(examples["highlights"], max_length=args.max_target_length, truncation=True)
        model_inputs["labels"] = labels["input_ids"]
        return model_inputs


    train = load_dataset("cnn_dailymail", "3.0.0")["train"].map(preprocess, batched=True)
    training_args = Seq2SeqTrainingArguments(output_dir="out", per_device_train_batch_size=4)
    Seq2SeqTrainer(model=model, args=training_args, train_dataset=train, tokenizer=tokenizer,
                   data_collator=DataCollatorForSeq2Seq(tokenizer, model=model)).train()
    # --- launch
    python run_seq2seq.py --max_target_length 100
    """),
]
