"""A Hydra app that imports its own workspace class under another name inside ``main`` (``from train import
Workspace as W``) hands the composed config to it like any project class (``adapters/config_object.py``:
``Modules`` aliases). Shape of facebookresearch/drqv2 @ c0c650b76c6e ``train.py:34-75,207-215``,
``replay_buffer.py:173-190`` and ``cfgs/config.yaml:17-21``."""

from __future__ import annotations

from pathlib import Path

from plan_helpers import fact, plan_of, write

TRAIN = """\
    import hydra
    import torch

    from replay_buffer import make_replay_loader


    class Workspace:
        def __init__(self, cfg):
            self.cfg = cfg
            self.model = torch.nn.Linear(4, 4).cuda()
            self.opt = torch.optim.Adam(self.model.parameters())
            self.replay_loader = make_replay_loader('buffer', self.cfg.replay_buffer_size, self.cfg.batch_size,
                                                    self.cfg.replay_buffer_num_workers, True)

        def train(self):
            for batch in self.replay_loader:
                loss = self.model(batch).sum()
                self.opt.zero_grad()
                loss.backward()
                self.opt.step()


    @hydra.main(config_path='cfgs', config_name='config')
    def main(cfg):
        from train import Workspace as {alias}
        workspace = {alias}(cfg)
        workspace.train()


    if __name__ == '__main__':
        main()
    """

REPLAY = """\
    import torch


    def make_replay_loader(replay_dir, max_size, batch_size, num_workers, save_snapshot):
        iterable = range(max_size)
        loader = torch.utils.data.DataLoader(iterable, batch_size=batch_size, num_workers=num_workers,
                                             pin_memory=True)
        return loader
    """

CONFIG = """\
    replay_buffer_size: 1000000
    replay_buffer_num_workers: 4
    batch_size: 256
    """


def test_the_class_imported_under_another_name_gets_the_config(cli, tmp_path: Path) -> None:
    write(tmp_path, {"train.py": TRAIN.format(alias="W"), "replay_buffer.py": REPLAY, "cfgs/config.yaml": CONFIG})
    plan = plan_of(cli, "train.py", "--", "batch_size=128", cwd=tmp_path)
    micro = fact(plan, "batch.micro")
    assert micro is not None and micro.value == 128
    workers = fact(plan, "data.num_workers")
    assert workers is not None and workers.value == 4 and workers.source.path == "cfgs/config.yaml"


def test_an_alias_of_nothing_the_project_defines_is_not_followed(cli, tmp_path: Path) -> None:
    src = TRAIN.format(alias="W").replace("from train import Workspace as W", "from other import Thing as W")
    write(tmp_path, {"train.py": src, "replay_buffer.py": REPLAY, "cfgs/config.yaml": CONFIG})
    plan = plan_of(cli, "train.py", cwd=tmp_path)
    micro = fact(plan, "batch.micro")
    assert micro is None or micro.value != 256
