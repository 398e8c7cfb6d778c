"""Set 24's wrong fields (branch jobs41), each rebuilt as a fixture of our own with a twin that
must keep its reading:

- an optimizer built in an imported module's ``if __name__ == "__main__":`` self-test (InternLM/InternEvo
  @ c628a8c ``internlm/utils/simple_memory_profiler.py:597-655`` ``torch.optim.Adam`` of a toy model);
- FSDP in an imported module under an ``if`` on a config value (``internlm/train/pipeline.py:217-239``
  ``if gpc.config.parallel.zero1.fsdp and ...: model = FSDP(...)``, off in the job's config);
- the transformers attention default of a frozen helper (Tencent/HunyuanDiT @ 368280e
  ``hydit/train_deepspeed.py:347`` ``BertModel.from_pretrained`` for the text encoder, while
  ``deepspeed.initialize(model=model)`` trains the project's own DiT).
"""

from __future__ import annotations

from plan_helpers import fact, plan_of, write

PROFILER = """\
    import torch


    class SimpleMemoryProfiler:
        def __init__(self, model, optimizer):
            self.model, self.optimizer = model, optimizer


    if __name__ == "__main__":
        _model = torch.nn.Linear(4, 4)
        _optimizer = torch.optim.Adam(_model.parameters())
        profiler = SimpleMemoryProfiler(_model, _optimizer)
"""

PIPELINE = """\
    import torch
    from torch.distributed.fsdp import FullyShardedDataParallel as FSDP
    from torch.distributed.fsdp import ShardingStrategy

    from core import gpc


    def wrap_model(model):
        if gpc.config.parallel.zero1.fsdp:
            model = FSDP(module=model, sharding_strategy=ShardingStrategy.FULL_SHARD)
        return model
"""

TRAIN = """\
    import torch

    from internlm.train.pipeline import wrap_model
    from internlm.utils.simple_memory_profiler import SimpleMemoryProfiler


    def main():
        model = wrap_model(build_model())
        optimizer = build_optimizer(model)
        for batch in loader:
            loss = model(batch).sum()
            loss.backward()
            optimizer.step()


    if __name__ == "__main__":
        main()
"""


def _internevo(cli, tmp_path, pipeline: str = PIPELINE, profiler: str = PROFILER) -> dict:
    write(tmp_path, {"train.py": TRAIN, "internlm/__init__.py": "", "internlm/train/__init__.py": "",
                     "internlm/utils/__init__.py": "", "internlm/train/pipeline.py": pipeline,
                     "internlm/utils/simple_memory_profiler.py": profiler, "core.py": "gpc = None\n"})
    return plan_of(cli, "--", "python", "train.py", cwd=tmp_path)


def test_self_test_optimizer_and_guarded_fsdp_of_imported_modules_are_not_the_job(cli, tmp_path):
    plan = _internevo(cli, tmp_path)
    opt = fact(plan, "optimizer.name")
    assert opt is None or opt.value != "Adam", opt
    sharding = fact(plan, "dist.sharding")
    assert sharding is None or sharding.value != "fsdp_full", sharding


def test_twin_optimizer_and_fsdp_outside_the_guards_are_read(cli, tmp_path):
    main_block = PROFILER[PROFILER.index('if __name__ == "__main__":'):]
    profiler = PROFILER.replace(main_block, "def build_optimizer(model):\n"
                                            "        return torch.optim.Adam(model.parameters())\n")
    pipeline = PIPELINE.replace("        if gpc.config.parallel.zero1.fsdp:\n            model = FSDP(",
                                "        model = FSDP(")
    assert profiler != PROFILER and pipeline != PIPELINE
    plan = _internevo(cli, tmp_path, pipeline, profiler)
    sharding = fact(plan, "dist.sharding")
    assert sharding is not None and sharding.value == "fsdp_full", sharding
    opt = fact(plan, "optimizer.name")
    assert opt is not None and opt.value == "Adam", opt


HUNYUAN = """\
    import deepspeed
    import torch
    from transformers import BertModel

    from hydit.models import DiT


    def engine(args, model, config):
        model, opt, _, _ = deepspeed.initialize(model=model, config_params=config, args=args)
        return model


    @torch.no_grad()
    def encode(text_encoder, batch):
        return text_encoder(batch)


    def main(args):
        model = DiT(depth=40)
        text_encoder = BertModel.from_pretrained("ckpts/t2i/clip_text_encoder", False, revision=None)
        text_encoder = text_encoder.half()
        model = engine(args, model, {"train_micro_batch_size_per_gpu": 1})
        for batch in loader:
            loss = model(batch, encode(text_encoder, batch))
            model.backward(loss)
            model.step()
"""


def test_attention_default_of_a_frozen_helper_is_not_the_models(cli, tmp_path):
    write(tmp_path, {"train.py": HUNYUAN, "hydit/__init__.py": "", "hydit/models.py": "class DiT:\n    pass\n",
                     "requirements.txt": "transformers==4.39.1\n"})
    plan = plan_of(cli, "--", "python", "train.py", cwd=tmp_path)
    attn = fact(plan, "model.attn_implementation")
    assert attn is None or attn.value != "sdpa", attn


def test_twin_the_loaded_model_trained_keeps_the_default(cli, tmp_path):
    trained = HUNYUAN.replace("model = engine(args, model,", "model = engine(args, text_encoder,")
    assert trained != HUNYUAN
    write(tmp_path, {"train.py": trained, "hydit/__init__.py": "", "hydit/models.py": "class DiT:\n    pass\n",
                     "requirements.txt": "transformers==4.39.1\n"})
    plan = plan_of(cli, "--", "python", "train.py", cwd=tmp_path)
    attn = fact(plan, "model.attn_implementation")
    assert attn is not None and attn.value == "sdpa", attn
