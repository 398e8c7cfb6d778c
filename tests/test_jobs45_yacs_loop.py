"""A yacs config built in a loop over the launch line's config files and handed to a project launcher
that spawns one process per GPU (adapters/config_object_first_pass.py, adapters/config_object_spawn.py,
read by adapters/config_object_reads.py). A fixture of our own copying the shape of
facebookresearch/SlowFast @ 287ec0076846560f44a9327e931a5a2360240533: tools/run_net.py:15-26 (``args =
parse_args()``, ``for path_to_config in args.cfg_files: cfg = load_config(args, path_to_config); cfg =
assert_and_infer_cfg(cfg); if cfg.TRAIN.ENABLE: launch_job(cfg=cfg, ...)``), slowfast/utils/parser.py:13-94
(``--cfg`` ``dest="cfg_files"`` ``nargs="+"``, ``--opts`` ``nargs=argparse.REMAINDER``; ``get_cfg()``,
``merge_from_file``, ``merge_from_list(args.opts)`` under ``if args.opts is not None``),
slowfast/config/defaults.py:15,1263-1295 (``_C = CfgNode()``, ``BASE_LR *= NUM_SHARDS``, ``return
_C.clone()``), slowfast/utils/misc.py:390-418 (``if cfg.NUM_GPUS > 1: torch.multiprocessing.spawn(...,
nprocs=cfg.NUM_GPUS)``). Each must-find test has a twin that must stay silent."""

from __future__ import annotations

from plan_helpers import fact, plan_of, write

from tests.test_config_object import ours

PARSER = """\
    import argparse
    import sys

    from proj.config.defaults import get_cfg


    def parse_args():
        parser = argparse.ArgumentParser(description="video training")
        parser.add_argument("--shard_id", default=0, type=int)
        parser.add_argument("--num_shards", default=1, type=int)
        parser.add_argument("--cfg", dest="cfg_files", default=["configs/default.yaml"], nargs="+")
        parser.add_argument("--opts", default=None, nargs=argparse.REMAINDER)
        if len(sys.argv) == 1:
            parser.print_help()
        return parser.parse_args()


    def load_config(args, path_to_config=None):
        cfg = get_cfg()
        if path_to_config is not None:
            cfg.merge_from_file(path_to_config)
        if args.opts is not None:
            cfg.merge_from_list(args.opts)
        if hasattr(args, "num_shards") and hasattr(args, "shard_id"):
            cfg.NUM_SHARDS = args.num_shards
            cfg.SHARD_ID = args.shard_id
        return cfg
"""
DEFAULTS = """\
    from fvcore.common.config import CfgNode

    _C = CfgNode()
    _C.TRAIN = CfgNode()
    _C.TRAIN.ENABLE = True
    _C.TRAIN.BATCH_SIZE = 64
    _C.SOLVER = CfgNode()
    _C.SOLVER.BASE_LR = 0.1
    _C.SOLVER.BASE_LR_SCALE_NUM_SHARDS = False
    _C.NUM_GPUS = 1
    _C.NUM_SHARDS = 1
    _C.SHARD_ID = 0
    _C.UNUSED = CfgNode()
    _C.UNUSED.WORKERS = 4
    _C.SOLVER.OPTIMIZING_METHOD = "adam"
    _C.MULTIGRID = CfgNode()
    _C.MULTIGRID.LONG_CYCLE = False
    _C.TRAIN.MIXED_PRECISION = False
    _C.DATA_LOADER = CfgNode()
    _C.DATA_LOADER.NUM_WORKERS = 2
    _C.DATA_LOADER.PIN_MEMORY = False


    def assert_and_infer_cfg(cfg):
        assert cfg.NUM_GPUS == 0 or cfg.TRAIN.BATCH_SIZE % cfg.NUM_GPUS == 0
        if cfg.SOLVER.BASE_LR_SCALE_NUM_SHARDS:
            cfg.SOLVER.BASE_LR *= cfg.NUM_SHARDS
        return cfg


    def get_cfg():
        return _C.clone()
"""
MISC = """\
    import torch


    def run(local_rank, num_proc, func, cfg):
        func(cfg=cfg)


    def launch_job(cfg, init_method, func, daemon=False):
        if cfg.NUM_GPUS > 1:
            torch.multiprocessing.spawn(run, nprocs=cfg.NUM_GPUS, args=(cfg.NUM_GPUS, func, cfg), daemon=daemon)
        else:
            func(cfg=cfg)
"""
RUN_NET = """\
    from proj.config.defaults import assert_and_infer_cfg
    from proj.utils.misc import launch_job
    from proj.utils.parser import load_config, parse_args


    def train(cfg):
        pass


    def main():
        args = parse_args()
        for path_to_config in args.cfg_files:
            cfg = load_config(args, path_to_config)
            cfg = assert_and_infer_cfg(cfg)
            if cfg.TRAIN.ENABLE:
                launch_job(cfg=cfg, init_method="tcp://localhost:9999", func=train)


    if __name__ == "__main__":
        main()
"""
YAML = """\
    TRAIN:
      BATCH_SIZE: 64
    NUM_GPUS: 8
    NUM_SHARDS: 1
    SOLVER:
      OPTIMIZING_METHOD: sgd
    DATA_LOADER:
      NUM_WORKERS: 6
      PIN_MEMORY: True
    UNUSED:
      WORKERS: 12
"""


# SlowFast tools/run_net.py:10 ``from vision.fair.slowfast.tools.train_net import train`` (no ``vision`` package
# in the repository: tools/train_net.py beside the entry), tools/train_net.py:493,511-515 (``cfg`` rebound only
# under ``if cfg.MULTIGRID.LONG_CYCLE``), slowfast/models/optimizer.py:96-115 (the optimizer arm chosen by
# ``cfg.SOLVER.OPTIMIZING_METHOD``)
TRAIN_NET = """\
    import torch


    def build(cfg):
        return cfg


    def train(cfg):
        if cfg.MULTIGRID.LONG_CYCLE:
            cfg = build(cfg)
        model = torch.nn.Linear(4, 4)
        if cfg.SOLVER.OPTIMIZING_METHOD == "sgd":
            optimizer = torch.optim.SGD(model.parameters(), lr=cfg.SOLVER.BASE_LR)
        elif cfg.SOLVER.OPTIMIZING_METHOD == "adam":
            optimizer = torch.optim.Adam(model.parameters(), lr=cfg.SOLVER.BASE_LR)
        loader = construct_loader(cfg, [])
        for x in loader:
            with torch.cuda.amp.autocast(enabled=cfg.TRAIN.MIXED_PRECISION):
                loss = model(x).sum()
            loss.backward()
        return optimizer


    # slowfast/datasets/loader.py:115-170: the loader of each arm takes the same keys
    def construct_loader(cfg, dataset):
        if isinstance(dataset, torch.utils.data.IterableDataset):
            loader = torch.utils.data.DataLoader(dataset, batch_size=8, num_workers=cfg.DATA_LOADER.NUM_WORKERS,
                                                 pin_memory=cfg.DATA_LOADER.PIN_MEMORY)
        else:
            loader = torch.utils.data.DataLoader(dataset, batch_size=8, shuffle=True,
                                                 num_workers=cfg.DATA_LOADER.NUM_WORKERS,
                                                 pin_memory=cfg.DATA_LOADER.PIN_MEMORY)
        return loader
"""
HANDED = RUN_NET.replace("from proj.utils.parser import load_config, parse_args",
                         "from proj.utils.parser import load_config, parse_args\n"
                         "    from vision.fair.proj.tools.train_net import train").replace(
    "    def train(cfg):\n        pass\n\n\n", "")
assert "import train" in HANDED and "pass" not in HANDED


def _project(tmp_path, run_net: str = RUN_NET, misc: str = MISC) -> None:
    write(tmp_path, {"tools/train_net.py": TRAIN_NET, "proj/__init__.py": "", "proj/config/__init__.py": "", "proj/utils/__init__.py": "",
                     "proj/config/defaults.py": DEFAULTS, "proj/utils/parser.py": PARSER,
                     "proj/utils/misc.py": misc, "tools/run_net.py": run_net,
                     "configs/K400/SLOWFAST_8x8.yaml": YAML, "configs/default.yaml": "NUM_GPUS: 2\n"})


def test_the_yaml_the_launch_line_names_sets_the_spawned_count(cli, tmp_path):
    _project(tmp_path)
    plan = plan_of(cli, "tools/run_net.py", "--", "--cfg", "configs/K400/SLOWFAST_8x8.yaml",
                   "DATA.PATH_TO_DATA_DIR", "/data", cwd=tmp_path)
    for field, value in (("dist.world_size", 8), ("dist.devices_per_node", 8), ("dist.nodes", 1)):
        got = ours(plan, field)
        assert got is not None and got.value == value, (field, got)
        assert got.confidence == "medium"
        assert "NUM_GPUS" in got.source.detail and "misc.py" in got.source.detail


def test_an_override_on_the_launch_line_wins_over_the_yaml(cli, tmp_path):
    _project(tmp_path)
    plan = plan_of(cli, "tools/run_net.py", "--", "--cfg", "configs/K400/SLOWFAST_8x8.yaml",
                   "--opts", "NUM_GPUS", "4", cwd=tmp_path)
    got = ours(plan, "dist.world_size")
    assert got is not None and got.value == 4
    assert got.source.kind == "cli"


def test_without_cfg_on_the_launch_line_the_declared_default_file_is_the_job(cli, tmp_path):
    # ``--cfg`` not given: argparse's default ["configs/default.yaml"] is the list the loop runs over
    _project(tmp_path)
    plan = plan_of(cli, "tools/run_net.py", "--", "--shard_id", "0", cwd=tmp_path)
    got = ours(plan, "dist.world_size")
    assert got is not None and got.value == 2 and got.source.path == "configs/default.yaml"


def test_a_count_not_read_from_the_config_says_nothing(cli, tmp_path):
    # the YAML sets NUM_GPUS 8 but the launcher spawns torch.cuda.device_count() processes: a key the code never
    # reads for the count gives no count
    misc = MISC.replace("nprocs=cfg.NUM_GPUS", "nprocs=torch.cuda.device_count()")
    _project(tmp_path, misc=misc)
    plan = plan_of(cli, "tools/run_net.py", "--", "--cfg", "configs/K400/SLOWFAST_8x8.yaml", cwd=tmp_path)
    assert ours(plan, "dist.world_size") is None
    assert ours(plan, "dist.devices_per_node") is None


def test_a_spawn_the_config_skips_is_not_read(cli, tmp_path):
    # ``if cfg.NUM_GPUS > 1`` false with NUM_GPUS 1 on the launch line: no spawn, no count from it
    _project(tmp_path)
    plan = plan_of(cli, "tools/run_net.py", "--", "--cfg", "configs/K400/SLOWFAST_8x8.yaml",
                   "--opts", "NUM_GPUS", "1", cwd=tmp_path)
    assert ours(plan, "dist.devices_per_node") is None


def test_a_loop_over_another_option_is_not_unrolled(cli, tmp_path):
    # the loop runs over seeds, not config files: its body may run any number of times and its config is
    # not read as the job's
    run_net = RUN_NET.replace("for path_to_config in args.cfg_files:", "for path_to_config in args.seeds:")
    parser = PARSER.replace('parser.add_argument("--opts"', 'parser.add_argument("--seeds", default=None, nargs="+")\n'
                            '        parser.add_argument("--opts"')
    _project(tmp_path, run_net=run_net)
    write(tmp_path, {"proj/utils/parser.py": parser})
    plan = plan_of(cli, "tools/run_net.py", "--", "--cfg", "configs/K400/SLOWFAST_8x8.yaml", "--seeds", "1", "2",
                   cwd=tmp_path)
    assert ours(plan, "dist.world_size") is None


def test_under_torchrun_only_the_count_per_machine_is_read(cli, tmp_path):
    _project(tmp_path)
    plan = plan_of(cli, "--", "torchrun", "--nproc_per_node", "8", "tools/run_net.py", "--cfg",
                   "configs/K400/SLOWFAST_8x8.yaml", cwd=tmp_path)
    got = ours(plan, "dist.devices_per_node")
    assert got is not None and got.value == 8
    assert ours(plan, "dist.nodes") is None


def test_the_config_reaches_a_function_handed_to_the_launcher(cli, tmp_path):
    _project(tmp_path, run_net=HANDED)
    plan = plan_of(cli, "tools/run_net.py", "--", "--cfg", "configs/K400/SLOWFAST_8x8.yaml", cwd=tmp_path)
    got = ours(plan, "optimizer.name")
    assert got is not None and got.value == "SGD"
    assert got.source.path == "configs/K400/SLOWFAST_8x8.yaml"
    # the loop of tools/train_net.py is visible: the absences the whole-job reading writes (visible_code.py)
    compiled = fact(plan, "compile.enabled")
    assert compiled is not None and compiled.value is False and compiled.adapter == "visible_code"


def test_a_rebinding_the_config_takes_keeps_the_handed_function_unread(cli, tmp_path):
    # MULTIGRID.LONG_CYCLE True on the launch line: ``cfg = build(cfg)`` runs, what ``cfg`` holds after it is
    # not followed, and the optimizer arm is not read from the YAML
    _project(tmp_path, run_net=HANDED)
    plan = plan_of(cli, "tools/run_net.py", "--", "--cfg", "configs/K400/SLOWFAST_8x8.yaml",
                   "--opts", "MULTIGRID.LONG_CYCLE", "True", cwd=tmp_path)
    assert ours(plan, "optimizer.name") is None


def test_a_package_path_that_does_not_end_beside_the_entry_is_not_followed(cli, tmp_path):
    # ``from vision.fair.proj.other.train_net import train``: not a sibling of tools/run_net.py
    _project(tmp_path, run_net=HANDED.replace("vision.fair.proj.tools.train_net", "vision.fair.proj.other.train_net"))
    plan = plan_of(cli, "tools/run_net.py", "--", "--cfg", "configs/K400/SLOWFAST_8x8.yaml", cwd=tmp_path)
    assert ours(plan, "optimizer.name") is None
    assert fact(plan, "compile.enabled") is None


def test_a_foreign_package_path_whose_head_is_in_the_project_is_not_a_sibling(cli, tmp_path):
    # ``vision/`` exists in the project: the import names that package (not found there), not tools/train_net.py
    _project(tmp_path, run_net=HANDED)
    write(tmp_path, {"vision/__init__.py": ""})
    plan = plan_of(cli, "tools/run_net.py", "--", "--cfg", "configs/K400/SLOWFAST_8x8.yaml", cwd=tmp_path)
    assert ours(plan, "optimizer.name") is None


def test_loaders_in_every_arm_with_the_same_keys_give_workers_and_pinning(cli, tmp_path):
    _project(tmp_path, run_net=HANDED)
    plan = plan_of(cli, "tools/run_net.py", "--", "--cfg", "configs/K400/SLOWFAST_8x8.yaml", cwd=tmp_path)
    workers, pin = ours(plan, "data.num_workers"), ours(plan, "data.pin_memory")
    assert workers is not None and workers.value == 6 and pin is not None and pin.value is True


def test_an_arm_whose_loader_takes_another_value_leaves_the_workers_unread(cli, tmp_path):
    _project(tmp_path, run_net=HANDED)
    write(tmp_path, {"tools/train_net.py": TRAIN_NET.replace(
        "batch_size=8, num_workers=cfg.DATA_LOADER.NUM_WORKERS,", "batch_size=8, num_workers=0,")})
    plan = plan_of(cli, "tools/run_net.py", "--", "--cfg", "configs/K400/SLOWFAST_8x8.yaml", cwd=tmp_path)
    assert ours(plan, "data.num_workers") is None
    got = ours(plan, "data.pin_memory")
    assert got is not None and got.value is True


def test_an_autocast_switch_the_config_turns_off_is_fp32_and_on_is_fp16(cli, tmp_path):
    _project(tmp_path, run_net=HANDED)
    off = plan_of(cli, "tools/run_net.py", "--", "--cfg", "configs/K400/SLOWFAST_8x8.yaml", cwd=tmp_path)
    got = ours(off, "precision.mode")
    assert got is not None and got.value == "fp32" and got.source.path == "proj/config/defaults.py"
    on = plan_of(cli, "tools/run_net.py", "--", "--cfg", "configs/K400/SLOWFAST_8x8.yaml",
                 "--opts", "TRAIN.MIXED_PRECISION", "True", cwd=tmp_path)
    got = ours(on, "precision.mode")
    assert got is not None and got.value == "amp_fp16"


def test_an_autocast_dtype_not_read_leaves_the_precision_unread(cli, tmp_path):
    _project(tmp_path, run_net=HANDED)
    write(tmp_path, {"tools/train_net.py": TRAIN_NET.replace(
        "autocast(enabled=cfg.TRAIN.MIXED_PRECISION)", "autocast(enabled=cfg.TRAIN.MIXED_PRECISION, dtype=cfg.DTYPE)")})
    plan = plan_of(cli, "tools/run_net.py", "--", "--cfg", "configs/K400/SLOWFAST_8x8.yaml", cwd=tmp_path)
    assert ours(plan, "precision.mode") is None
