"""The guard inside real (tiny, CPU) Lightning, Hugging Face Trainer and Accelerate runs:
a target too small stops the run before its first step; a large one lets it train."""

from __future__ import annotations

import pytest

torch = pytest.importorskip("torch", reason="the runtime guard needs torch (the 'torch' extra)")
transformers = pytest.importorskip("transformers", reason="guard tests use transformers models")

from preflight.guard import (  # noqa: E402
    VRAMGuardError,
    accelerate_guard,
    lightning_callback,
    trainer_callback,
)

TINY = dict(hidden_size=32, intermediate_size=64, num_hidden_layers=1, num_attention_heads=2,
            num_key_value_heads=2, vocab_size=128)


def tiny_llama():
    torch.manual_seed(0)
    return transformers.LlamaForCausalLM(transformers.LlamaConfig(**TINY))


# --------------------------------------------------------------------------- Lightning


def _lightning_run(target, tmp_path):
    L = pytest.importorskip("lightning.pytorch", reason="Lightning is not installed")

    class Module(L.LightningModule):
        def __init__(self):
            super().__init__()
            self.net = torch.nn.Sequential(torch.nn.Linear(16, 64), torch.nn.ReLU(),
                                           torch.nn.Linear(64, 4))
            self.example_input_array = torch.zeros(8, 16)
            self.steps = 0

        def forward(self, x):
            return self.net(x)

        def training_step(self, batch, _):
            self.steps += 1
            x, y = batch
            return torch.nn.functional.cross_entropy(self(x), y)

        def configure_optimizers(self):
            return torch.optim.AdamW(self.parameters(), lr=1e-3)

    data = torch.utils.data.TensorDataset(torch.randn(16, 16), torch.randint(0, 4, (16,)))
    module = Module()
    trainer = L.Trainer(max_steps=1, accelerator="cpu", logger=False, enable_checkpointing=False,
                        enable_progress_bar=False, enable_model_summary=False,
                        default_root_dir=str(tmp_path),
                        callbacks=[lightning_callback(target=target)])
    return module, trainer, torch.utils.data.DataLoader(data, batch_size=8)


def test_lightning_run_stops_before_its_first_step(tmp_path):
    module, trainer, loader = _lightning_run("1MiB", tmp_path)
    with pytest.raises(VRAMGuardError, match="does not fit"):
        trainer.fit(module, loader)
    assert module.steps == 0


def test_lightning_run_trains_when_it_fits(tmp_path):
    module, trainer, loader = _lightning_run("80GiB", tmp_path)
    trainer.fit(module, loader)
    assert module.steps == 1
    guard = trainer.callbacks[0].guard
    assert guard.report.verdict == "fits" and guard.report.measurement["peak_bytes"] > 0


# --------------------------------------------------------------------------- HF Trainer


class _Steps(transformers.TrainerCallback):
    def __init__(self):
        self.begun = 0

    def on_step_begin(self, args, state, control, **kwargs):
        self.begun += 1


def _hf_trainer(target, tmp_path):
    ids = torch.randint(0, TINY["vocab_size"], (4, 16))
    data = [{"input_ids": row, "labels": row} for row in ids]
    args = transformers.TrainingArguments(
        output_dir=str(tmp_path), max_steps=1, per_device_train_batch_size=2,
        report_to=[], save_strategy="no", logging_strategy="no", use_cpu=True,
        disable_tqdm=True, dataloader_num_workers=0)
    steps, guard = _Steps(), trainer_callback(target=target)
    trainer = transformers.Trainer(model=tiny_llama(), args=args, train_dataset=data,
                                   callbacks=[guard, steps])
    return trainer, steps, guard


def test_hf_trainer_run_stops_before_its_first_step(tmp_path):
    trainer, steps, _ = _hf_trainer("1MiB", tmp_path)
    with pytest.raises(VRAMGuardError, match="does not fit"):
        trainer.train()
    assert steps.begun == 0 and trainer.state.global_step == 0


def test_hf_trainer_run_trains_when_it_fits(tmp_path):
    trainer, steps, callback = _hf_trainer("80GiB", tmp_path)
    trainer.train()
    assert steps.begun == 1 and trainer.state.global_step == 1
    guard = callback.guard
    # the example batch came from the train dataloader: (per-device batch, sequence)
    assert guard.report.verdict == "fits" and guard._batch_shape == [2, 16]


# --------------------------------------------------------------------------- Accelerate


def test_accelerate_helper_checks_the_prepared_objects():
    accelerate = pytest.importorskip("accelerate", reason="accelerate is not installed")
    accelerator = accelerate.Accelerator(cpu=True)
    model = tiny_llama()
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3)
    model, optimizer = accelerator.prepare(model, optimizer)
    with pytest.raises(VRAMGuardError, match="does not fit") as info:
        accelerate_guard(accelerator, model, optimizer, batch_shape=(2, 16),
                         target="1MiB").check()
    report = info.value.report
    n = sum(p.numel() for p in model.parameters())
    assert report.verdict == "oom" and report.inventory["params"] == n
    assert report.retarget("80GiB").verdict == "fits"
