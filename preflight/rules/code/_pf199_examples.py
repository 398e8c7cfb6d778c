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


_LOADER_APP = textwrap.dedent("""
    import os

    import hydra
    import torch
    from omegaconf import DictConfig, OmegaConf
    from torch.utils.data import DataLoader, Dataset

    from vqa_io import load_annotations, load_sample


    def data_root():
        return os.environ.get("VQA_DATA", "/datasets/vqa2")
    {top}

    class VQADataset(Dataset):
        def __init__(self, config, split):
    {init}
            self.items = load_annotations(split)

        def __len__(self):
            return len(self.items)

        def __getitem__(self, idx):
    {getitem}


    @hydra.main(config_path="conf", config_name="config", version_base=None)
    def main(cfg: DictConfig):
    {register}
        model = torch.nn.Linear(cfg.model.hidden, cfg.model.classes).cuda()
        optimizer = torch.optim.AdamW(model.parameters(), lr=cfg.optim.lr)
        loader = DataLoader(VQADataset({passed}, "train"), batch_size=cfg.data.batch_size, shuffle=True,
                            num_workers={workers}{context})
        for epoch in range(cfg.optim.epochs):
            for x, y in loader:
                loss = torch.nn.functional.cross_entropy(model(x.cuda()), y.cuda())
                optimizer.zero_grad()
                loss.backward()
                optimizer.step()
        torch.save(model.state_dict(), "vqa_model.pt")


    if __name__ == "__main__":
    {entry}
""")


def _loader_app(register: str = 'OmegaConf.register_new_resolver("data_root", data_root)', top: str = "",
                init: str = "self.config = config", getitem: str = "return load_sample(self.config.data.root, "
                "self.items[idx])", passed: str = "cfg", workers: str = "8",
                context: str = ', multiprocessing_context="spawn"', entry: str = "main()") -> str:
    def block(text: str, pad: str) -> str:
        return textwrap.indent(textwrap.dedent(text).strip("\n"), pad)

    return _LOADER_APP.replace("{top}", ("\n" + top + "\n") if top else "") \
        .replace("{init}", block(init, "        ")).replace("{getitem}", block(getitem, "        ")) \
        .replace("{register}", block(register, "    ")).replace("{passed}", passed).replace("{workers}", workers) \
        .replace("{context}", context).replace("{entry}", block(entry, "    "))


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
    # mmf issue 370 (det128): the resolver is registered inside the Hydra task only; the dataset keeps the
    # unresolved config and reads it in __getitem__, in DataLoader workers spawned without that resolver
    _loader_app(register='OmegaConf.register_new_resolver("data_root", data_root)  # error: PF199'),
    # registered under `if __name__ == "__main__":` (a spawned child imports the script as __mp_main__ and skips
    # it); the dataset keeps a config subtree and reads it in a helper __getitem__ calls; a spawn context object
    _loader_app(register="", init="self.data = config", passed="cfg.data",
                getitem="return self._load(idx)\n\ndef _load(self, idx):\n    return load_sample(self.data.root, "
                        "self.items[idx])",
                context=', multiprocessing_context=torch.multiprocessing.get_context("spawn")',
                entry='OmegaConf.register_new_resolver("data_root", data_root)  # error: PF199\nmain()'),
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
    # det128 fix (mmf issue 370): the config is resolved before the dataset keeps it
    _loader_app(register='OmegaConf.register_new_resolver("data_root", data_root)\nOmegaConf.resolve(cfg)'),
    # tricky: registered at module level, which a spawned worker runs again when it imports the script
    _loader_app(register="", top='OmegaConf.register_new_resolver("data_root", data_root)'),
    # tricky: registered in a function the module calls on import
    _loader_app(register="", top='def register_resolvers():\n    OmegaConf.register_new_resolver("data_root", '
                                 'data_root)\n\n\nregister_resolvers()'),
    # tricky: forked workers inherit the parent's resolver registry
    _loader_app(context=', multiprocessing_context="fork"'),
    # tricky: the dataset copies the resolved value in __init__ (read in the parent)
    _loader_app(init="self.root = config.data.root", getitem="return load_sample(self.root, self.items[idx])"),
    # tricky: no worker processes
    _loader_app(workers="0"),
]
