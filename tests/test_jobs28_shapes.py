"""Set 19's wrong shapes (branch jobs28): fixtures of our own rebuilding the real code's shape, each
with a must-read test and a twin that must stay as before.

- a DeepSpeed JSON named on the launch line that the script opens only for another value of an
  option the line also gives (FunAudioLLM/CosyVoice @ ace7c47 ``examples/libritts/cosyvoice2/run.sh:71-91``
  ``--train_engine torch_ddp ... --deepspeed_config ./conf/ds_stage2.json``; ``cosyvoice/utils/
  train_utils.py:73-76`` opens it in the ``else`` arm of ``if args.train_engine == "torch_ddp"``,
  ``:133-136`` ``deepspeed.initialize(args=args)`` only for ``deepspeed``, ``:97-100`` DDP);
- a GradScaler in the entry script whose autocast, with a dtype chosen there, is in a project module
  (``cosyvoice/bin/train.py:177`` and ``train_utils.py:249-250``);
- a ``.half()`` of a model in a branch a config value decides and the job's options do not
  (Plachtaa/seed-vc @ d334fb7 ``train.py:169-213``: the xlsr feature extractor's ``.half()``).
"""

from __future__ import annotations

from plan_helpers import fact, plan_of, write

TRAIN = """\
    import argparse

    import deepspeed
    import torch

    from pkg.utils.train_utils import check_config, wrap_model, make_optimizer


    def main():
        parser = argparse.ArgumentParser()
        parser.add_argument('--train_engine', default='torch_ddp', choices=['torch_ddp', 'deepspeed'])
        parser.add_argument('--use_amp', action='store_true')
        parser = deepspeed.add_config_arguments(parser)
        args = parser.parse_args()
        configs = check_config(args, {'train_conf': {'accum_grad': 2}})
        model = wrap_model(args, torch.nn.Linear(8, 8))
        model, optimizer = make_optimizer(args, configs, model)
        scaler = torch.cuda.amp.GradScaler() if args.use_amp else None
        return model, optimizer, scaler


    if __name__ == '__main__':
        main()
"""

UTILS = """\
    import json

    import deepspeed
    import torch


    def check_config(args, configs):
        if args.train_engine == "torch_ddp":
            configs['train_conf']['dtype'] = 'bf16' if args.use_amp else 'fp32'
        else:
            with open(args.deepspeed_config) as fin:
                ds = json.load(fin)
            configs['train_conf']['accum_grad'] = ds['gradient_accumulation_steps']
        return configs


    def wrap_model(args, model):
        if args.train_engine == "torch_ddp":
            model.cuda()
            model = torch.nn.parallel.DistributedDataParallel(model)
        return model


    def make_optimizer(args, configs, model):
        optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
        if args.train_engine == "deepspeed":
            model, optimizer, _, _ = deepspeed.initialize(args=args, model=model, optimizer=None,
                                                          model_parameters=model.parameters())
        return model, optimizer


    def step(model, batch, dtype, scaler):
        with torch.cuda.amp.autocast(enabled=scaler is not None, dtype={dtype}):
            return model(batch)
"""

DS = """\
    {
      "train_micro_batch_size_per_gpu": 1,
      "gradient_accumulation_steps": 1,
      "bf16": {"enabled": false},
      "fp16": {"enabled": true},
      "zero_optimization": {"stage": 2},
      "optimizer": {"type": "AdamW", "params": {"lr": 0.001}}
    }
"""


def _project(tmp_path, dtype: str = "dtype") -> None:
    write(tmp_path, {"pkg/__init__.py": "", "pkg/bin/train.py": TRAIN, "pkg/utils/__init__.py": "",
                     "pkg/utils/train_utils.py": UTILS.replace("{dtype}", dtype),
                     "examples/run/conf/ds_stage2.json": DS})


def _line(engine: str) -> list[str]:
    return ["--", "torchrun", "--nnodes=1", "--nproc_per_node=4", "../../pkg/bin/train.py", "--train_engine", engine,
            "--use_amp", "--deepspeed_config", "./conf/ds_stage2.json"]


def test_deepspeed_json_opened_only_for_another_engine_decides_nothing(cli, tmp_path):
    _project(tmp_path)
    plan = plan_of(cli, *_line("torch_ddp"), cwd=tmp_path / "examples" / "run")
    sharding = fact(plan, "dist.sharding")
    assert sharding is not None and sharding.value == "ddp", sharding
    for field in ("batch.grad_accum", "optimizer.name", "batch.micro"):
        got = fact(plan, field)
        assert got is None or "ds_stage2.json" not in str(got.source.path), (field, got)
    precision = fact(plan, "precision.mode")
    assert precision is None or precision.value not in ("fp16", "amp_fp16"), precision
    assert any("ds_stage2.json" in n and "branch the job's flags do not take" in n for n in plan["notes"])


def test_twin_the_engine_that_opens_the_json_keeps_it(cli, tmp_path):
    _project(tmp_path)
    plan = plan_of(cli, *_line("deepspeed"), cwd=tmp_path / "examples" / "run")
    assert fact(plan, "dist.sharding").value == "zero2"
    assert fact(plan, "batch.grad_accum").value == 1
    assert fact(plan, "optimizer.name").value == "AdamW"


def test_twin_a_json_whose_read_is_not_guarded_stays_evidence(cli, tmp_path):
    _project(tmp_path)
    utils = tmp_path / "pkg" / "utils" / "train_utils.py"
    utils.write_text(utils.read_text().replace('    if args.train_engine == "deepspeed":\n        model, optimizer',
                                               '    if True:\n        model, optimizer'))
    plan = plan_of(cli, *_line("torch_ddp"), cwd=tmp_path / "examples" / "run")
    assert fact(plan, "dist.sharding").value == "zero2"


def test_twin_a_scaler_with_an_fp16_autocast_in_the_module_still_says_amp_fp16(cli, tmp_path):
    _project(tmp_path, dtype="torch.float16")
    plan = plan_of(cli, *_line("torch_ddp"), cwd=tmp_path / "examples" / "run")
    assert fact(plan, "precision.mode").value == "amp_fp16"


SEEDVC = """\
    import argparse

    import torch
    import yaml
    from transformers import Wav2Vec2Model, WhisperModel


    class Trainer:
        def __init__(self, config_path, fp16):
            config = yaml.safe_load(open(config_path))
            self.model = torch.nn.Linear(8, 8).cuda()
            {cast}
            self.build_semantic_fn('cuda', config)
            self.optimizer = torch.optim.AdamW(self.model.parameters(), lr=1e-4)

        def build_semantic_fn(self, device, config):
            kind = config['model_params']['speech_tokenizer'].get('type', 'cosyvoice')
            if kind == 'whisper':
                self.whisper_model = WhisperModel.from_pretrained('openai/whisper-small').to(device)
            elif kind == 'xlsr':
                self.wav2vec_model = Wav2Vec2Model.from_pretrained('facebook/wav2vec2-xls-r-300m')
                self.wav2vec_model = self.wav2vec_model.eval()
                self.wav2vec_model = self.wav2vec_model.half()

        def train(self, loader):
            for x in loader:
                self.optimizer.zero_grad()
                self.model(x).sum().backward()
                self.optimizer.step()


    if __name__ == '__main__':
        parser = argparse.ArgumentParser()
        parser.add_argument('--config', type=str)
        parser.add_argument('--fp16', action='store_true')
        args = parser.parse_args()
        Trainer(args.config, args.fp16).train([])
"""

_PRESET = "model_params:\n  speech_tokenizer:\n    type: whisper\n    name: openai/whisper-small\n"


def test_half_in_a_branch_a_config_value_picks_is_not_the_precision(cli, tmp_path):
    write(tmp_path, {"train.py": SEEDVC.replace("{cast}", "pass"), "preset.yml": _PRESET})
    plan = plan_of(cli, "train.py", "--", "--config", "preset.yml", cwd=tmp_path)
    precision = fact(plan, "precision.mode")
    assert precision is None or precision.value != "fp16", precision


def test_twin_half_under_a_flag_the_line_gives_is_fp16(cli, tmp_path):
    write(tmp_path, {"train.py": SEEDVC.replace("{cast}", "if fp16:\n                self.model = self.model.half()"),
                     "preset.yml": _PRESET})
    src = (tmp_path / "train.py").read_text().replace("if fp16:", "if args.fp16:")
    (tmp_path / "train.py").write_text(src)
    plan = plan_of(cli, "train.py", "--", "--config", "preset.yml", "--fp16", cwd=tmp_path)
    assert fact(plan, "precision.mode").value == "fp16"


# FoundationVision/LlamaGen @ ce98ec4: autoregressive/models/gpt.py:29-50 ``@dataclass class ModelArgs``
# with ``max_seq_len: int = 2048`` (the rotary cache), the model built by a constructor function from
# a dict with ``block_size=latent_size ** 2`` (train_c2i_fsdp.py:164-167); only argparse parses the line
GPT = """\
    from dataclasses import dataclass

    import torch


    @dataclass
    class ModelArgs:
        dim: int = 4096
        n_layer: int = 32
        block_size: int = 256
        max_seq_len: int = 2048


    class Transformer(torch.nn.Module):
        def __init__(self, config):
            super().__init__()
            self.proj = torch.nn.Linear(config.dim, config.dim)


    def GPT_B(**kwargs):
        return Transformer(ModelArgs(n_layer=12, dim=768, **kwargs))


    GPT_models = {'GPT-B': GPT_B}
"""

LLAMAGEN = """\
    import argparse

    import torch
    {imports}


    def main(args):
        latent_size = args.image_size // 16
        model = GPT_models[args.gpt_model](block_size=latent_size ** 2).cuda()
        optimizer = torch.optim.AdamW(model.parameters(), lr=1e-4)
        loader = torch.utils.data.DataLoader([], batch_size=8)
        for x in loader:
            optimizer.zero_grad()
            model(x).sum().backward()
            optimizer.step()


    if __name__ == '__main__':
        parser = argparse.ArgumentParser()
        parser.add_argument('--gpt-model', type=str, default='GPT-B')
        parser.add_argument('--image-size', type=int, default=256)
        main(parser.parse_args())
"""


def test_a_model_config_class_default_is_not_the_sequence_length(cli, tmp_path):
    write(tmp_path, {"models/__init__.py": "", "models/gpt.py": GPT,
                     "train.py": LLAMAGEN.replace("{imports}", "from models.gpt import GPT_models")})
    plan = plan_of(cli, "train.py", "--", "--image-size", "384", cwd=tmp_path)
    seq = fact(plan, "data.seq_len")
    assert seq is None or seq.value != 2048, seq


HF_ARGS = """\
    from dataclasses import dataclass, field

    from transformers import HfArgumentParser, Trainer, TrainingArguments


    @dataclass
    class DataArguments:
        max_seq_len: int = field(default=2048)


    if __name__ == '__main__':
        data_args, training_args = HfArgumentParser((DataArguments, TrainingArguments)).parse_args_into_dataclasses()
        Trainer(model=None, args=training_args).train()
"""


def test_twin_a_dataclass_the_parser_reads_keeps_its_default(cli, tmp_path):
    write(tmp_path, {"train.py": HF_ARGS})
    plan = plan_of(cli, "train.py", "--", "--output_dir", "out", cwd=tmp_path)
    assert fact(plan, "data.seq_len").value == 2048


# cloneofsimo/minRF @ README.md:34 ``python rf.py --cifar``: one process, no launcher; it runs on one node
ONE = """\
    import argparse

    import torch
    {spawn}

    def main(rank=0):
        model = torch.nn.Linear(8, 8).cuda()
        optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
        for x in torch.utils.data.DataLoader([], batch_size=4):
            optimizer.zero_grad()
            model(x).sum().backward()
            optimizer.step()


    if __name__ == '__main__':
        parser = argparse.ArgumentParser()
        parser.add_argument('--cifar', action='store_true')
        args = parser.parse_args()
        {run}
"""


def test_plain_python_is_one_node(cli, tmp_path):
    write(tmp_path, {"rf.py": ONE.replace("{spawn}", "").replace("{run}", "main()")})
    plan = plan_of(cli, "--", "python", "rf.py", "--cifar", cwd=tmp_path)
    assert fact(plan, "dist.nodes").value == 1
    assert fact(plan, "dist.world_size").value == 1


def test_twin_a_script_that_spawns_its_own_processes_gets_no_node_count_from_python(cli, tmp_path):
    write(tmp_path, {"rf.py": ONE.replace("{spawn}", "import torch.multiprocessing as mp")
                     .replace("{run}", "mp.spawn(main, nprocs=4)")})
    plan = plan_of(cli, "--", "python", "rf.py", "--cifar", cwd=tmp_path)
    nodes = fact(plan, "dist.nodes")
    assert nodes is None or nodes.source.key != "python", nodes


# policy-gradient/GRPO-Zero (README.md:84 ``train.py --config config_24GB.yaml``): ``main(args.config)``,
# ``def main(config_path)`` opens the YAML into a dict of sections; the model path and the micro batch are
# read through subscripts, the micro batch handed to a helper that slices the generated episodes
GRPO = """\
    from argparse import ArgumentParser

    import torch
    import yaml
    from transformers import AutoModelForCausalLM


    def update_policy(model, optimizer, episodes, micro_batch_size):
        for i in range(0, len(episodes), micro_batch_size):
            model(episodes[i:i + micro_batch_size]).sum().backward()
        optimizer.step()
        optimizer.zero_grad()


    def main(config_path):
        with open(config_path, "r") as f:
            config = yaml.safe_load(f)
        model = AutoModelForCausalLM.from_pretrained(config["model"]["pretrained_model_path"])
        optimizer = torch.optim.AdamW(model.parameters(), lr=config["training"]["learning_rate"])
        loader = torch.utils.data.DataLoader([], batch_size=config["training"]["num_questions_per_batch"])
        for batch in loader:
            update_policy(model, optimizer, batch, {micro})


    if __name__ == "__main__":
        parser = ArgumentParser()
        parser.add_argument("--config", type=str, default="config.yaml")
        args = parser.parse_args()
        main(args.config)
"""

GRPO_YAML = """\
    model:
      pretrained_model_path: "Qwen/Qwen2.5-3B-Instruct"
    training:
      batch_size: 256
      num_questions_per_batch: 32
      micro_batch_size: 2
      learning_rate: 1.0e-5
"""


def test_a_yaml_of_sections_opened_from_a_parameter_gives_the_model_and_micro_batch(cli, tmp_path):
    write(tmp_path, {"train.py": GRPO.replace("{micro}", 'config["training"]["micro_batch_size"]'),
                     "config_24GB.yaml": GRPO_YAML})
    plan = plan_of(cli, "--", "python", "train.py", "--config", "config_24GB.yaml", cwd=tmp_path)
    assert fact(plan, "model.ref").value == "Qwen/Qwen2.5-3B-Instruct"
    micro = fact(plan, "batch.micro")
    assert micro.value == 2 and micro.confidence == "low"  # from the key's name: a guess


def test_twin_without_a_micro_batch_key_the_loader_batch_is_the_micro_batch(cli, tmp_path):
    write(tmp_path, {"train.py": GRPO.replace("{micro}", "len(batch)"), "config_24GB.yaml": GRPO_YAML})
    plan = plan_of(cli, "--", "python", "train.py", "--config", "config_24GB.yaml", cwd=tmp_path)
    assert fact(plan, "batch.micro").value == 32


def test_twin_the_default_config_path_is_read_when_the_line_gives_none(cli, tmp_path):
    write(tmp_path, {"train.py": GRPO.replace("{micro}", 'config["training"]["micro_batch_size"]'),
                     "config.yaml": GRPO_YAML.replace("Qwen2.5-3B-Instruct", "Qwen2.5-0.5B")})
    plan = plan_of(cli, "--", "python", "train.py", cwd=tmp_path)
    assert fact(plan, "model.ref").value == "Qwen/Qwen2.5-0.5B"


# allenai/OLMo-core @ fa6c501 src/examples/llm/train.py:165-193: the job's settings are keywords of the
# library's config classes built in code (batch sizes in tokens, the optimizer a config class, FSDP with a
# bf16 param dtype, compile_model=True); launched with torchrun --nproc-per-node=4
OLMO = """\
    import argparse

    from olmo_core.config import DType
    from olmo_core.data import NumpyDataLoaderConfig
    from olmo_core.distributed.parallel import DataParallelType
    from olmo_core.optim import {optim}
    from olmo_core.train.train_module import TransformerDataParallelConfig, TransformerTrainModuleConfig
    from olmo_core.train.train_module import TransformerActivationCheckpointingConfig


    def build_config(opts):
        data_loader_config = NumpyDataLoaderConfig(global_batch_size=256 * 1024, seed=0, num_workers=4)
        train_module_config = TransformerTrainModuleConfig(
            rank_microbatch_size=16 * 1024,
            max_sequence_length=opts.sequence_length,
            optim={optim}(lr=1e-3, compile=True),
            compile_model={compile},{ac}
            dp_config=TransformerDataParallelConfig(name=DataParallelType.{dp}, param_dtype=DType.bfloat16),
        )
        return data_loader_config, train_module_config


    def main():
        parser = argparse.ArgumentParser()
        parser.add_argument("run_name", type=str)
        parser.add_argument("--sequence-length", type=int, default=2048)
        opts, overrides = parser.parse_known_args()
        loader, module = build_config(opts)
        module.build(None)


    if __name__ == "__main__":
        main()
"""


def test_library_config_objects_built_in_code_give_the_plan(cli, tmp_path):
    write(tmp_path, {"train.py": OLMO.replace("{optim}", "AdamWConfig").replace("{compile}", "True")
                     .replace("{dp}", "fsdp").replace("{ac}", "")})
    plan = plan_of(cli, "--", "torchrun", "--nproc-per-node=4", "train.py", "run01", cwd=tmp_path)
    ckpt = fact(plan, "memory.gradient_checkpointing")
    assert ckpt is None or ckpt.value is False, ckpt
    assert fact(plan, "data.seq_len").value == 2048
    assert fact(plan, "batch.global").value == 128  # 256 * 1024 tokens / 2048
    assert fact(plan, "batch.micro").value == 8  # 16 * 1024 tokens / 2048
    assert fact(plan, "batch.grad_accum").value == 4  # 128 / (4 x 8)
    assert fact(plan, "optimizer.name").value == "AdamW"
    assert fact(plan, "compile.enabled").value is True
    assert fact(plan, "data.num_workers").value == 4
    assert fact(plan, "dist.sharding").value == "fsdp_full"
    assert fact(plan, "precision.mode").value == "amp_bf16"


def test_twin_other_values_of_the_same_keywords(cli, tmp_path):
    ac = "\n            ac_config=TransformerActivationCheckpointingConfig(),"
    write(tmp_path, {"train.py": OLMO.replace("{optim}", "SGDConfig").replace("{compile}", "False")
                     .replace("{dp}", "ddp").replace("{ac}", ac)})
    plan = plan_of(cli, "--", "torchrun", "--nproc-per-node=2", "train.py", "run01", "--sequence-length", "4096",
                   cwd=tmp_path)
    assert fact(plan, "data.seq_len").value == 4096
    assert fact(plan, "batch.global").value == 64
    assert fact(plan, "batch.micro").value == 4
    assert fact(plan, "batch.grad_accum").value == 8
    assert fact(plan, "optimizer.name").value == "SGD"
    assert fact(plan, "compile.enabled").value is False  # the optimizer config's compile=True is its step's
    assert fact(plan, "memory.gradient_checkpointing").value is True
    assert fact(plan, "dist.sharding").value == "ddp"
    precision = fact(plan, "precision.mode")
    assert precision is None or precision.source.path != "train.py" or "param_dtype" not in precision.source.detail


def test_twin_a_config_class_of_another_library_with_batch_keywords_is_not_counted_in_tokens(cli, tmp_path):
    write(tmp_path, {"train.py": OLMO.replace("olmo_core.data import", "mylib.data import")
                     .replace("{optim}", "AdamWConfig").replace("{compile}", "True").replace("{dp}", "fsdp")
                     .replace("{ac}", "")})
    plan = plan_of(cli, "--", "torchrun", "--nproc-per-node=4", "train.py", "run01", cwd=tmp_path)
    glob = fact(plan, "batch.global")
    assert glob is None or glob.value != 128, glob


# pacman100/DHS-LLM-Workshop @ 0ba4156 chat_assistant/dpo/utils.py:172-178: the attention kernel is a key of
# a dict literal of from_pretrained keywords, chosen by an option the launch line gives (run_dpo.sh
# ``--use_flash_attn True``)
DHS_UTILS = """\
    from transformers import AutoModelForCausalLM


    def create_and_prepare_model(args):
        model_kwargs = {
            "trust_remote_code": True,
            "attn_implementation": "flash_attention_2" if args.use_flash_attn else "eager",
        }
        return AutoModelForCausalLM.from_pretrained(args.model_name_or_path, **model_kwargs), model_kwargs
"""

DHS_TRAIN = """\
    import argparse

    from utils import create_and_prepare_model

    if __name__ == "__main__":
        parser = argparse.ArgumentParser()
        parser.add_argument("--model_name_or_path", default="mistralai/Mistral-7B-v0.1")
        parser.add_argument("--use_flash_attn", action="store_true")
        args = parser.parse_args()
        model, kwargs = create_and_prepare_model(args)
        model.train()
"""


def test_attention_key_of_a_dict_literal_decided_by_the_line(cli, tmp_path):
    write(tmp_path, {"train.py": DHS_TRAIN, "utils.py": DHS_UTILS})
    plan = plan_of(cli, "--", "python", "train.py", "--use_flash_attn", cwd=tmp_path)
    assert fact(plan, "model.attn_implementation").value == "flash_attention_2"


def test_twin_the_flag_not_given_picks_the_other_arm(cli, tmp_path):
    write(tmp_path, {"train.py": DHS_TRAIN, "utils.py": DHS_UTILS})
    plan = plan_of(cli, "--", "python", "train.py", cwd=tmp_path)
    attn = fact(plan, "model.attn_implementation")
    assert attn is not None and attn.value == "eager", attn


# McGill-NLP/nano-aha-moment @ 6cd0306 nano_r1_script.py:1158-1161 (README.md:64 ``python nano_r1_script.py
# --nproc 4``): the script starts its own processes with torch.multiprocessing.spawn
SPAWN = """\
    import argparse

    import torch
    import torch.distributed as dist


    def main(rank):
        dist.init_process_group("nccl", rank=rank, world_size=args.nproc)
        model = torch.nn.Linear(8, 8).cuda()
        optimizer = torch.optim.AdamW(model.parameters(), lr=1e-6)
        for x in torch.utils.data.DataLoader([], batch_size=8):
            optimizer.zero_grad()
            model(x).sum().backward()
            optimizer.step()


    if __name__ == "__main__":
        parser = argparse.ArgumentParser()
        parser.add_argument("--nproc", type=int, default=1)
        args = parser.parse_args()
        if args.nproc == 1:
            main(rank=0)
        else:
            torch.multiprocessing.spawn(main, nprocs={nprocs})
"""


def test_processes_a_script_spawns_by_an_option_are_the_world_size(cli, tmp_path):
    write(tmp_path, {"nano_r1_script.py": SPAWN.replace("{nprocs}", "args.nproc")})
    plan = plan_of(cli, "--", "python", "nano_r1_script.py", "--nproc", "4", cwd=tmp_path)
    assert fact(plan, "dist.world_size").value == 4
    assert fact(plan, "dist.nodes").value == 1


def test_twin_a_count_not_read_statically_gives_no_world_size(cli, tmp_path):
    write(tmp_path, {"nano_r1_script.py": SPAWN.replace("{nprocs}", "torch.cuda.device_count()")})
    plan = plan_of(cli, "--", "python", "nano_r1_script.py", "--nproc", "4", cwd=tmp_path)
    world = fact(plan, "dist.world_size")
    assert world is None or world.source.key not in ("nprocs", "python"), world
