"""A project's own Hydra keys handed into project functions and classes (adapters/config_object_hydra.py:
the composed config of ``@hydra.main`` as a root of the value flow; keyword readings in
adapters/hydra_reads.py and adapters/config_object_arms.py). Fixtures of our own copying real shapes,
each citing repository, path and commit; each with a silent twin."""

from __future__ import annotations

from plan_helpers import plan_of, write

from tests.test_config_object import ours

# kuleshov-group/mdlm @ c112c526d193436838c98d81455ee51f90309470: main.py:186-200 (@hydra.main;
# dataloader.get_dataloaders(config, tokenizer)), dataloader.py:525-577 (assert on
# config.loader.global_batch_size; get_dataset(..., block_size=config.model.length); DataLoader(train_set,
# batch_size=config.loader.batch_size, num_workers=..., pin_memory=config.loader.pin_memory)),
# configs/config.yaml:19-27, scripts/train_owt_mdlm.sh:18-25 (loader.batch_size=16 model.length=1024).
MDLM = {
    "main.py": """\
        import hydra
        import dataloader


        @hydra.main(version_base=None, config_path='configs', config_name='config')
        def main(config):
            tokenizer = None
            train_ds, valid_ds = dataloader.get_dataloaders(config, tokenizer)


        if __name__ == '__main__':
            main()
    """,
    "dataloader.py": """\
        import torch


        def get_dataset(name, tokenizer, mode='train', block_size=1024):
            return []


        def get_dataloaders(config, tokenizer):
            assert config.loader.global_batch_size % config.loader.batch_size == 0
            train_set = get_dataset(config.data.train, tokenizer, mode='train', block_size=config.model.length)
            train_loader = torch.utils.data.DataLoader(
                train_set,
                batch_size=config.loader.batch_size,
                num_workers=config.loader.num_workers,
                pin_memory=config.loader.pin_memory,
                persistent_workers=True)
            return train_loader, None
    """,
    "configs/config.yaml": """\
        loader:
          global_batch_size: 512
          batch_size: 64
          num_workers: 4
          pin_memory: True
        data:
          train: openwebtext
        model:
          length: 128
    """,
}


def test_mdlm_hydra_keys_reach_project_functions(cli, tmp_path):
    write(tmp_path, MDLM)
    plan = plan_of(cli, "main.py", "--", "loader.batch_size=16", "model.length=1024", cwd=tmp_path)
    micro = ours(plan, "batch.micro")
    assert micro is not None and micro.value == 16 and micro.source.kind == "cli"
    seq = ours(plan, "data.seq_len")
    assert seq.value == 1024 and seq.source.kind == "cli"
    pin = ours(plan, "data.pin_memory")
    assert pin.value is True and (pin.source.path, pin.source.line) == ("configs/config.yaml", 5)
    assert ours(plan, "batch.global").value == 512
    assert ours(plan, "data.num_workers").value == 4


def test_hydra_interpolation_not_known_stays_unknown(cli, tmp_path):
    """Silent twin: a key set by a resolver known only at run time (``${device_count:}``) is not claimed."""
    files = dict(MDLM)
    files["configs/config.yaml"] = files["configs/config.yaml"].replace("batch_size: 64", "batch_size: ${eval:8*8}")
    write(tmp_path, files)
    plan = plan_of(cli, "main.py", cwd=tmp_path)
    assert ours(plan, "batch.micro") is None
    assert ours(plan, "data.seq_len").value == 128


# SWivid/F5-TTS @ 2ae2c9bd9b64dab2cb069c4b97e5e7673c521e01: src/f5_tts/train/train.py:17-78 (model_cls(**model_arc);
# Trainer(model, grad_accumulation_steps=model_cfg.optim.grad_accumulation_steps,
# bnb_optimizer=model_cfg.optim.bnb_optimizer); trainer.train(train_dataset, num_workers=...)),
# src/f5_tts/model/trainer.py:63-68,136-143,301-309 (Accelerator(gradient_accumulation_steps=...);
# if bnb_optimizer: bnb.optim.AdamW8bit else AdamW; DataLoader(..., num_workers=num_workers, pin_memory=True)),
# src/f5_tts/configs/F5TTS_v1_Base.yaml:10-37.
F5 = {
    "train.py": """\
        import hydra
        from model import DiT, Trainer


        @hydra.main(version_base="1.3", config_path="configs", config_name=None)
        def main(model_cfg):
            model_arc = model_cfg.model.arch
            model = DiT(**model_arc, text_num_embeds=256)
            trainer = Trainer(
                model,
                grad_accumulation_steps=model_cfg.optim.grad_accumulation_steps,
                bnb_optimizer=model_cfg.optim.bnb_optimizer,
            )
            trainer.train([], num_workers=model_cfg.datasets.num_workers)


        if __name__ == "__main__":
            main()
    """,
    "model.py": """\
        import torch
        from accelerate import Accelerator
        from torch.optim import AdamW
        from torch.utils.data import DataLoader


        class DiT(torch.nn.Module):
            def __init__(self, dim=512, depth=8, checkpoint_activations=False, text_num_embeds=256):
                super().__init__()
                self.checkpoint_activations = checkpoint_activations


        class Trainer:
            def __init__(self, model, grad_accumulation_steps=1, bnb_optimizer=False):
                self.accelerator = Accelerator(gradient_accumulation_steps=grad_accumulation_steps)
                self.model = model
                if bnb_optimizer:
                    import bitsandbytes as bnb
                    self.optimizer = bnb.optim.AdamW8bit(model.parameters(), lr=1e-4)
                else:
                    self.optimizer = AdamW(model.parameters(), lr=1e-4, fused=True)

            def train(self, train_dataset, num_workers=16):
                train_dataloader = DataLoader(train_dataset, num_workers=num_workers, pin_memory=True)
                for batch in train_dataloader:
                    with self.accelerator.accumulate(self.model):
                        loss = self.model(batch)
                        self.accelerator.backward(loss)
                        self.optimizer.step()
    """,
    "configs/F5TTS_v1_Base.yaml": """\
        datasets:
          num_workers: 16
        optim:
          grad_accumulation_steps: 2
          bnb_optimizer: False
        model:
          arch:
            dim: 1024
            depth: 22
            checkpoint_activations: False
    """,
}


def test_f5_hydra_keys_reach_the_project_trainer(cli, tmp_path):
    write(tmp_path, F5)
    plan = plan_of(cli, "train.py", "--", "--config-name", "F5TTS_v1_Base.yaml", cwd=tmp_path)
    accum = ours(plan, "batch.grad_accum")
    assert accum is not None and accum.value == 2
    assert (accum.source.path, accum.source.line) == ("configs/F5TTS_v1_Base.yaml", 4)
    assert ours(plan, "optimizer.name").value == "AdamW"  # bnb_optimizer False takes the else arm
    ckpt = ours(plan, "memory.gradient_checkpointing")  # the arch section splatted into DiT(**model_arc)
    assert ckpt.value is False and ckpt.source.line == 10
    assert ours(plan, "data.num_workers").value == 16
    assert ours(plan, "data.pin_memory").value is True  # the literal in the loader the config feeds


def test_f5_other_optimizer_arm_is_not_claimed(cli, tmp_path):
    """Silent twin: bnb_optimizer True takes the arm whose optimizer is bitsandbytes' (not a torch
    optimizer read here): no optimizer name is claimed, and AdamW is not taken from the other arm."""
    files = dict(F5)
    files["configs/F5TTS_v1_Base.yaml"] = files["configs/F5TTS_v1_Base.yaml"].replace("bnb_optimizer: False",
                                                                                    "bnb_optimizer: True")
    write(tmp_path, files)
    plan = plan_of(cli, "train.py", "--", "--config-name", "F5TTS_v1_Base.yaml", cwd=tmp_path)
    assert ours(plan, "optimizer.name") is None
