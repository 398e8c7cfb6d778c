"""PF1150 examples: bad ones pin their finding's line, good ones stay silent."""

from __future__ import annotations

import textwrap

_WORKER = textwrap.dedent("""
    import logging
    import logging.config
    import os

    import hydra
    import torch.distributed as dist
    import torch.multiprocessing as mp
    from hydra.core.hydra_config import HydraConfig
    from omegaconf import DictConfig, OmegaConf

    from trainer_lib import build_model, train_one_epoch

    log = logging.getLogger(__name__)


    def train_loop(rank, cfg{params}):
    {setup}    dist.init_process_group("nccl", rank=rank, world_size=cfg.world_size)
        model = build_model(cfg.model, rank)
        for epoch in range(cfg.epochs):
            loss = train_one_epoch(model, rank)
            log.info("rank %d epoch %d loss %.4f", rank, epoch, loss){mark}


    @hydra.main(version_base="1.1", config_path="conf", config_name="config")
    def main(cfg: DictConfig) -> None:
        log.info("config:\\n%s", OmegaConf.to_yaml(cfg))
    {parent}    mp.spawn(train_loop, args=(cfg{args},), nprocs=cfg.world_size, join=True)


    if __name__ == "__main__":
        main()
""")

BAD_EXAMPLES = [
    # Hydra issue 1126: the training loop logs with log.info in mp.spawn workers, Hydra's logging setup is
    # only in the parent
    _WORKER.format(params="", setup="", mark="  # warning: PF1150", parent="", args=""),
    # Hydra issue 1148 (the same in a spawn-method Process; the logging call sits in a helper the target calls)
    textwrap.dedent("""
    import logging
    import multiprocessing

    import hydra
    from omegaconf import DictConfig

    logger = logging.getLogger("train")


    def evaluate(shard):
        score = sum(shard) / len(shard)
        logger.debug("shard score %.3f", score)  # warning: PF1150
        return score


    def worker(shard):
        return evaluate(shard)


    @hydra.main(config_path="conf", config_name="config")
    def main(cfg: DictConfig) -> None:
        ctx = multiprocessing.get_context("spawn")
        procs = [ctx.Process(target=worker, args=(list(range(i, i + 10)),)) for i in range(cfg.shards)]
        for p in procs:
            p.start()
        for p in procs:
            p.join()


    if __name__ == "__main__":
        main()
"""),
]

GOOD_EXAMPLES = [
    # the fix: the resolved job_logging config handed to the workers and applied there
    _WORKER.format(params=", log_cfg", setup="    logging.config.dictConfig(log_cfg)\n", mark="",
                   parent="    log_cfg = OmegaConf.to_container(HydraConfig.get().job_logging, resolve=True)\n",
                   args=", log_cfg"),
    # the worker calls a project helper that sets its logging up
    _WORKER.format(params="", setup="    setup_logger(rank, cfg.log_dir)\n", mark="", parent="", args="").replace(
        "from trainer_lib import build_model, train_one_epoch",
        "from trainer_lib import build_model, setup_logger, train_one_epoch"),
    # tricky-correct: module-level basicConfig runs again when the spawned child imports the script
    _WORKER.format(params="", setup="", mark="", parent="", args="").replace(
        'log = logging.getLogger(__name__)', 'logging.basicConfig(level=logging.INFO)\nlog = logging.getLogger(__name__)'),
    # tricky-correct: a Process under the default fork start method inherits the parent's handlers
    textwrap.dedent("""
    import logging
    import multiprocessing

    import hydra
    from omegaconf import DictConfig

    logger = logging.getLogger("train")


    def worker(shard):
        logger.info("shard %d", len(shard))


    @hydra.main(config_path="conf", config_name="config")
    def main(cfg: DictConfig) -> None:
        procs = [multiprocessing.Process(target=worker, args=(list(range(10)),)) for _ in range(cfg.shards)]
        for p in procs:
            p.start()
        for p in procs:
            p.join()


    if __name__ == "__main__":
        main()
"""),
    # the workers only warn (the last-resort handler prints WARNING and above)
    _WORKER.format(params="", setup="", mark="", parent="", args="").replace(
        'log.info("rank %d epoch %d loss %.4f", rank, epoch, loss)',
        'log.warning("rank %d epoch %d loss %.4f", rank, epoch, loss)'),
    # not a Hydra app: the script's own logging set-up is its business
    textwrap.dedent("""
    import logging

    import torch.multiprocessing as mp

    log = logging.getLogger(__name__)


    def train_loop(rank, world_size):
        log.info("rank %d starting", rank)


    if __name__ == "__main__":
        mp.spawn(train_loop, args=(4,), nprocs=4)
"""),
]
