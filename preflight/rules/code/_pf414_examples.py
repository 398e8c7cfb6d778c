"""PF414-PF424 examples: executable documentation. A bad example marks each line it must be
reported on with a trailing ``# error: PFxxx`` / ``# warning: PFxxx`` comment; the meta-test
asserts exactly those findings. Good examples must stay silent."""

from __future__ import annotations

import textwrap

PF414_BAD = [
    """
import torch
from accelerate import Accelerator

accelerator = Accelerator()
model, loader = accelerator.prepare(model, loader)
model.eval()
preds, labels = [], []
for x, y in loader:
    with torch.no_grad():
        p = model(x).argmax(-1)
    preds.append(accelerator.gather(p))  # warning: PF414
    labels.append(accelerator.gather(y))  # warning: PF414
""",
]

PF414_BAD.append(
    # a slice that keeps the first k predictions is not the last-batch truncation
    """
import torch
from accelerate import Accelerator

accelerator = Accelerator()
preds = []
for batch in eval_dataloader:
    with torch.no_grad():
        logits = model(**batch).logits
    preds.append(accelerator.gather(logits.argmax(-1)))  # warning: PF414
preds = torch.cat(preds)
shown = preds[: len(examples_to_show)]
""")

PF414_GOOD = [
    """
import torch
from accelerate import Accelerator

accelerator = Accelerator()
model, loader = accelerator.prepare(model, loader)
for x, y in loader:
    with torch.no_grad():
        p = model(x).argmax(-1)
    p, y = accelerator.gather_for_metrics((p, y))
    metric.add_batch(predictions=p, references=y)
""",
    # the manual truncation of the last batch (the recipe before gather_for_metrics)
    """
from accelerate import Accelerator

accelerator = Accelerator()
samples_seen = 0
for step, batch in enumerate(eval_dataloader):
    preds, refs = accelerator.gather((model(**batch).logits.argmax(-1), batch["labels"]))
    if step == len(eval_dataloader) - 1:
        preds = preds[: len(eval_dataloader.dataset) - samples_seen]
        refs = refs[: len(eval_dataloader.dataset) - samples_seen]
    else:
        samples_seen += refs.shape[0]
    metric.add_batch(predictions=preds, references=refs)
""",
    # the gathered losses truncated to the evaluation set's length after the loop (the
    # run_mlm_no_trainer recipe of transformers 4.9: `losses[: len(eval_dataset)]`)
    """
import math
import torch
from accelerate import Accelerator

accelerator = Accelerator()
model.eval()
losses = []
for step, batch in enumerate(eval_dataloader):
    with torch.no_grad():
        loss = model(**batch).loss
    losses.append(accelerator.gather(loss.repeat(per_device_eval_batch_size)))
losses = torch.cat(losses)
losses = losses[: len(eval_dataset)]
perplexity = math.exp(torch.mean(losses))
""",
    # gather in the training loop (a logged loss), not an evaluation
    """
from accelerate import Accelerator

accelerator = Accelerator()
for batch in loader:
    loss = model(**batch).loss
    accelerator.backward(loss)
    optimizer.step()
    optimizer.zero_grad()
    logged = accelerator.gather(loss.detach()).mean()
""",
]

PF415_BAD = [
    """
import torch
from accelerate import Accelerator

accelerator = Accelerator()
model, optimizer, loader = accelerator.prepare(model, optimizer, loader)
train(model, optimizer, loader)
accelerator.wait_for_everyone()
torch.save(model.state_dict(), "model.pt")  # warning: PF415
model.save_pretrained("out")  # warning: PF415
""",
    # a save helper handed the prepared model (a shape found by searching public training
    # code: `def save_model(save_name, model, accelerator, mode="last")` + `accelerator.save(model.state_dict(), ...)`)
    """
import os
from accelerate import Accelerator


def save_model(save_name, model, accelerator, mode="last"):
    path = os.path.join(os.environ["CHECKPOINT_DIR"], save_name, f"{mode}.pth")
    accelerator.save(model.state_dict(), path)  # warning: PF415


def train(accelerator, model, optimizer, loader):
    model, optimizer, loader = accelerator.prepare(model, optimizer, loader)
    for batch in loader:
        accelerator.backward(model(batch))
        optimizer.step()
        optimizer.zero_grad()
    save_model("run", model, accelerator)
""",
]

PF415_GOOD = [
    """
from accelerate import Accelerator

accelerator = Accelerator()
model, optimizer, loader = accelerator.prepare(model, optimizer, loader)
train(model, optimizer, loader)
unwrapped = accelerator.unwrap_model(model)
unwrapped.save_pretrained("out", state_dict=accelerator.get_state_dict(model))
accelerator.save(unwrapped.state_dict(), "model.pt")
""",
    # FSDP2 keeps the class and every rank's save_pretrained gathers the shards (shape of
    # huggingface/accelerate examples/torch_native_parallelism/nd_parallel.py:94-158 at
    # 16cb6eb80dd9aa8b4df1a63ef57863e455d53b83)
    """
from accelerate import Accelerator
from accelerate.utils import FullyShardedDataParallelPlugin

plugin = FullyShardedDataParallelPlugin(fsdp_version=2, auto_wrap_policy="transformer_based_wrap")
accelerator = Accelerator(mixed_precision="bf16", fsdp_plugin=plugin)
model, optimizer, loader = accelerator.prepare(model, optimizer, loader)
train(model, optimizer, loader)
model.save_pretrained("out/model")
""",
    # the helper is handed the unwrapped model
    """
import os
from accelerate import Accelerator


def save_model(save_name, model, accelerator):
    accelerator.save(model.state_dict(), os.path.join("ckpt", save_name))


def train(accelerator, model, optimizer, loader):
    model, optimizer, loader = accelerator.prepare(model, optimizer, loader)
    for batch in loader:
        accelerator.backward(model(batch))
        optimizer.step()
        optimizer.zero_grad()
    save_model("run", accelerator.unwrap_model(model), accelerator)
""",
    # the name is re-bound to the unwrapped model before it is saved
    """
from accelerate import Accelerator

accelerator = Accelerator()
model, optimizer = accelerator.prepare(model, optimizer)
train(model, optimizer)
model = accelerator.unwrap_model(model)
model.save_pretrained("out")
""",
]

PF416_BAD = [
    """
from accelerate import Accelerator

accelerator = Accelerator(mixed_precision="bf16")  # warning: PF416
model, optimizer, loader = accelerator.prepare(model, optimizer, loader)
total_batch_size = args.train_batch_size * accelerator.num_processes * args.gradient_accumulation_steps
for batch in loader:
    with accelerator.accumulate(model):
        accelerator.backward(model(**batch).loss)
        optimizer.step()
        optimizer.zero_grad()
""",
    # e2-tts-pytorch PR 24: the trainer's window parameter never reaches the Accelerator, which
    # receives only the splatted accelerate_kwargs
    """
from accelerate import Accelerator


class Trainer:
    def __init__(self, model, optimizer, grad_accumulation_steps=1, accelerate_kwargs: dict = dict()):
        self.accelerator = Accelerator(log_with="tensorboard", **accelerate_kwargs)  # warning: PF416
        self.grad_accumulation_steps = grad_accumulation_steps
        self.model, self.optimizer = self.accelerator.prepare(model, optimizer)

    def train(self, loader):
        for batch in loader:
            with self.accelerator.accumulate(self.model):
                self.accelerator.backward(self.model(batch))
                self.optimizer.step()
                self.optimizer.zero_grad()
""",
]

PF416_GOOD = [
    """
from accelerate import Accelerator

accelerator = Accelerator(gradient_accumulation_steps=args.gradient_accumulation_steps)
model, optimizer, loader = accelerator.prepare(model, optimizer, loader)
for batch in loader:
    with accelerator.accumulate(model):
        accelerator.backward(model(**batch).loss)
        optimizer.step()
        optimizer.zero_grad()
""",
    # the Accelerator comes from elsewhere: `accelerate launch --gradient_accumulation_steps` may set it
    """
def train(accelerator, model, optimizer, loader):
    for batch in loader:
        with accelerator.accumulate(model):
            accelerator.backward(model(**batch).loss)
            optimizer.step()
            optimizer.zero_grad()
""",
    """
from accelerate import Accelerator

accelerator = Accelerator(**accelerator_kwargs)
with accelerator.accumulate(model):
    accelerator.backward(loss)
""",
    # the fix of the splatted shape: the window parameter is passed beside the kwargs
    """
from accelerate import Accelerator


class Trainer:
    def __init__(self, model, optimizer, grad_accumulation_steps=1, accelerate_kwargs: dict = dict()):
        self.accelerator = Accelerator(gradient_accumulation_steps=grad_accumulation_steps, **accelerate_kwargs)
        self.model, self.optimizer = self.accelerator.prepare(model, optimizer)

    def train(self, loader):
        for batch in loader:
            with self.accelerator.accumulate(self.model):
                self.accelerator.backward(self.model(batch))
                self.optimizer.step()
                self.optimizer.zero_grad()
""",
]

PF417_BAD = [
    """
import lightning as L


class GAN(L.LightningModule):
    def __init__(self):
        super().__init__()
        self.automatic_optimization = False

    def training_step(self, batch, batch_idx):
        opt = self.optimizers()
        loss = self.compute(batch)
        opt.zero_grad()
        loss.backward()  # error: PF417
        opt.step()
""",
]

PF417_GOOD = [
    """
import lightning as L


class GAN(L.LightningModule):
    def __init__(self):
        super().__init__()
        self.automatic_optimization = False

    def training_step(self, batch, batch_idx):
        opt = self.optimizers()
        loss = self.compute(batch)
        opt.zero_grad()
        self.manual_backward(loss)
        opt.step()
""",
    # automatic optimization: Lightning runs backward itself; a backward elsewhere is not this rule's
    """
import lightning as L


class Net(L.LightningModule):
    def training_step(self, batch, batch_idx):
        return self.compute(batch)


def probe(model, x):
    model(x).sum().backward()
""",
]

PF418_BAD = [
    """
import torch
import lightning as L


class Net(L.LightningModule):
    def __init__(self):
        super().__init__()
        self.validation_step_outputs = []

    def validation_step(self, batch, batch_idx):
        loss = self.loss(batch)
        self.validation_step_outputs.append(loss)  # warning: PF418
        return loss

    def on_validation_epoch_end(self):
        self.log("val_loss", torch.stack(self.validation_step_outputs).mean())
""",
    # Lightning issue 15514 (1.x): the batch input is returned and kept for training_epoch_end
    """
import pytorch_lightning as pl
import torch


class BigInput(pl.LightningModule):
    def training_step(self, batch, batch_idx):
        x, y = batch
        loss = torch.nn.functional.cross_entropy(self(x), y)
        return {"loss": loss, "x": x}  # warning: PF418

    def training_epoch_end(self, outputs):
        self.log("epoch_loss", torch.stack([o["loss"] for o in outputs]).mean())
""",
    # Quicksetup-ai PR 26 (the lightning-hydra-template shape): preds and targets returned beside the
    # loss while training_epoch_end only resets a metric; Lightning 1.x keeps them for the epoch
    textwrap.dedent("""\
        import pytorch_lightning as pl
        import torch


        class LitModule(pl.LightningModule):
            def step(self, batch):
                x, y = batch
                logits = self.net(x)
                return self.criterion(logits, y), torch.argmax(logits, dim=1), y

            def training_step(self, batch, batch_idx):
                loss, preds, targets = self.step(batch)
                self.log("train/acc", self.train_acc(preds, targets), on_epoch=True)
                return {"loss": loss, "preds": preds, "targets": targets}  # warning: PF418

            def training_epoch_end(self, outputs):
                self.train_acc.reset()
        """),
    # Lightning issue 8453: the forward output returned from validation_step, the hook reads "x" only
    textwrap.dedent("""\
        import pytorch_lightning as pl
        import torch


        class Boring(pl.LightningModule):
            def validation_step(self, batch, batch_idx):
                output = self.layer(batch)
                loss = self.loss(batch, output)
                return {"x": loss, "output": output}  # warning: PF418

            def validation_epoch_end(self, outputs):
                self.log("val_loss", torch.stack([o["x"] for o in outputs]).mean())
        """),
    # the same test-time list, but the test loop runs once per checkpoint: each run's epoch-end
    # hook reads every earlier run's predictions too
    """
import pytorch_lightning as pl
import torch


class Tagger(pl.LightningModule):
    def __init__(self):
        super().__init__()
        self.predictions = []

    def test_step(self, batch, batch_idx):
        self.predictions.append(self(batch).argmax(-1).cpu())  # warning: PF418

    def on_test_epoch_end(self):
        self.log("n_pred", float(torch.cat(self.predictions).numel()))


def evaluate_all(dm, checkpoints):
    trainer = pl.Trainer()
    for path in checkpoints:
        trainer.test(Tagger.load_from_checkpoint(path), datamodule=dm)
""",
]

PF418_GOOD = [
    # tricky: predictions kept by test_step for one `trainer.test` after fit: the test loop runs one
    # epoch per call, so the list holds exactly that epoch (held-out-14's Hydra program)
    """
import pytorch_lightning as pl
import torch


class Tagger(pl.LightningModule):
    def __init__(self):
        super().__init__()
        self.predictions = []

    def training_step(self, batch, batch_idx):
        return self.encoder(**batch).loss

    def test_step(self, batch, batch_idx):
        self.predictions.append(self.encoder(**batch).logits.argmax(-1).cpu())

    def on_test_epoch_end(self):
        torch.save(torch.cat(self.predictions), "predictions.pt")


def main(dm):
    model = Tagger()
    trainer = pl.Trainer(max_epochs=10)
    trainer.fit(model, datamodule=dm)
    trainer.test(model, datamodule=dm)
""",
    """
import torch
import lightning as L


class Net(L.LightningModule):
    def __init__(self):
        super().__init__()
        self.validation_step_outputs = []

    def validation_step(self, batch, batch_idx):
        loss = self.loss(batch)
        self.validation_step_outputs.append(loss)
        return loss

    def on_validation_epoch_end(self):
        self.log("val_loss", torch.stack(self.validation_step_outputs).mean())
        self.validation_step_outputs.clear()
""",
    # re-assigned at the start of each epoch
    """
import lightning as L


class Net(L.LightningModule):
    def on_train_epoch_start(self):
        self.losses = []

    def training_step(self, batch, batch_idx):
        loss = self.loss(batch)
        self.losses.append(loss.detach())
        return loss
""",
    # 1.x: the hook reads what the step returns; a step without an epoch-end hook may return its input
    """
import pytorch_lightning as pl
import torch


class Kept(pl.LightningModule):
    def validation_step(self, batch, batch_idx):
        x, y = batch
        return {"preds": self(x).argmax(1), "y": y}

    def validation_epoch_end(self, outputs):
        preds = torch.cat([o["preds"] for o in outputs])
        self.log("acc", (preds == torch.cat([o["y"] for o in outputs])).float().mean())

    def training_step(self, batch, batch_idx):
        x, y = batch
        return {"loss": torch.nn.functional.cross_entropy(self(x), y), "x": x}
""",
    # tricky: the hook reads every returned key (an epoch-level metric over all predictions)
    textwrap.dedent("""\
        import pytorch_lightning as pl
        import torch


        class LitModule(pl.LightningModule):
            def training_step(self, batch, batch_idx):
                x, y = batch
                logits = self.net(x)
                preds = torch.argmax(logits, dim=1)
                return {"loss": self.criterion(logits, y), "preds": preds, "targets": y}

            def training_epoch_end(self, outputs):
                preds = torch.cat([o["preds"] for o in outputs])
                targets = torch.cat([o["targets"] for o in outputs])
                self.log("train/epoch_acc", (preds == targets).float().mean())
        """),
    # tricky: the hook hands the outputs to a helper that may read any key
    textwrap.dedent("""\
        import pytorch_lightning as pl


        class Segmenter(pl.LightningModule):
            def validation_step(self, batch, batch_idx):
                masks = self.net(batch["image"])
                return {"masks": masks}

            def validation_epoch_end(self, outputs):
                self.save_examples(outputs)
        """),
    # the fix of the Quicksetup-ai shape: only the loss (and a CPU copy of a metric) is returned
    textwrap.dedent("""\
        import pytorch_lightning as pl
        import torch


        class LitModule(pl.LightningModule):
            def training_step(self, batch, batch_idx):
                x, y = batch
                logits = self.net(x)
                loss = self.criterion(logits, y)
                acc = (torch.argmax(logits, dim=1) == y).float().mean().item()
                return {"loss": loss, "acc": acc}

            def training_epoch_end(self, outputs):
                self.train_acc.reset()
        """),
]

PF419_BAD = [
    """
import torch
import lightning as L


class Net(L.LightningModule):
    def configure_optimizers(self):
        opt = torch.optim.AdamW(self.parameters(), lr=1e-3)
        sched = torch.optim.lr_scheduler.OneCycleLR(
            opt, max_lr=1e-3, total_steps=self.trainer.estimated_stepping_batches)
        return [opt], [sched]  # warning: PF419
""",
    # "interval" beside "optimizer": Lightning ignores it there
    """
import torch
import lightning as L


class Net(L.LightningModule):
    def configure_optimizers(self):
        opt = torch.optim.SGD(self.parameters(), lr=0.1)
        sched = torch.optim.lr_scheduler.OneCycleLR(opt, 0.1, total_steps=10000)
        return {"optimizer": opt, "lr_scheduler": sched, "interval": "step"}  # warning: PF419
""",
    # a LambdaLR whose lambda counts optimizer steps (ACE-Step PR 198), returned as lists
    """
import torch
import lightning as L
from torch.optim.lr_scheduler import LambdaLR


class Net(L.LightningModule):
    def configure_optimizers(self):
        opt = torch.optim.AdamW(self.parameters(), lr=1e-4)
        warmup_steps, max_steps = self.hparams.warmup_steps, self.hparams.max_steps

        def lr_lambda(current_step):
            if current_step < warmup_steps:
                return current_step / max(1, warmup_steps)
            return max(0.0, 1.0 - (current_step - warmup_steps) / max(1, max_steps - warmup_steps))

        sched = LambdaLR(opt, lr_lambda)
        return [opt], [sched]  # warning: PF419
""",
    # the dict(...) call form without an interval
    """
import torch
import lightning as L


class Net(L.LightningModule):
    def configure_optimizers(self):
        opt = torch.optim.AdamW(self.parameters(), lr=1e-4)
        sched = torch.optim.lr_scheduler.LambdaLR(opt, lambda s: min(1.0, (s + 1) / self.hparams.warmup_steps))
        return dict(optimizer=opt, lr_scheduler=dict(scheduler=sched, frequency=1))  # warning: PF419
""",
]

PF419_GOOD = [
    # the dict(...) call form with interval="step" (Lightning issue 18570's module)
    """
import torch
import lightning as L
from transformers import get_linear_schedule_with_warmup


class Net(L.LightningModule):
    def configure_optimizers(self):
        opt = torch.optim.AdamW(self.parameters(), lr=2e-5)
        sched = get_linear_schedule_with_warmup(opt, num_warmup_steps=100,
                                                num_training_steps=self.trainer.estimated_stepping_batches)
        return dict(optimizer=opt, lr_scheduler=dict(scheduler=sched, interval="step", frequency=1))
""",
    # a step-counted LambdaLR with interval "step" in a list of dicts
    """
import torch
import lightning as L
from torch.optim.lr_scheduler import LambdaLR


class Net(L.LightningModule):
    def configure_optimizers(self):
        opt = torch.optim.AdamW(self.parameters(), lr=1e-4)

        def lr_lambda(current_step):
            return min(1.0, current_step / 4000)

        return [opt], [{"scheduler": LambdaLR(opt, lr_lambda), "interval": "step", "frequency": 1}]
""",
    # tricky: a LambdaLR warmup counted in epochs, stepped per epoch as Lightning does by default
    """
import torch
import lightning as L
from torch.optim.lr_scheduler import LambdaLR


class Net(L.LightningModule):
    def configure_optimizers(self):
        opt = torch.optim.SGD(self.parameters(), lr=0.1)
        warmup_epochs = 5
        sched = LambdaLR(opt, lambda e: min(1.0, (e + 1) / warmup_epochs) * 0.95 ** max(0, e - warmup_epochs))
        return [opt], [sched]
""",
    # tricky: the classic epoch decay
    """
import torch
import lightning as L


class Net(L.LightningModule):
    def configure_optimizers(self):
        opt = torch.optim.SGD(self.parameters(), lr=0.1)
        return [opt], [torch.optim.lr_scheduler.LambdaLR(opt, lr_lambda=lambda epoch: 0.95 ** epoch)]
""",
    """
import torch
import lightning as L


class Net(L.LightningModule):
    def configure_optimizers(self):
        opt = torch.optim.AdamW(self.parameters(), lr=1e-3)
        sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=1e-3, total_steps=self.trainer.estimated_stepping_batches)
        return {"optimizer": opt, "lr_scheduler": {"scheduler": sched, "interval": "step"}}
""",
    # an epoch schedule needs no interval
    """
import torch
import lightning as L


class Net(L.LightningModule):
    def configure_optimizers(self):
        opt = torch.optim.SGD(self.parameters(), lr=0.1)
        return [opt], [torch.optim.lr_scheduler.StepLR(opt, step_size=30)]
""",
    # the module steps the schedule itself
    """
import torch
import lightning as L
from transformers import get_linear_schedule_with_warmup


class Net(L.LightningModule):
    def training_step(self, batch, batch_idx):
        loss = self.loss(batch)
        self.lr_schedulers().step()
        return loss

    def configure_optimizers(self):
        opt = torch.optim.AdamW(self.parameters())
        return [opt], [get_linear_schedule_with_warmup(opt, 100, 10000)]
""",
]

PF420_BAD = [
    """
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
""",
]

PF420_BAD += [
    # transformers issue 23170: enabled on the PEFT model, then trained by the Trainer (transformers 4.x)
    """
from peft import LoraConfig, get_peft_model
from transformers import AutoModelForCausalLM, Trainer, TrainingArguments

model = get_peft_model(AutoModelForCausalLM.from_pretrained("gpt2"), LoraConfig(r=8))
model.gradient_checkpointing_enable()  # warning: PF420
Trainer(model=model, args=TrainingArguments("out"), train_dataset=ds).train()
""",
]

PF420_GOOD = [
    """
import torch
from peft import LoraConfig, get_peft_model
from transformers import AutoModelForCausalLM

model = AutoModelForCausalLM.from_pretrained("gpt2")
model = get_peft_model(model, LoraConfig(r=8, task_type="CAUSAL_LM"))
model.gradient_checkpointing_enable()
model.enable_input_require_grads()
opt = torch.optim.AdamW(model.parameters(), lr=1e-4)
""",
    """
from peft import LoraConfig, get_peft_model
from transformers import AutoModelForCausalLM

model = get_peft_model(AutoModelForCausalLM.from_pretrained("gpt2"), LoraConfig(r=8))
model.gradient_checkpointing_enable(gradient_checkpointing_kwargs={"use_reentrant": False})
""",
    # the Trainer path with the input grads enabled
    """
from peft import LoraConfig, get_peft_model
from transformers import AutoModelForCausalLM, Trainer, TrainingArguments

model = get_peft_model(AutoModelForCausalLM.from_pretrained("gpt2"), LoraConfig(r=8))
model.enable_input_require_grads()
Trainer(model=model, args=TrainingArguments("out", gradient_checkpointing=True), train_dataset=ds).train()
""",
    # tricky: the Trainer switches checkpointing on (transformers 5 enables the input grads itself)
    """
from peft import LoraConfig, get_peft_model
from transformers import AutoModelForCausalLM, Trainer, TrainingArguments

model = get_peft_model(AutoModelForCausalLM.from_pretrained("gpt2"), LoraConfig(r=8))
args = TrainingArguments("out", gradient_checkpointing=True)
Trainer(model=model, args=args, train_dataset=ds).train()
""",
    # tricky: non-reentrant checkpointing through the Trainer's arguments
    """
from peft import LoraConfig, get_peft_model
from transformers import AutoModelForCausalLM, Trainer, TrainingArguments

model = get_peft_model(AutoModelForCausalLM.from_pretrained("gpt2"), LoraConfig(r=8))
args = TrainingArguments("out", gradient_checkpointing=True, gradient_checkpointing_kwargs={"use_reentrant": False})
Trainer(model=model, args=args, train_dataset=ds).train()
""",
    # tricky: trl's SFTTrainer enables the input grads of a PEFT model itself
    """
from peft import LoraConfig, get_peft_model
from transformers import AutoModelForCausalLM
from trl import SFTConfig, SFTTrainer

model = get_peft_model(AutoModelForCausalLM.from_pretrained("gpt2"), LoraConfig(r=8))
model.gradient_checkpointing_enable()
SFTTrainer(model=model, args=SFTConfig("out"), train_dataset=ds).train()
""",
    # tricky: the embeddings are trained (modules_to_save), their output requires grad
    """
from peft import LoraConfig, get_peft_model
from transformers import AutoModelForCausalLM, Trainer, TrainingArguments

config = LoraConfig(r=8, modules_to_save=["embed_tokens", "lm_head"])
model = get_peft_model(AutoModelForCausalLM.from_pretrained("gpt2"), config)
model.gradient_checkpointing_enable()
Trainer(model=model, args=TrainingArguments("out"), train_dataset=ds).train()
""",
    # checkpointing only on the path without LoRA (shape of huggingface/peft
    # examples/lora_dreambooth/train_dreambooth.py:719-758 at 5d602fdbff04c33c1c4de55cda9d4ae1d7cb7e40)
    """
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
""",
    # the same with `adapter != "full"` / `adapter == "full"` (shape of huggingface/peft
    # examples/stable_diffusion/train_dreambooth.py:902-920 at 5d602fdbff04c33c1c4de55cda9d4ae1d7cb7e40)
    """
from peft import LoraConfig, get_peft_model
from transformers import CLIPTextModel

text_encoder = CLIPTextModel.from_pretrained(args.model, subfolder="text_encoder")
if args.train_text_encoder and args.adapter != "full":
    text_encoder = get_peft_model(text_encoder, LoraConfig(r=8, target_modules=["q_proj", "v_proj"]))
if args.gradient_checkpointing:
    if args.train_text_encoder and args.adapter == "full":
        text_encoder.gradient_checkpointing_enable()
""",
    # checkpointing on the base model of another test, before this test wraps its own
    # (shape of huggingface/peft tests/test_cartridge.py:249 at 5d602fdbff04c33c1c4de55cda9d4ae1d7cb7e40)
    """
from peft import LoraConfig, get_peft_model


def test_wrap(base):
    model = get_peft_model(base, LoraConfig(r=8))
    model.enable_adapters()


def test_checkpointing(base):
    base.gradient_checkpointing_enable()
    model = get_peft_model(base, LoraConfig(r=8))
""",
    # PEFT's own preparation makes the embeddings' output require grad (shape of
    # huggingface/peft tests/test_lora_variants.py:431 at 5d602fdbff04c33c1c4de55cda9d4ae1d7cb7e40)
    """
from peft import LoraConfig, get_peft_model
from transformers import AutoModelForCausalLM

lora_model = get_peft_model(AutoModelForCausalLM.from_pretrained("gpt2"), LoraConfig(r=8))
lora_model.prepare_model_for_gradient_checkpointing(lora_model)
lora_model.gradient_checkpointing_enable()
""",
]




PF423_BAD = [
    # flan-alpaca issue 19: the model name is the default of the module's __init__ parameter
    textwrap.dedent("""\
        import pytorch_lightning as pl
        import torch
        from transformers import AutoModelForSeq2SeqLM


        class LightningModel(pl.LightningModule):
            def __init__(self, model_name_or_path="google/flan-t5-xl", learning_rate=5e-4):
                super().__init__()
                self.model = AutoModelForSeq2SeqLM.from_pretrained(model_name_or_path)

            def training_step(self, batch, batch_idx):
                return self.model(**batch).loss

            def configure_optimizers(self):
                return torch.optim.AdamW(self.parameters(), lr=5e-4)


        def main(train_loader):
            trainer = pl.Trainer(accelerator="gpu", devices=1, precision="16-mixed")  # warning: PF423
            trainer.fit(LightningModel(), train_loader)
        """),
    """
from transformers import AutoModelForSeq2SeqLM, Seq2SeqTrainingArguments

model = AutoModelForSeq2SeqLM.from_pretrained("google/flan-t5-large")
args = Seq2SeqTrainingArguments(output_dir="out", fp16=True)  # warning: PF423
""",
    """
import lightning as L
from transformers import T5ForConditionalGeneration

model = T5ForConditionalGeneration.from_pretrained("t5-large")
trainer = L.Trainer(precision="16-mixed")  # warning: PF423
""",
    # a T5 derivative's continued pretraining: the checkpoint comes as a parameter, the class names the family
    """
import pytorch_lightning as pl
from transformers import T5ForConditionalGeneration


class T5Pretrain(pl.LightningModule):
    def __init__(self, model_path):
        super().__init__()
        self.model = T5ForConditionalGeneration.from_pretrained(model_path)

    def training_step(self, batch, batch_idx):
        return self.model(input_ids=batch["input_ids"], labels=batch["labels"]).loss


def main(loader, model_path):
    trainer = pl.Trainer(precision=16, max_epochs=1)  # warning: PF423
    trainer.fit(T5Pretrain(model_path), loader)
""",
]

PF423_GOOD = [
    # tricky: the caller passes another model than the T5 default
    textwrap.dedent("""\
        import pytorch_lightning as pl
        from transformers import AutoModelForSeq2SeqLM


        class LightningModel(pl.LightningModule):
            def __init__(self, model_name_or_path="google/flan-t5-xl"):
                super().__init__()
                self.model = AutoModelForSeq2SeqLM.from_pretrained(model_name_or_path)

            def training_step(self, batch, batch_idx):
                return self.model(**batch).loss


        def main(train_loader):
            trainer = pl.Trainer(accelerator="gpu", devices=1, precision="16-mixed")
            trainer.fit(LightningModel("facebook/bart-large"), train_loader)
        """),
    # tricky: the default is never used in view (the class is built elsewhere, e.g. by a CLI)
    textwrap.dedent("""\
        import pytorch_lightning as pl
        from transformers import AutoModelForSeq2SeqLM


        class LightningModel(pl.LightningModule):
            def __init__(self, model_name_or_path="google/flan-t5-xl"):
                super().__init__()
                self.model = AutoModelForSeq2SeqLM.from_pretrained(model_name_or_path)

            def training_step(self, batch, batch_idx):
                return self.model(**batch).loss


        trainer = pl.Trainer(accelerator="gpu", devices=1, precision="16-mixed")
        """),
    """
from transformers import AutoModelForSeq2SeqLM, Seq2SeqTrainingArguments

model = AutoModelForSeq2SeqLM.from_pretrained("google/flan-t5-large")
args = Seq2SeqTrainingArguments(output_dir="out", bf16=True)
""",
    # another family in fp16
    """
from transformers import AutoModelForSequenceClassification, TrainingArguments

model = AutoModelForSequenceClassification.from_pretrained("bert-base-uncased")
args = TrainingArguments(output_dir="out", fp16=True)
""",
    # tricky-correct: a T5 class loaded from a path, trained in bf16; and a BART (pretrained in fp32) in fp16
    """
import pytorch_lightning as pl
from transformers import BartForConditionalGeneration, T5ForConditionalGeneration


def build(model_path, summarizer_path):
    t5 = T5ForConditionalGeneration.from_pretrained(model_path)
    trainer = pl.Trainer(precision="bf16-mixed")
    return t5, trainer, BartForConditionalGeneration.from_pretrained(summarizer_path)
""",
    """
from transformers import BartForConditionalGeneration, Seq2SeqTrainingArguments


def build(path):
    model = BartForConditionalGeneration.from_pretrained(path)
    return model, Seq2SeqTrainingArguments(output_dir="out", fp16=True)
""",
]

PF424_BAD = [
    """
import deepspeed

engine, optimizer, loader, _ = deepspeed.initialize(model=model, model_parameters=model.parameters(), training_data=ds)
for batch in loader:
    loss = engine(batch)
    loss.backward()  # error: PF424
    engine.step()
""",
    # the training function sits above main() and is handed the engine (the usual layout of a
    # script; a shape the rule missed when probed while hunting, not a real repository's code)
    """
import deepspeed


def train(engine, optimizer, loader):
    for batch in loader:
        loss = engine(**batch).loss
        loss.backward()  # error: PF424
        optimizer.step()
        optimizer.zero_grad()


def main():
    engine, optimizer, _, _ = deepspeed.initialize(args=args, model=model, model_parameters=model.parameters())
    train(engine, optimizer, loader)
""",
    # two engines handed to an update function under their own names, trained with loss.backward()
    """
import deepspeed
import torch


def build_engine(model, ds_config):
    engine, *_ = deepspeed.initialize(model=model, model_parameters=model.parameters(), config=ds_config)
    return engine


def ppo_update(policy_engine, value_engine, minibatches):
    for mb in minibatches:
        ratio = torch.exp(policy_engine(mb["ids"]).logprobs - mb["old_logprobs"])
        (-mb["advantages"] * ratio).mean().backward()  # error: PF424
        policy_engine.step()
        vf_loss = ((value_engine(mb["ids"]).values - mb["returns"]) ** 2).mean()
        vf_loss.backward()
        value_engine.step()
""",
]

PF424_GOOD = [
    """
import deepspeed

engine, optimizer, loader, _ = deepspeed.initialize(model=model, model_parameters=model.parameters(), training_data=ds)
for batch in loader:
    loss = engine(batch)
    engine.backward(loss)
    engine.step()
""",
    # no DeepSpeed engine in this file
    """
import torch

for x, y in loader:
    optimizer.zero_grad()
    torch.nn.functional.mse_loss(model(x), y).backward()
    optimizer.step()
""",
    # one layer trained by hand with its own optimizer after initialize (layer-wise
    # distillation; shape of microsoft/DeepSpeedExamples compression/bert/run_glue_lkd.py:473-527
    # at 83757d9c937daabd1089a08051061706cb73900d)
    """
import deepspeed
import torch
from torch.optim import AdamW

model, optimizer, _, lr_scheduler = deepspeed.initialize(args=args, model=model, optimizer=optimizer)
for layer in model.module.bert.encoder.layer:
    optimizer = AdamW(layer.parameters(), lr=5e-6)
    for batch in loader:
        with torch.no_grad():
            teacher_out = teacher(**batch, output_hidden_states=True)
        loss = torch.nn.functional.mse_loss(layer(teacher_out.hidden_states[0])[0], teacher_out.hidden_states[1])
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
""",
    # tricky-correct (open-instruct issue 495): the engines come in as `policy_engine` and
    # `value_engine`, are called as modules, and backward(loss)/step() run on every micro-batch;
    # the engine counts the accumulation window and only updates at its boundary
    """
import deepspeed
import torch


def build_engine(model, ds_config):
    engine, *_ = deepspeed.initialize(model=model, model_parameters=model.parameters(), config=ds_config)
    return engine


def ppo_update(policy_engine, value_engine, minibatches):
    for mb in minibatches:
        ratio = torch.exp(policy_engine(mb["ids"]).logprobs - mb["old_logprobs"])
        policy_engine.backward((-mb["advantages"] * ratio).mean())
        policy_engine.step()
        vf_loss = ((value_engine(mb["ids"]).values - mb["returns"]) ** 2).mean()
        value_engine.backward(vf_loss)
        value_engine.step()
""",
]

PF425_BAD = [
    """
import torch

scaler = torch.cuda.amp.GradScaler()
for x, y in loader:
    with torch.autocast("cuda", dtype=torch.float16):
        loss = model(x, y)
    scaler.scale(loss).backward()
    scaler.unscale_(opt.optimizer)
    torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
    scaler.step(opt)  # error: PF425
    scaler.update()
    opt.zero_grad()
""",
    """
from accelerate import Accelerator

accelerator = Accelerator(mixed_precision="fp16")
for batch in loader:
    accelerator.backward(model(**batch).loss)
    accelerator.unscale_gradients()
    accelerator.clip_grad_norm_(model.parameters(), 1.0)  # error: PF425
    optimizer.step()
    optimizer.zero_grad()
""",
    # the Accelerator's own scaler unscaled by hand, then Accelerate's clip unscales again
    # (a shape the rule missed when probed while hunting)
    """
from accelerate import Accelerator

accelerator = Accelerator(mixed_precision="fp16")
model, optimizer, loader = accelerator.prepare(model, optimizer, loader)
for batch in loader:
    accelerator.backward(model(**batch).loss)
    accelerator.scaler.unscale_(optimizer)
    accelerator.clip_grad_norm_(model.parameters(), 1.0)  # error: PF425
    optimizer.step()
    optimizer.zero_grad()
""",
]

PF425_GOOD = [
    """
import torch

scaler = torch.cuda.amp.GradScaler()
for x, y in loader:
    with torch.autocast("cuda", dtype=torch.float16):
        loss = model(x, y)
    scaler.scale(loss).backward()
    scaler.unscale_(opt.optimizer)
    torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
    scaler.step(opt.optimizer)
    scaler.update()
    opt.zero_grad()
""",
    """
from accelerate import Accelerator

accelerator = Accelerator(mixed_precision="fp16")
for batch in loader:
    accelerator.backward(model(**batch).loss)
    accelerator.clip_grad_norm_(model.parameters(), 1.0)
    optimizer.step()
    optimizer.zero_grad()
""",
]

PF426_BAD = [
    """
import deepspeed
import torch

engine, optimizer, loader, _ = deepspeed.initialize(model=model, model_parameters=model.parameters(), training_data=ds)
for batch in loader:
    engine.backward(engine(batch))
    torch.nn.utils.clip_grad_norm_(engine.parameters(), 1.0)  # warning: PF426
    engine.step()
""",
    # a per-step method that a harness calls (no loop in the file), with the bare import
    """
import deepspeed
from torch.nn.utils import clip_grad_norm_


class Runner:
    def setup(self):
        self.model, self.optimizer, _, _ = deepspeed.initialize(args=self.args, model=self.net,
                                                                model_parameters=self.net.parameters())

    def train_step(self, batch):
        loss = self.model(batch)
        self.model.backward(loss)
        clip_grad_norm_(self.model.parameters(), self.args.max_norm)  # warning: PF426
        self.model.step()
""",
]

PF426_GOOD = [
    """
import deepspeed

engine, optimizer, loader, _ = deepspeed.initialize(model=model, model_parameters=model.parameters(), training_data=ds)
for batch in loader:
    engine.backward(engine(batch))
    engine.step()
""",
    # no DeepSpeed engine: clipping by hand is how it is done
    """
import torch

for x, y in loader:
    optimizer.zero_grad()
    model(x, y).backward()
    torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
    optimizer.step()
""",
]
