"""det87: Lightning, Accelerate and DeepSpeed misses of held-out-34/35 (issue 18), in-sample now. Each test runs
preflight the way a user does (``audit`` with the job's config) on a small project rebuilt from a case and
asserts the code and line a user sees; each silent twin is the case's fix or a tricky-correct neighbour."""

from __future__ import annotations

import json


def _audit(cli, tmp_path, files: dict[str, str], script: str, config: str, code: str) -> list[tuple[str, str, int]]:
    for name, text in files.items():
        (tmp_path / name).write_text(text)
    result = cli("audit", script, "--config", config, "--no-cache", "--format", "json", "--select", code,
                 cwd=tmp_path)
    return sorted((f["code"], f["path"], f["line"]) for f in json.loads(result.out)["findings"])


# -- PF505: accelerator.get_state_dict under ZeRO-3 without the 16-bit save flag (accelerate issue 883) ------

_NO_TRAINER = """from accelerate import Accelerator


def main(args, model, optimizer, loader):
    accelerator = Accelerator()
    model, optimizer, loader = accelerator.prepare(model, optimizer, loader)
    for batch in loader:
        accelerator.backward(model(**batch).loss)
        optimizer.step()
        optimizer.zero_grad()
    accelerator.wait_for_everyone()
    unwrapped = accelerator.unwrap_model(model)
    unwrapped.save_pretrained(args.output_dir, is_main_process=accelerator.is_main_process,
                              save_function=accelerator.save, state_dict=accelerator.get_state_dict(model))
"""

_ZERO3_YAML = """compute_environment: LOCAL_MACHINE
deepspeed_config:
  offload_optimizer_device: cpu
{flag}  zero_stage: 3
distributed_type: DEEPSPEED
num_processes: 4
"""


def _zero3(cli, tmp_path, flag: str) -> list[tuple[str, str, int]]:
    files = {"train.py": _NO_TRAINER, "default_config.yaml": _ZERO3_YAML.format(flag=flag)}
    return _audit(cli, tmp_path, files, "train.py", "default_config.yaml", "PF505")


def test_pf505_get_state_dict_with_the_save_flag_false_raises_at_the_final_save(cli, tmp_path) -> None:
    assert _zero3(cli, tmp_path, "  zero3_save_16bit_model: false\n") == [("PF505", "default_config.yaml", 4)]


def test_pf505_get_state_dict_with_the_save_flag_unset_is_reported_on_the_stage(cli, tmp_path) -> None:
    # accelerate's DeepSpeedPlugin defaults zero3_save_16bit_model to false
    assert _zero3(cli, tmp_path, "") == [("PF505", "default_config.yaml", 4)]


def test_pf505_silent_with_the_save_flag_true(cli, tmp_path) -> None:
    assert _zero3(cli, tmp_path, "  zero3_save_16bit_model: true\n") == []


def test_pf505_silent_when_the_gather_sits_in_a_try_with_a_fallback(cli, tmp_path) -> None:
    fallback = _NO_TRAINER.replace(
        "    unwrapped.save_pretrained(args.output_dir, is_main_process=accelerator.is_main_process,\n"
        "                              save_function=accelerator.save, state_dict=accelerator.get_state_dict(model))\n",
        "    try:\n"
        "        state_dict = accelerator.get_state_dict(model)\n"
        "    except ValueError:\n"
        "        model.save_checkpoint(args.output_dir)\n"
        "    else:\n"
        "        unwrapped.save_pretrained(args.output_dir, state_dict=state_dict)\n")
    assert fallback != _NO_TRAINER
    files = {"train.py": fallback, "default_config.yaml": _ZERO3_YAML.format(flag="  zero3_save_16bit_model: false\n")}
    assert _audit(cli, tmp_path, files, "train.py", "default_config.yaml", "PF505") == []


def test_pf505_silent_at_zero_stage_2(cli, tmp_path) -> None:
    files = {"train.py": _NO_TRAINER,
             "default_config.yaml": _ZERO3_YAML.format(flag="").replace("zero_stage: 3", "zero_stage: 2")}
    assert _audit(cli, tmp_path, files, "train.py", "default_config.yaml", "PF505") == []


# -- PF436: a torchmetrics metric computed on rank 0 only (torchmetrics issue 938) ---------------------------

_MODULE = """import pytorch_lightning as pl
import torch
import torch.distributed as dist
from {module} import Accuracy


class Classifier(pl.LightningModule):
    def __init__(self, net):
        super().__init__()
        self.net = net
        self.val_acc = Accuracy({kwargs})

    def validation_step(self, batch, batch_idx):
        x, y = batch
        self.val_acc.update(self.net(x).argmax(dim=-1), y)

    def validation_epoch_end(self, outputs):
{end}
    def configure_optimizers(self):
        return torch.optim.Adam(self.parameters(), lr=1e-3)
"""

_RANK0 = """        if self.global_rank == 0:
            self.log("val_acc", self.val_acc.compute())
        dist.barrier()
"""
_EVERY_RANK = """        self.log("val_acc", self.val_acc.compute())
        self.val_acc.reset()
"""


def _check(cli, tmp_path, text: str) -> list[tuple[str, str, int]]:
    (tmp_path / "train.py").write_text(text)
    result = cli("check", ".", "--no-cache", "--format", "json", "--select", "PF436", cwd=tmp_path)
    return sorted((f["code"], f["path"], f["line"]) for f in json.loads(result.out)["findings"])


def test_pf436_metric_compute_under_a_rank_zero_guard_hangs(cli, tmp_path) -> None:
    text = _MODULE.format(module="pytorch_lightning.metrics", kwargs="", end=_RANK0)
    assert _check(cli, tmp_path, text) == [("PF436", "train.py", 19)]


def test_pf436_torchmetrics_metric_too(cli, tmp_path) -> None:
    text = _MODULE.format(module="torchmetrics", kwargs='task="multiclass", num_classes=20', end=_RANK0)
    assert _check(cli, tmp_path, text) == [("PF436", "train.py", 19)]


def test_pf436_silent_when_every_rank_computes(cli, tmp_path) -> None:
    text = _MODULE.format(module="torchmetrics", kwargs='task="multiclass", num_classes=20', end=_EVERY_RANK)
    assert _check(cli, tmp_path, text) == []


def test_pf436_silent_for_a_metric_that_does_not_sync_on_compute(cli, tmp_path) -> None:
    text = _MODULE.format(module="torchmetrics", kwargs='task="multiclass", num_classes=20, sync_on_compute=False',
                          end=_RANK0.replace("        dist.barrier()\n", ""))
    assert _check(cli, tmp_path, text) == []


def test_pf436_silent_for_a_project_metric_with_a_compute_method(cli, tmp_path) -> None:
    text = _MODULE.format(module="metrics", kwargs="", end=_RANK0.replace("        dist.barrier()\n", ""))
    assert _check(cli, tmp_path, text) == []


# -- PF581: LoRA adapters added, then the module cast to an fp16 weight dtype (img2img-turbo issue 18) -------

_LORA = """import torch
from accelerate import Accelerator
from diffusers import UNet2DConditionModel
from peft import LoraConfig

accelerator = Accelerator(gradient_accumulation_steps=1)
weight_dtype = torch.float32
if accelerator.mixed_precision == "fp16":
    weight_dtype = torch.float16
unet = UNet2DConditionModel.from_pretrained("stabilityai/sd-turbo", subfolder="unet")
unet.requires_grad_(False)
{first}
{second}
params = [p for p in unet.parameters() if p.requires_grad]
optimizer = torch.optim.AdamW(params, lr=5e-6)
unet, optimizer, loader = accelerator.prepare(unet, optimizer, loader)
for batch in loader:
    pred = unet(batch["x"], batch["t"], encoder_hidden_states=batch["c"]).sample
    loss = torch.nn.functional.mse_loss(pred.float(), batch["y"].float())
    accelerator.backward(loss)
    accelerator.clip_grad_norm_(params, 1.0)
    optimizer.step()
    optimizer.zero_grad()
"""
_ADD = 'unet.add_adapter(LoraConfig(r=8, lora_alpha=8, target_modules=["to_k", "to_q", "to_v"]))'
_CAST = "unet.to(accelerator.device, dtype=weight_dtype)"
_CONFIG = "compute_environment: LOCAL_MACHINE\ndistributed_type: 'NO'\nmixed_precision: {mp}\nnum_processes: 1\n"


def _lora(cli, tmp_path, first: str, second: str, mp: str) -> list[tuple[str, str, int]]:
    files = {"train.py": _LORA.format(first=first, second=second), "accelerate_config.yaml": _CONFIG.format(mp=mp)}
    return _audit(cli, tmp_path, files, "train.py", "accelerate_config.yaml", "PF581")


def test_pf581_adapters_cast_to_fp16_under_an_fp16_accelerate_config(cli, tmp_path) -> None:
    assert _lora(cli, tmp_path, _ADD, _CAST, "fp16") == [("PF581", "train.py", 13)]


def test_pf581_silent_when_the_config_runs_without_mixed_precision(cli, tmp_path) -> None:
    assert _lora(cli, tmp_path, _ADD, _CAST, "'no'") == []


def test_pf581_silent_under_bf16(cli, tmp_path) -> None:
    assert _lora(cli, tmp_path, _ADD, _CAST, "bf16") == []


def test_pf581_silent_when_the_adapters_are_upcast_after_the_cast(cli, tmp_path) -> None:
    upcast = _CAST + "\nfor p in unet.parameters():\n    if p.requires_grad:\n        p.data = p.data.float()"
    assert _lora(cli, tmp_path, _ADD, upcast, "fp16") == []
