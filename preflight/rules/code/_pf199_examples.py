"""PF199 examples (single files): bad ones must fire at the pinned line, good ones stay silent."""

from __future__ import annotations

import textwrap

_APP = textwrap.dedent("""
    import os

    import hydra
    import torch
    import torch.distributed as dist
    import torch.multiprocessing as mp
    from hydra.core.hydra_config import HydraConfig
    from hydra.utils import get_original_cwd
    from omegaconf import DictConfig

    from data import build_dataset


    def setup(rank, world_size):
        os.environ.setdefault("MASTER_ADDR", "localhost")
        os.environ.setdefault("MASTER_PORT", "29500")
        dist.init_process_group("nccl", rank=rank, world_size=world_size)


    def train(rank, world_size, cfg{extra_param}):
        setup(rank, world_size)
    {body}
        dataset = build_dataset(data_root)
        model = torch.nn.parallel.DistributedDataParallel(torch.nn.Linear(32, 4).to(rank), device_ids=[rank])
        optimizer = torch.optim.SGD(model.parameters(), lr=cfg.lr)
        for x, y in torch.utils.data.DataLoader(dataset, batch_size=cfg.batch_size):
            loss = torch.nn.functional.cross_entropy(model(x.to(rank)), y.to(rank))
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()


    @hydra.main(version_base="1.1", config_path="conf", config_name="config")
    def main(cfg: DictConfig) -> None:
        world_size = torch.cuda.device_count()
    {launch}


    if __name__ == "__main__":
        main()
""")


def _app(body: str, launch: str = "    mp.spawn(train, args=(world_size, cfg), nprocs=world_size)",
         extra_param: str = "") -> str:
    return _APP.replace("{body}", textwrap.indent(textwrap.dedent(body).strip("\n"), "    ")) \
        .replace("{launch}", launch).replace("{extra_param}", extra_param)


BAD = [
    # Hydra issue 1904: get_original_cwd() in the mp.spawn worker: HydraConfig is empty in the child
    _app("""
        data_root = os.path.join(get_original_cwd(), cfg.data_dir)  # error: PF199
    """),
    # HydraConfig.get() in a helper the spawned worker calls
    _app("""
        data_root = resolve_root(cfg)
    """) + textwrap.dedent("""

    def resolve_root(cfg):
        return os.path.join(HydraConfig.get().runtime.cwd, cfg.data_dir)  # error: PF199
    """),
]

GOOD = [
    # the fix: read in the parent, pass it down
    _app("""
        data_root = os.path.join(orig_cwd, cfg.data_dir)
    """, launch="    mp.spawn(train, args=(world_size, cfg, get_original_cwd()), nprocs=world_size)",
         extra_param=", orig_cwd"),
    # tricky: a forked Process (Linux default start method) inherits the parent's HydraConfig
    _app("""
        data_root = os.path.join(get_original_cwd(), cfg.data_dir)
    """, launch="    procs = [mp.Process(target=train, args=(r, world_size, cfg)) for r in range(world_size)]\n"
                "    for p in procs:\n        p.start()"),
    # tricky: guarded by HydraConfig.initialized()
    _app("""
        data_root = os.path.join(get_original_cwd() if HydraConfig.initialized() else os.getcwd(), cfg.data_dir)
    """),
]
