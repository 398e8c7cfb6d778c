"""PF450-PF452 examples (single files): bad ones must fire at the pinned line, good ones stay silent."""

from __future__ import annotations

PF450_BAD = [
    # Lightning issue 4454: the scheduler under 'scheduler' beside 'optimizer'
    """
import pytorch_lightning as pl
import torch


class Leaf(pl.LightningModule):
    def configure_optimizers(self):
        optimizer = torch.optim.Adam(self.parameters(), lr=1e-3)
        scheduler = torch.optim.lr_scheduler.ReduceLROnPlateau(optimizer, patience=1)
        return {
            "optimizer": optimizer,
            "scheduler": scheduler,  # warning: PF450
            "monitor": "val_loss",
        }
""",
    # the plural, in a list of dicts (one per optimizer)
    """
import lightning as L
import torch


class GAN(L.LightningModule):
    def configure_optimizers(self):
        g = torch.optim.Adam(self.gen.parameters())
        d = torch.optim.Adam(self.disc.parameters())
        return [{"optimizer": g, "lr_schedulers": torch.optim.lr_scheduler.StepLR(g, 10)},  # warning: PF450
                {"optimizer": d}]
""",
    # Lightning issue 4929: 'interval' at the top level, beside 'lr_scheduler', is ignored
    """
import pytorch_lightning as pl
from torch import optim


class Segmenter(pl.LightningModule):
    def configure_optimizers(self):
        optimizer = optim.SGD(self.parameters(), lr=1e-2)
        max_steps = self.trainer.estimated_stepping_batches
        scheduler = optim.lr_scheduler.LambdaLR(optimizer, lambda step: (1 - step / max_steps) ** 0.9)
        return {
            "optimizer": optimizer,
            "lr_scheduler": scheduler,
            "interval": "step",  # warning: PF450
        }
""",
    # Lightning issue 9475: 'interval' spelled 'steps' (Lightning knows 'step' and 'epoch')
    """
import pytorch_lightning as pl
import torch


class Classifier(pl.LightningModule):
    def configure_optimizers(self):
        optimizer = torch.optim.SGD(self.parameters(), lr=0.1)
        scheduler = torch.optim.lr_scheduler.StepLR(optimizer, step_size=1000, gamma=0.1)
        return [optimizer], [{"scheduler": scheduler, "interval": "steps"}]  # warning: PF450
""",
    # the same typo in the nested dict of the documented form, with a monitor
    """
import lightning as L
from torch import optim


class Regressor(L.LightningModule):
    def configure_optimizers(self):
        opt = optim.Adam(self.parameters(), lr=1e-3)
        sched = optim.lr_scheduler.ReduceLROnPlateau(opt)
        return {"optimizer": opt,
                "lr_scheduler": {"scheduler": sched, "interval": "epochs", "monitor": "val_loss"}}  # warning: PF450
""",
]

PF450_GOOD = [
    # the fix: 'lr_scheduler' at the top, 'scheduler' inside its dict
    """
import pytorch_lightning as pl
import torch


class Leaf(pl.LightningModule):
    def configure_optimizers(self):
        optimizer = torch.optim.Adam(self.parameters(), lr=1e-3)
        scheduler = torch.optim.lr_scheduler.ReduceLROnPlateau(optimizer, patience=1)
        return {"optimizer": optimizer, "lr_scheduler": {"scheduler": scheduler, "monitor": "val_loss"}}
""",
    """
import pytorch_lightning as pl
import torch


class Leaf(pl.LightningModule):
    def configure_optimizers(self):
        optimizer = torch.optim.Adam(self.parameters(), lr=1e-3)
        return {"optimizer": optimizer, "lr_scheduler": torch.optim.lr_scheduler.StepLR(optimizer, 5),
                "monitor": "val_loss"}
""",
    # the issue 4929 fix: 'interval' inside the scheduler's dict
    """
import pytorch_lightning as pl
from torch import optim


class Segmenter(pl.LightningModule):
    def configure_optimizers(self):
        optimizer = optim.SGD(self.parameters(), lr=1e-2)
        scheduler = optim.lr_scheduler.LambdaLR(optimizer, lambda step: 0.99 ** step)
        return {"optimizer": optimizer, "lr_scheduler": {"scheduler": scheduler, "interval": "step"}}
""",
    # a dict with 'scheduler' outside configure_optimizers (a project's own config) is not Lightning's
    """
import torch


def build(cfg, model):
    optimizer = torch.optim.Adam(model.parameters())
    return {"optimizer": optimizer, "scheduler": torch.optim.lr_scheduler.StepLR(optimizer, 5)}
""",
    # the 9475 fix, and both accepted values side by side
    """
import pytorch_lightning as pl
import torch


class Classifier(pl.LightningModule):
    def configure_optimizers(self):
        optimizer = torch.optim.SGD(self.parameters(), lr=0.1)
        warm = torch.optim.lr_scheduler.LinearLR(optimizer, start_factor=0.1, total_iters=500)
        decay = torch.optim.lr_scheduler.StepLR(optimizer, step_size=10)
        return [optimizer], [{"scheduler": warm, "interval": "step"}, {"scheduler": decay, "interval": "epoch"}]
""",
    # asteroid's System takes its own {"interval": "batch"} dict and translates it: outside
    # configure_optimizers the value is not Lightning's
    """
from asteroid.engine.system import System


def make_system(model, optimizer, loaders, sched, conf):
    scheduler = {"scheduler": sched, "interval": "batch"}
    return System(model=model, optimizer=optimizer, loss_func=None, train_loader=loaders[0],
                  val_loader=loaders[1], scheduler=scheduler, config=conf)
""",
    # an interval read from the config: not a literal, not judged
    """
import pytorch_lightning as pl
import torch


class Tuned(pl.LightningModule):
    def configure_optimizers(self):
        opt = torch.optim.AdamW(self.parameters(), lr=self.hparams.lr)
        sched = torch.optim.lr_scheduler.StepLR(opt, step_size=self.hparams.step)
        return [opt], [{"scheduler": sched, "interval": self.hparams.interval}]
""",
    # tricky-correct (Lightning examples/fabric/build_your_own_trainer/run.py at 7f0c343): the module is fit by
    # the example's own Fabric trainer, which reads the dict's "scheduler" key itself
    """
import lightning as L
import torch
from trainer import MyCustomTrainer


class MNISTModule(L.LightningModule):
    def configure_optimizers(self):
        optim = torch.optim.Adam(self.parameters(), lr=1e-4)
        return {
            "optimizer": optim,
            "scheduler": torch.optim.lr_scheduler.ReduceLROnPlateau(optim, mode="max"),
            "monitor": "val_accuracy",
            "interval": "epoch",
            "frequency": 1,
        }


def train(model, train_loader, val_loader):
    trainer = MyCustomTrainer(accelerator="auto", devices="auto", max_epochs=3)
    trainer.fit(model, train_loader, val_loader)
""",
]

PF451_BAD = [
    # Lightning issue 20177: the override only re-freezes the backbone
    """
import lightning.pytorch as pl


class FineTuner(pl.LightningModule):
    def on_train_epoch_start(self):
        self.backbone.eval()

    def on_validation_model_train(self):  # warning: PF451
        self.backbone.eval()
""",
    # the eval hook's twin: validation with dropout on (a public SeqModel toggling augmentation);
    # the train hook then changes nothing and is not reported
    """
import lightning.pytorch as pl


class SeqModel(pl.LightningModule):
    def on_validation_model_eval(self):  # warning: PF451
        self.trainer.datamodule.data.augment_off()

    def on_validation_model_train(self):
        self.trainer.datamodule.data.augment_on()
""",
]

PF451_GOOD = [
    # the fix: train mode back first, then the frozen part in eval
    """
import lightning.pytorch as pl


class FineTuner(pl.LightningModule):
    def on_validation_model_train(self):
        self.train()
        self.backbone.eval()
""",
    """
import lightning.pytorch as pl


class FineTuner(pl.LightningModule):
    def on_validation_model_train(self):
        super().on_validation_model_train()
        self.backbone.eval()

    def on_validation_model_eval(self):
        self.trainer.model.eval()
""",
    # an explicitly empty override (Lightning's test_hooks.py): disabling the switch is the point
    """
import lightning.pytorch as pl


class HookedModel(pl.LightningModule):
    # override so that it gets called
    def on_validation_model_train(self): ...
""",
    # a helper of the class switches the mode (EMA weights swapped in for validation)
    """
import lightning.pytorch as pl


class EMAModel(pl.LightningModule):
    def _ema_apply(self):
        self.eval()
        self.ema.store(self.parameters())

    def _ema_restore(self):
        self.ema.restore(self.parameters())
        self.train()

    def on_validation_model_eval(self):
        self._ema_apply()

    def on_validation_model_train(self):
        self._ema_restore()
""",
    # a base class that disables both switches on purpose, with docstrings
    """
import lightning.pytorch as pl


class Base(pl.LightningModule):
    def on_validation_model_eval(self):
        \"\"\"The subclasses manage their modes.\"\"\"
        return None
""",
    # a function of the same name outside a class is not the hook
    """
def on_validation_model_train(self):
    self.backbone.eval()
""",
]

PF452_BAD = [
    # diffusers PR 721 (train_unconditional.py before the fix)
    """
import torch
from accelerate import Accelerator


def main(args):
    accelerator = Accelerator(gradient_accumulation_steps=args.gradient_accumulation_steps,
                              mixed_precision=args.mixed_precision)
    model, optimizer, loader = accelerator.prepare(model, optimizer, loader)
    for batch in loader:
        with accelerator.accumulate(model):
            loss = model(batch).loss
            accelerator.backward(loss)
            accelerator.clip_grad_norm_(model.parameters(), 1.0)  # warning: PF452
            optimizer.step()
            optimizer.zero_grad()
""",
    # GenieRedux PR 2: the clip after each backward of a hand-written accumulation loop
    """
from accelerate import Accelerator


class Trainer:
    def __init__(self, model, optimizer, loader, grad_accum_every=4, max_grad_norm=1.0):
        self.accelerator = Accelerator(mixed_precision="fp16")
        self.model, self.optimizer, self.loader = self.accelerator.prepare(model, optimizer, loader)
        self.grad_accum_every = grad_accum_every
        self.max_grad_norm = max_grad_norm

    def train_step(self, dl_iter):
        for _ in range(self.grad_accum_every):
            loss = self.model(next(dl_iter))
            self.accelerator.backward(loss / self.grad_accum_every)
            self.accelerator.clip_grad_norm_(self.model.parameters(), self.max_grad_norm)  # warning: PF452
        self.optimizer.step()
        self.optimizer.zero_grad()
""",
]

PF452_GOOD = [
    # the fix
    """
import torch
from accelerate import Accelerator


def main(args):
    accelerator = Accelerator(gradient_accumulation_steps=args.gradient_accumulation_steps,
                              mixed_precision=args.mixed_precision)
    model, optimizer, loader = accelerator.prepare(model, optimizer, loader)
    for batch in loader:
        with accelerator.accumulate(model):
            loss = model(batch).loss
            accelerator.backward(loss)
            if accelerator.sync_gradients:
                accelerator.clip_grad_norm_(model.parameters(), 1.0)
            optimizer.step()
            optimizer.zero_grad()
""",
    # a window of 1: every micro-step is a sync step
    """
from accelerate import Accelerator

accelerator = Accelerator(gradient_accumulation_steps=1, mixed_precision="fp16")
for batch in loader:
    with accelerator.accumulate(model):
        accelerator.backward(model(batch).loss)
        accelerator.clip_grad_norm_(model.parameters(), 1.0)
        optimizer.step()
""",
    # the diffusers tutorial's config class: the window is 1
    """
from dataclasses import dataclass

from accelerate import Accelerator


@dataclass
class TrainingConfig:
    gradient_accumulation_steps = 1
    mixed_precision = "fp16"


def train_loop(config, model, optimizer, loader):
    accelerator = Accelerator(mixed_precision=config.mixed_precision,
                              gradient_accumulation_steps=config.gradient_accumulation_steps)
    for batch in loader:
        with accelerator.accumulate(model):
            accelerator.backward(model(batch).loss)
            accelerator.clip_grad_norm_(model.parameters(), 1.0)
            optimizer.step()
            optimizer.zero_grad()


train_loop(TrainingConfig(), model, optimizer, loader)
""",
    # DeepSpeed clips itself; the call only reads the norm
    """
from accelerate import Accelerator, DeepSpeedPlugin

accelerator = Accelerator(gradient_accumulation_steps=8, deepspeed_plugin=DeepSpeedPlugin(zero_stage=2))
for batch in loader:
    with accelerator.accumulate(model):
        accelerator.backward(model(batch).loss)
        accelerator.clip_grad_norm_(model.parameters(), 1.0)
        optimizer.step()
""",
    # the fix: clip once after the micro-batch loop; and a batch loop that steps inside itself
    """
from accelerate import Accelerator


class Trainer:
    def __init__(self, model, optimizer, loader, grad_accum_every=4):
        self.accelerator = Accelerator(mixed_precision="fp16")
        self.model, self.optimizer, self.loader = self.accelerator.prepare(model, optimizer, loader)
        self.grad_accum_every = grad_accum_every

    def train_step(self, dl_iter):
        for _ in range(self.grad_accum_every):
            loss = self.model(next(dl_iter))
            self.accelerator.backward(loss / self.grad_accum_every)
        self.accelerator.clip_grad_norm_(self.model.parameters(), 1.0)
        self.optimizer.step()
        self.optimizer.zero_grad()

    def train_epoch(self):
        for batch in self.loader:
            self.accelerator.backward(self.model(batch))
            self.accelerator.clip_grad_norm_(self.model.parameters(), 1.0)
            self.optimizer.step()
            self.optimizer.zero_grad()
        self.optimizer.step()
""",
]

PF453_BAD = [
    # ms-swift issue 2746: LoRA SFT with checkpointing and the unused-parameter search
    """
from transformers import Trainer, TrainingArguments

args = TrainingArguments(
    output_dir="out",
    bf16=True,
    gradient_checkpointing=True,  # warning: PF453
    ddp_find_unused_parameters=True,
)
Trainer(model=model, args=args, train_dataset=train_dataset).train()
""",
    # a custom loop: the model's own switch and a DDP wrapper
    """
import torch
from torch.nn.parallel import DistributedDataParallel as DDP

model.gradient_checkpointing_enable()  # warning: PF453
model = DDP(model.cuda(), device_ids=[rank], find_unused_parameters=True)
""",
]

PF453_GOOD = [
    # the fix
    """
from transformers import Trainer, TrainingArguments

args = TrainingArguments(
    output_dir="out",
    bf16=True,
    gradient_checkpointing=True,
    gradient_checkpointing_kwargs={"use_reentrant": False},
    ddp_find_unused_parameters=True,
)
Trainer(model=model, args=args, train_dataset=train_dataset).train()
""",
    # no unused-parameter search
    """
from transformers import TrainingArguments

args = TrainingArguments(output_dir="out", gradient_checkpointing=True, ddp_find_unused_parameters=False)
""",
    # static_graph lets DDP handle the reentrant pass
    """
from torch.nn.parallel import DistributedDataParallel as DDP

model.gradient_checkpointing_enable()
model = DDP(model, device_ids=[rank], find_unused_parameters=True, static_graph=True)
""",
]

PF454_BAD = [
    # transformers issue 19599: a collator that tokenizes the raw text column
    """
import torch
from transformers import AutoModelForSequenceClassification, Trainer, TrainingArguments


class TokenizingCollator:
    def __init__(self, tokenizer):
        self.tokenizer = tokenizer

    def __call__(self, examples):
        batch = self.tokenizer([ex["text"] for ex in examples], padding=True, return_tensors="pt")
        batch["labels"] = torch.tensor([ex["label"] for ex in examples])
        return batch


model = AutoModelForSequenceClassification.from_pretrained("roberta-base", num_labels=2)
args = TrainingArguments(output_dir="out", per_device_train_batch_size=16)  # warning: PF454
trainer = Trainer(model=model, args=args, train_dataset=train_dataset,
                  data_collator=TokenizingCollator(tokenizer))
""",
    # a collate function passed by name
    """
from transformers import AutoModelForCausalLM, Trainer, TrainingArguments


def collate(features):
    prompts = [f["prompt"] for f in features]
    return tokenizer(prompts, padding=True, return_tensors="pt")


model = AutoModelForCausalLM.from_pretrained("gpt2")
Trainer(model=model, args=TrainingArguments("out"), data_collator=collate,  # warning: PF454
        train_dataset=ds).train()
""",
]

PF454_GOOD = [
    # the fix
    """
import torch
from transformers import AutoModelForSequenceClassification, Trainer, TrainingArguments


class TokenizingCollator:
    def __init__(self, tokenizer):
        self.tokenizer = tokenizer

    def __call__(self, examples):
        batch = self.tokenizer([ex["text"] for ex in examples], padding=True, return_tensors="pt")
        batch["labels"] = torch.tensor([ex["label"] for ex in examples])
        return batch


model = AutoModelForSequenceClassification.from_pretrained("roberta-base", num_labels=2)
args = TrainingArguments(output_dir="out", per_device_train_batch_size=16, remove_unused_columns=False)
trainer = Trainer(model=model, args=args, train_dataset=train_dataset,
                  data_collator=TokenizingCollator(tokenizer))
""",
    # a collator that pads model inputs only
    """
import torch
from transformers import AutoModelForCausalLM, Trainer, TrainingArguments


def collate(features):
    ids = [torch.tensor(f["input_ids"]) for f in features]
    labels = [torch.tensor(f["labels"]) for f in features]
    return {"input_ids": torch.nn.utils.rnn.pad_sequence(ids, batch_first=True),
            "labels": torch.nn.utils.rnn.pad_sequence(labels, batch_first=True, padding_value=-100)}


model = AutoModelForCausalLM.from_pretrained("gpt2")
Trainer(model=model, args=TrainingArguments("out"), data_collator=collate, train_dataset=ds).train()
""",
    # a custom model whose forward is not known from here
    """
from transformers import Trainer, TrainingArguments


def collate(features):
    return {"text": [f["text"] for f in features]}


Trainer(model=MyModel(), args=TrainingArguments("out"), data_collator=collate, train_dataset=ds).train()
""",
]

PF455_BAD = [
    # transformers issue 31532: evaluation (gather_for_metrics) gated on the main process's bar
    """
import torch
from accelerate import Accelerator
from tqdm.auto import tqdm


def evaluate_model(model, loader, accelerator, metric):
    for batch in loader:
        with torch.no_grad():
            preds = model(**batch).logits.argmax(-1)
        metric.add_batch(*accelerator.gather_for_metrics((preds, batch["labels"])))
    return metric.compute()


accelerator = Accelerator()
progress_bar = tqdm(range(num_steps), disable=not accelerator.is_main_process)
for batch in train_dataloader:
    accelerator.backward(model(**batch).loss)
    optimizer.step()
    optimizer.zero_grad()
    progress_bar.update(1)
    if progress_bar.n % eval_steps == 0:  # error: PF455
        print(evaluate_model(model, eval_dataloader, accelerator, metric))
""",
]

PF455_GOOD = [
    # the fix: a counter every process updates
    """
import torch
from accelerate import Accelerator
from tqdm.auto import tqdm


def evaluate_model(model, loader, accelerator, metric):
    for batch in loader:
        with torch.no_grad():
            preds = model(**batch).logits.argmax(-1)
        metric.add_batch(*accelerator.gather_for_metrics((preds, batch["labels"])))
    return metric.compute()


accelerator = Accelerator()
progress_bar = tqdm(range(num_steps), disable=not accelerator.is_main_process)
completed_steps = 0
for batch in train_dataloader:
    accelerator.backward(model(**batch).loss)
    optimizer.step()
    optimizer.zero_grad()
    progress_bar.update(1)
    completed_steps += 1
    if completed_steps % eval_steps == 0:
        print(evaluate_model(model, eval_dataloader, accelerator, metric))
""",
    # a bar gate around main-process logging only
    """
from accelerate import Accelerator
from tqdm import tqdm

accelerator = Accelerator()
bar = tqdm(total=steps, disable=not accelerator.is_local_main_process)
for batch in loader:
    bar.update(1)
    if bar.n % 100 == 0:
        bar.set_postfix(loss=loss.item())
""",
]

PF456_BAD = [
    # Hydra issue 1715: weight-decay groups passed to instantiate
    """
import hydra


def build_optimizer(optcfg, model):
    decay, no_decay = split_params(model)
    optim_params = [
        {"params": no_decay, "weight_decay": 0.0},
        {"params": decay, "weight_decay": optcfg.weight_decay},
    ]
    return hydra.utils.instantiate(optcfg, params=optim_params)  # error: PF456
""",
]

PF456_GOOD = [
    # the fix
    """
import hydra


def build_optimizer(optcfg, model):
    decay, no_decay = split_params(model)
    optim_params = [
        {"params": no_decay, "weight_decay": 0.0},
        {"params": decay, "weight_decay": optcfg.weight_decay},
    ]
    return hydra.utils.instantiate(optcfg, params=optim_params, _convert_="partial")
""",
    # a plain parameter iterator is no dict
    """
from hydra.utils import instantiate

optimizer = instantiate(cfg.optimizer, params=model.parameters())
""",
    # tricky-correct (lightning-transformers' instantiator): the groups passed positionally are handed
    # to the optimizer untouched; only keyword arguments are merged into the config
    """
import hydra


def build_optimizer(cfg, model):
    no_decay = ["bias", "LayerNorm.weight"]
    grouped_parameters = [
        {"params": [p for n, p in model.named_parameters() if not any(nd in n for nd in no_decay)],
         "weight_decay": cfg.weight_decay},
        {"params": [p for n, p in model.named_parameters() if any(nd in n for nd in no_decay)],
         "weight_decay": 0.0},
    ]
    return hydra.utils.instantiate(cfg, grouped_parameters)
""",
]
