"""A repository whose root is itself the package its entry script imports by name, audited from a folder of
another name (adapters/self_package.py). zhangruochi/pseudoESM @ 859e25ad0768: ``__init__.py`` at the root,
``train.py:41`` ``sys.path.append(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))``, ``train.py:58``
``from pseudoESM.trainer import Trainer``, ``train.py:70`` ``@hydra.main(config_path="configs",
config_name="train.yaml")``, ``train.py:162`` ``Trainer(..., cfg)``; ``trainer.py:133-151`` ``if
self.cfg.train.amp:`` around ``GradScaler(...)`` and ``with autocast():``; ``configs/train.yaml:19``
``amp: true``. The key given to the trainer's constructor is read back to the composed config (medium, with
the YAML line); twins: the key off on the launch line (fp32), no ``sys.path`` line (the import names another
package: not followed), an ``__init__.py``-less root (not a package), a key Hydra cannot settle (unknown)."""

from __future__ import annotations

from pathlib import Path

from plan_helpers import fact, plan_of, write

TRAIN = """\
    import os
    import sys

    sys.path.append(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

    import hydra
    import torch
    from pseudoESM.trainer import Trainer


    @hydra.main(config_path="configs", config_name="train.yaml")
    def main(cfg):
        model = torch.nn.Linear(4, 4).cuda()
        loader = torch.utils.data.DataLoader([], batch_size=cfg.train.batch_size)
        optimizer = torch.optim.AdamW(model.parameters(), lr=1e-4)
        trainer = Trainer(model, loader, optimizer, cfg)
        trainer.run()


    if __name__ == "__main__":
        main()
    """

TRAINER = """\
    import torch
    from torch.cuda.amp import autocast as autocast
    from torch.cuda.amp import GradScaler


    class Trainer(object):
        def __init__(self, net, loader, optimizer, cfg):
            self.net = net
            self.loader = loader
            self.optimizer = optimizer
            self.cfg = cfg

        def run(self):
            if self.cfg.train.amp:
                self.scaler = GradScaler(enabled=True)
            for epoch in range(self.cfg.train.num_epoch):
                for data in self.loader:
                    if self.cfg.train.amp:
                        with autocast():
                            loss = self.net(data).sum()
                    else:
                        loss = self.net(data).sum()
                    self.optimizer.zero_grad()
                    if self.cfg.train.amp:
                        self.scaler.scale(loss).backward()
                        self.scaler.step(self.optimizer)
                        self.scaler.update()
                    else:
                        loss.backward()
                        self.optimizer.step()
    """

CONFIG = """\
    mode:
      gpu: true
    train:
      amp: {amp}
      num_epoch: 10
      batch_size: 6
    """


def _audit(cli, tmp_path: Path, train: str = TRAIN, amp: str = "true", init: bool = True, *argv: str):
    root = tmp_path / "859e25ad0768"  # the clone under another name than the package's
    files = {"train.py": train, "trainer.py": TRAINER, "configs/train.yaml": CONFIG.format(amp=amp)}
    if init:
        files["__init__.py"] = ""
    write(root, files)
    plan = plan_of(cli, "train.py", *(("--", *argv) if argv else ()), cwd=root)
    return fact(plan, "precision.mode")


def test_amp_key_given_to_the_imported_trainer_is_read_back_to_the_yaml(cli, tmp_path: Path) -> None:
    got = _audit(cli, tmp_path)
    assert got is not None
    assert (got.value, got.confidence, got.source.path, got.source.line) == \
        ("amp_fp16", "medium", "configs/train.yaml", 4)
    assert "train.amp = True runs torch.cuda.amp.autocast" in got.source.detail
    assert "trainer.py:19" in got.source.detail


def test_twin_the_key_turned_off_on_the_launch_line_is_fp32(cli, tmp_path: Path) -> None:
    got = _audit(cli, tmp_path, TRAIN, "true", True, "train.amp=false")
    assert got is not None and got.value == "fp32"
    assert "train.amp = False skips" in got.source.detail


def test_twin_without_the_sys_path_line_the_import_is_another_package(cli, tmp_path: Path) -> None:
    got = _audit(cli, tmp_path, TRAIN.replace(
        "sys.path.append(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))", "pass"))
    assert got is None or "train.amp" not in (got.source.detail or "")


def test_twin_a_root_without_init_is_no_package(cli, tmp_path: Path) -> None:
    got = _audit(cli, tmp_path, TRAIN, "true", False)
    assert got is None or "train.amp" not in (got.source.detail or "")


def test_twin_a_key_hydra_cannot_settle_stays_unknown(cli, tmp_path: Path) -> None:
    got = _audit(cli, tmp_path, TRAIN, "${oc.env:USE_AMP}")
    assert got is None or got.value not in ("amp_fp16", "fp32") or "train.amp" not in (got.source.detail or "")
