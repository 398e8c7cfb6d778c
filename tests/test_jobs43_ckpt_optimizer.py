"""Set 43's misses (issue 15), from shapes of the real repositories:

- a Swin-style yacs config whose checkpointing switch reaches the model class as a keyword
  (OpenGVLab/InternImage @ 31c962d classification/config.py:106,252-253 ``_C.TRAIN.USE_CHECKPOINT = False``,
  ``if args.use_checkpoint: config.TRAIN.USE_CHECKPOINT = True``; models/build.py:24
  ``InternImage(..., with_cp=config.TRAIN.USE_CHECKPOINT)``; microsoft/Swin-Transformer's
  ``use_checkpoint=config.TRAIN.USE_CHECKPOINT``), adapters/config_object_reads.py. Twins: the switch given
  to a lower-case helper, or to a data loader.
- an optimizer class of the file that keeps the protocol without deriving from ``Optimizer``
  (KellerJordan/modded-nanogpt @ f411b3d train_gpt.py:374,2078 ``class NorMuonAndAdam:``), adapters/
  optimizer_classes.py. Twins: a wrapper named for what it does, a class that wraps a torch optimizer.
"""

from __future__ import annotations

from plan_helpers import fact, plan_of, write

CONFIG = """\
    import yaml
    from yacs.config import CfgNode as CN

    _C = CN()
    _C.DATA = CN()
    _C.DATA.BATCH_SIZE = 128
    _C.DATA.NUM_WORKERS = 8
    _C.TRAIN = CN()
    _C.TRAIN.USE_CHECKPOINT = False


    def update_config(config, args):
        config.defrost()
        if args.batch_size:
            config.DATA.BATCH_SIZE = args.batch_size
        if hasattr(args, 'use_checkpoint') and args.use_checkpoint:
            config.TRAIN.USE_CHECKPOINT = True
        config.freeze()


    def get_config(args):
        config = _C.clone()
        update_config(config, args)
        return config
"""
BUILD = """\
    from .intern_image import InternImage


    def build_model(config):
        model = {CALL}
        return model
"""
MAIN = """\
    import argparse
    import torch
    from config import get_config
    from models import build_model


    def parse_option():
        parser = argparse.ArgumentParser('training')
        parser.add_argument('--batch-size', type=int)
        parser.add_argument('--use-checkpoint', action='store_true')
        args, unparsed = parser.parse_known_args()
        config = get_config(args)
        return args, config


    def main(config):
        model = build_model(config)
        model.cuda()
        optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3)
        loader = torch.utils.data.DataLoader(list(range(64)), batch_size=config.DATA.BATCH_SIZE,
                                             num_workers=config.DATA.NUM_WORKERS)
        for x in loader:
            loss = model(x).sum()
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()


    if __name__ == '__main__':
        _, config = parse_option()
        main(config)
"""
MODEL = """\
    import torch.nn as nn
    import torch.utils.checkpoint as checkpoint


    class InternImage(nn.Module):
        def __init__(self, channels=64, with_cp=False):
            super().__init__()
            self.with_cp = with_cp
            self.stem = nn.Linear(channels, channels)

        def forward(self, x):
            if self.with_cp and not x.requires_grad:
                return checkpoint.checkpoint(self.stem, x)
            return self.stem(x)
"""


def _yacs(cli, tmp_path, *args: str, call: str = "InternImage(channels=64, with_cp=config.TRAIN.USE_CHECKPOINT)"):
    write(tmp_path, {"config.py": CONFIG, "main.py": MAIN, "models/__init__.py": "from .build import build_model\n",
                     "models/build.py": BUILD.replace("{CALL}", call), "models/intern_image.py": MODEL})
    return plan_of(cli, "main.py", "--", *args, cwd=tmp_path)


def test_the_yacs_switch_given_to_the_model_class_is_read(cli, tmp_path):
    best = fact(_yacs(cli, tmp_path, "--batch-size", "128"), "memory.gradient_checkpointing")
    assert best is not None and best.value is False and best.source.path == "config.py" and best.source.line == 9


def test_the_launch_line_switch_turns_it_on(cli, tmp_path):
    best = fact(_yacs(cli, tmp_path, "--batch-size", "128", "--use-checkpoint"), "memory.gradient_checkpointing")
    assert best is not None and best.value is True


def test_the_switch_given_to_a_helper_function_is_not_read(cli, tmp_path):
    best = fact(_yacs(cli, tmp_path, "--batch-size", "128",
                      call="make_model(with_cp=config.TRAIN.USE_CHECKPOINT)"), "memory.gradient_checkpointing")
    assert best is None or best.adapter != "value_flow"


OPT_SCRIPT = """\
    import torch
    import torch.nn as nn


    {CLASS}


    model = nn.Linear(8, 8).cuda()
    optimizer = {NAME}(model.named_parameters(), lr=0.02)
    for step in range(10):
        loss = model(torch.randn(4, 8).cuda()).sum()
        loss.backward()
        optimizer.step()
        optimizer.zero_grad()
"""

PROTOCOL = """\
class {NAME}:
        def __init__(self, named_params, lr):
            self.params = [p for _, p in named_params]
            self.lr = lr

        def step(self):
            for p in self.params:
                p.data.add_(p.grad, alpha=-self.lr)

        def zero_grad(self):
            for p in self.params:
                p.grad = None

        def state_dict(self):
            return {}
"""


def _opt(cli, tmp_path, name: str, body: str = PROTOCOL) -> dict:
    write(tmp_path, {"train.py": OPT_SCRIPT.replace("{CLASS}", body.replace("{NAME}", name)).replace("{NAME}", name)})
    return plan_of(cli, "train.py", cwd=tmp_path)


def test_a_protocol_class_named_for_its_optimizer_is_the_optimizer(cli, tmp_path):
    best = fact(_opt(cli, tmp_path, "NorMuonAndAdam"), "optimizer.name")
    assert best is not None and best.value == "NorMuonAndAdam" and best.confidence == "medium"


def test_a_wrapper_named_for_what_it_does_is_not(cli, tmp_path):
    for name in ("CombinedOptimizer", "ScheduledOptim"):
        best = fact(_opt(cli, tmp_path, name), "optimizer.name")
        assert best is None or best.value != name, name


def test_a_class_wrapping_a_torch_optimizer_is_not(cli, tmp_path):
    wrapping = PROTOCOL.replace("self.lr = lr", "self.inner = torch.optim.SGD(self.params, lr=lr)")
    best = fact(_opt(cli, tmp_path, "MuonAdam", wrapping), "optimizer.name")
    assert best is None or best.value != "MuonAdam"
