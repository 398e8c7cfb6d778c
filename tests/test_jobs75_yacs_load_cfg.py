"""facebookresearch/pycls @ 5719de641657c251f807c20a1fcf8ef6f4b60144: the YAML reaches a module-level yacs node
through a project function called on the module (``tools/run_net.py:13-19,40-41`` ``import pycls.core.config as
config``, ``from pycls.core.config import cfg``, ``config.load_cfg(args.cfg)``, ``cfg.merge_from_list(args.opts)``;
``pycls/core/config.py:17-18`` ``_C = CfgNode(); cfg = _C``, ``:500-504`` ``with pathmgr.open(cfg_file, "r") as f:
_C.merge_from_other_cfg(_C.load_cfg(f))``). Read by adapters/config_object_yacs.py without importing yacs."""

from __future__ import annotations

from plan_helpers import plan_of, write

from tests.test_config_object import ours

PYCLS = {
    "tools/run_net.py": """\
        import argparse
        import sys

        import pycls.core.config as config
        from pycls.core.config import cfg
        from torch.utils.data import DataLoader


        def parse_args():
            parser = argparse.ArgumentParser(description="Run a model.")
            parser.add_argument("--mode", required=True, type=str)
            parser.add_argument("--cfg", required=True, type=str)
            parser.add_argument("opts", default=None, nargs=argparse.REMAINDER)
            return parser.parse_args()


        def build_loader():
            return DataLoader([], batch_size=cfg.TRAIN.BATCH_SIZE, num_workers=cfg.DATA_LOADER.NUM_WORKERS,
                              pin_memory=cfg.DATA_LOADER.PIN_MEMORY)


        def main():
            args = parse_args()
            config.load_cfg(args.cfg)
            cfg.merge_from_list(args.opts)
            cfg.freeze()
            loader = build_loader()


        if __name__ == "__main__":
            main()
    """,
    "pycls/__init__.py": "",
    "pycls/core/__init__.py": "",
    "pycls/core/io.py": "pathmgr = None\n",
    "pycls/core/config.py": """\
        from pycls.core.io import pathmgr
        from yacs.config import CfgNode

        _C = CfgNode()
        cfg = _C
        _C.TRAIN = CfgNode()
        _C.TRAIN.BATCH_SIZE = 128
        _C.DATA_LOADER = CfgNode()
        _C.DATA_LOADER.NUM_WORKERS = 8
        _C.DATA_LOADER.PIN_MEMORY = True


        def load_cfg(cfg_file):
            with pathmgr.open(cfg_file, "r") as f:
                _C.merge_from_other_cfg(_C.load_cfg(f))
    """,
    "configs/regnetx.yaml": """\
        TRAIN:
          BATCH_SIZE: 1024
    """,
}


def test_pycls_load_cfg_merges_the_yaml_into_the_module_node(cli, tmp_path):
    write(tmp_path, PYCLS)
    plan = plan_of(cli, "tools/run_net.py", "--", "--mode", "train", "--cfg", "configs/regnetx.yaml",
                   "OUT_DIR", "/tmp", cwd=tmp_path)
    micro = ours(plan, "batch.micro")
    assert micro is not None and micro.value == 1024, micro
    assert (micro.source.path, micro.source.line) == ("configs/regnetx.yaml", 2), micro.source
    workers = ours(plan, "data.num_workers")  # the yacs default under the file
    assert workers is not None and workers.value == 8 and workers.source.path == "pycls/core/config.py", workers


def test_pycls_key_value_pairs_on_the_line_win(cli, tmp_path):
    write(tmp_path, PYCLS)
    plan = plan_of(cli, "tools/run_net.py", "--", "--mode", "train", "--cfg", "configs/regnetx.yaml",
                   "TRAIN.BATCH_SIZE", "256", cwd=tmp_path)
    micro = ours(plan, "batch.micro")
    assert micro is not None and micro.value == 256, micro


def test_twin_pycls_a_config_file_not_there_leaves_the_node_unknown(cli, tmp_path):
    write(tmp_path, PYCLS)
    plan = plan_of(cli, "tools/run_net.py", "--", "--mode", "train", "--cfg", "configs/missing.yaml", cwd=tmp_path)
    micro = ours(plan, "batch.micro")
    assert micro is None or micro.value not in (128, 1024), micro  # neither the default nor a guess
    workers = ours(plan, "data.num_workers")
    assert workers is None, workers
