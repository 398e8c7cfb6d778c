"""PF543 examples (small projects): bad ones must fire at the pinned line, good ones stay silent."""

import textwrap

BAD_EXAMPLES = [
    # SCNet-PyTorch issue 2: the module logs "usdr", the checkpoint monitors "val/usdr"
    textwrap.dedent("""
    # --- module.py
    import pytorch_lightning as pl


    class SeparationModule(pl.LightningModule):
        def validation_step(self, batch, batch_idx):
            usdr = self.score(batch)
            self.log("val/loss", self.loss(batch), sync_dist=True)
            for i, source in enumerate(self.sources):
                self.log(f"usdr_{source}", usdr[:, i].mean(), sync_dist=True)
            self.log("usdr", usdr.mean(), sync_dist=True)
    # --- train.py
    import pytorch_lightning as pl
    from pytorch_lightning.callbacks import ModelCheckpoint

    from module import SeparationModule

    module = SeparationModule()
    checkpoint = ModelCheckpoint(monitor="val/usdr", mode="max")  # error: PF543
    pl.Trainer(callbacks=[checkpoint]).fit(module)
"""),
    # EarlyStopping on a name the module never logs (val_acc vs logged "val/acc")
    textwrap.dedent("""
    # --- train.py
    import lightning as L
    from lightning.pytorch.callbacks import EarlyStopping


    class Classifier(L.LightningModule):
        def validation_step(self, batch, batch_idx):
            self.log_dict({"val/acc": self.acc(batch), "val/loss": self.loss(batch)})


    trainer = L.Trainer(callbacks=[EarlyStopping(monitor="val_acc", mode="max")])  # error: PF543
    trainer.fit(Classifier())
"""),
]

BAD_EXAMPLES.append(
    # Mars-Bench issue 64: the Hydra callbacks config monitors "val/..." while the module (imported from
    # the project's package) logs "val_..."
    textwrap.dedent("""
    # --- run.py
    import hydra
    import lightning.pytorch as pl
    from hydra.utils import instantiate

    from seg.models.unet import SegModule


    @hydra.main(version_base="1.3", config_path="conf", config_name="train")
    def main(cfg):
        module = SegModule(lr=cfg.lr)
        trainer = pl.Trainer(max_epochs=cfg.epochs, callbacks=[instantiate(c) for c in cfg.callbacks.values()])
        trainer.fit(module)


    if __name__ == "__main__":
        main()
    # --- seg/models/unet.py
    import lightning.pytorch as pl


    class SegModule(pl.LightningModule):
        def validation_step(self, batch, batch_idx):
            self.log("val_dice", self.dice(batch))
            self.log("val_loss", self.loss(batch))
    # --- conf/train.yaml
    defaults:
      - _self_
      - callbacks: default
    lr: 0.001
    epochs: 20
    # --- conf/callbacks/default.yaml
    best:
      _target_: lightning.pytorch.callbacks.ModelCheckpoint
      monitor: val/dice  # error: PF543
      mode: max
"""))

GOOD_EXAMPLES = [
    # the fix: the callbacks config monitors the key the imported module logs
    textwrap.dedent("""
    # --- run.py
    import hydra
    import lightning.pytorch as pl
    from hydra.utils import instantiate

    from seg.models.unet import SegModule


    @hydra.main(version_base="1.3", config_path="conf", config_name="train")
    def main(cfg):
        module = SegModule(lr=cfg.lr)
        trainer = pl.Trainer(max_epochs=cfg.epochs, callbacks=[instantiate(c) for c in cfg.callbacks.values()])
        trainer.fit(module)


    if __name__ == "__main__":
        main()
    # --- seg/models/unet.py
    import lightning.pytorch as pl


    class SegModule(pl.LightningModule):
        def validation_step(self, batch, batch_idx):
            self.log("val_dice", self.dice(batch))
            self.log("val_loss", self.loss(batch))
    # --- conf/train.yaml
    defaults:
      - _self_
      - callbacks: default
    lr: 0.001
    epochs: 20
    # --- conf/callbacks/default.yaml
    best:
      _target_: lightning.pytorch.callbacks.ModelCheckpoint
      monitor: val_dice
      mode: max
"""),
    # the fix; an f-string key matches as a pattern; on_epoch's suffix and "epoch" count
    textwrap.dedent("""
    # --- train.py
    import pytorch_lightning as pl
    from pytorch_lightning.callbacks import EarlyStopping, ModelCheckpoint


    class SeparationModule(pl.LightningModule):
        def validation_step(self, batch, batch_idx):
            self.log("val/usdr", self.score(batch), sync_dist=True)
            for stage in ("val",):
                self.log(f"{stage}/loss", self.loss(batch), on_step=True, on_epoch=True)


    module = SeparationModule()
    callbacks = [ModelCheckpoint(monitor="val/usdr", mode="max"), ModelCheckpoint(monitor="val/loss_epoch"),
                 ModelCheckpoint(monitor="epoch", mode="max"), EarlyStopping(monitor="val/loss")]
    pl.Trainer(callbacks=callbacks).fit(module)
"""),
    # keys preflight cannot list (a MetricCollection's prefix, a name in a variable)
    textwrap.dedent("""
    # --- train.py
    import pytorch_lightning as pl
    from pytorch_lightning.callbacks import ModelCheckpoint


    class Classifier(pl.LightningModule):
        def validation_step(self, batch, batch_idx):
            self.log_dict(self.val_metrics(self(batch[0]), batch[1]))


    pl.Trainer(callbacks=[ModelCheckpoint(monitor="val_MulticlassAccuracy")]).fit(Classifier())
"""),
    # the fitted module's class comes from a file that is not audited
    textwrap.dedent("""
    # --- train.py
    import pytorch_lightning as pl
    from pytorch_lightning.callbacks import ModelCheckpoint

    from models import Net


    class Helper(pl.LightningModule):
        def validation_step(self, batch, batch_idx):
            self.log("other", 1.0)


    pl.Trainer(callbacks=[ModelCheckpoint(monitor="val_loss")]).fit(Net())
"""),
]

# InvokeAI issue 608's shape: the module logs only `train/...` keys through a dict comprehension, the
# checkpoint monitors a validation key of the latent-diffusion configs in a run without validation
_COMPREHENSION = textwrap.dedent("""
    # --- main.py
    import pytorch_lightning as pl
    from pytorch_lightning.callbacks import ModelCheckpoint


    class EmbeddingTuner(pl.LightningModule):
        def training_step(self, batch, batch_idx):
            loss, loss_dict = self.ldm.shared_step(batch)
            self.log_dict({{f"{prefix}/{{k}}": v for k, v in loss_dict.items()}})
            return loss


    checkpoint = ModelCheckpoint(monitor="{monitor}", save_top_k=1){pin}
    pl.Trainer(max_steps=6100, limit_val_batches=0, callbacks=[checkpoint]).fit(EmbeddingTuner())
""")

BAD_EXAMPLES.append(_COMPREHENSION.format(prefix="train", monitor="val/loss_simple_ema", pin="  # error: PF543"))
GOOD_EXAMPLES += [
    # the comprehension's keys match the monitored one
    _COMPREHENSION.format(prefix="train", monitor="train/loss_simple", pin=""),
    # tricky: the comprehension's prefix is a variable (any key may be logged)
    _COMPREHENSION.format(prefix="{self.stage}", monitor="val/loss_simple_ema", pin=""),
]

# JonasSchult/Mask3D issue 116: the module logs the monitored AP only on the benchmark datasets' path, and the
# launch selects the user's own dataset (`data=my_dataset`); the callbacks file is a list of nodes
_ONLY_FOR_BENCHMARKS = textwrap.dedent("""
    # --- main.py
    import hydra
    import pytorch_lightning as pl
    from hydra.utils import instantiate

    from trainer import InstanceSegmentation


    @hydra.main(config_path="conf", config_name="config")
    def main(cfg):
        callbacks = [instantiate(cb) for cb in cfg.callbacks]
        print("dataset:", cfg.data.dataset_name)
        pl.Trainer(callbacks=callbacks, max_epochs=cfg.epochs).fit(InstanceSegmentation(cfg))


    if __name__ == "__main__":
        main()
    # --- trainer.py
    import pytorch_lightning as pl


    class InstanceSegmentation(pl.LightningModule):
        def __init__(self, config):
            super().__init__()
            self.config = config

        def validation_step(self, batch, batch_idx):
            self.log("val_loss", self.loss(batch))

        def on_validation_epoch_end(self):
            {guard}
                self.log("val_mean_ap_50", self.ap50())
            {other}
    # --- conf/config.yaml
    defaults:
      - data: scannet
      - callbacks: instance
      - _self_
    epochs: 600
    # --- conf/data/scannet.yaml
    dataset_name: scannet
    # --- conf/data/my_dataset.yaml
    dataset_name: my_dataset
    # --- conf/callbacks/instance.yaml
    - _target_: pytorch_lightning.callbacks.ModelCheckpoint
      monitor: {monitor}
      mode: max
    # --- launch
    python main.py {choice}
""")
_BENCH_GUARD = 'if self.config.data.dataset_name in ("scannet", "s3dis"):'
BAD_EXAMPLES += [
    _ONLY_FOR_BENCHMARKS.format(guard=_BENCH_GUARD, other="", monitor="val_mean_ap_50  # error: PF543",
                                choice="data=my_dataset"),
    # `==` on the one benchmark
    _ONLY_FOR_BENCHMARKS.format(guard='if self.config.data.dataset_name == "scannet":', other="",
                                monitor="val_mean_ap_50  # error: PF543", choice="data=my_dataset"),
]
GOOD_EXAMPLES += [
    # the fix: monitor the key every run logs
    _ONLY_FOR_BENCHMARKS.format(guard=_BENCH_GUARD, other="", monitor="val_loss", choice="data=my_dataset"),
    # the benchmark dataset is the one selected: the key is logged
    _ONLY_FOR_BENCHMARKS.format(guard=_BENCH_GUARD, other="", monitor="val_mean_ap_50", choice="data=scannet"),
    # tricky: the other branch logs the key too
    _ONLY_FOR_BENCHMARKS.format(guard=_BENCH_GUARD, other='else:\n                self.log("val_mean_ap_50", 0.0)',
                                monitor="val_mean_ap_50", choice="data=my_dataset"),
    # tricky: the condition reads a key the composed config lacks (set at runtime?): not judged
    _ONLY_FOR_BENCHMARKS.format(guard='if self.config.data.benchmark in ("scannet", "s3dis"):', other="",
                                monitor="val_mean_ap_50", choice="data=my_dataset"),
    # tricky: the condition is not on the config (an attribute of the module)
    _ONLY_FOR_BENCHMARKS.format(guard='if self.dataset_name in ("scannet", "s3dis"):', other="",
                                monitor="val_mean_ap_50", choice="data=my_dataset"),
]
# tricky: the module is handed a sub-node of the config, so `self.config` is not the composed root
GOOD_EXAMPLES.append(_ONLY_FOR_BENCHMARKS.format(guard=_BENCH_GUARD, other="", monitor="val_mean_ap_50",
                                                 choice="data=my_dataset").replace(
    "InstanceSegmentation(cfg))", "InstanceSegmentation(cfg.data))"))
