"""The model in real jobs (issue 15, branch jobs32): shapes of the real-jobs benchmark rebuilt as small
projects of our own, each citing the repository, path and commit it follows, with must-stay-unknown twins."""

from __future__ import annotations

from pathlib import Path

from plan_helpers import plan_of, winner, write


def facts(plan: dict, field: str, adapter: str) -> list:
    return [f for f in plan["fields"].get(field, []) if f["adapter"] == adapter]


# --- a model built from scratch out of a Hub config ------------------------------------------------
# LLM360/amber-train main.py:27,30,147-148 @ 64bc595600324ebb7d6d559af76a8702f0872776: the Hub id is an
# f-string of module constants, the config loaded inline into the model class (new weights).
AMBER = """\
    from transformers import AutoConfig, LlamaForCausalLM

    MODEL_SIZE = '{size}'
    HF_MODEL_NAME_OR_PATH = f'{owner}/llama-{{MODEL_SIZE}}'


    def main():
        {build}
        model.train()


    if __name__ == '__main__':
        main()
"""
INLINE = "model = LlamaForCausalLM(config=AutoConfig.from_pretrained(HF_MODEL_NAME_OR_PATH))"


def test_a_model_built_from_a_hub_config_names_it_and_counts_it_offline(cli, tmp_path: Path) -> None:
    write(tmp_path, {"main.py": AMBER.format(size="3.2-3B", owner="meta-llama", build=INLINE)})
    plan = plan_of(cli, "main.py", cwd=tmp_path)
    assert winner(plan, "model.ref") == "meta-llama/llama-3.2-3B"
    got = facts(plan, "model.num_parameters", "model_hub_config")
    assert [(f["value"], f["confidence"]) for f in got] == [(3212749824, "medium")]  # the catalog's Llama-3.2-3B
    assert got[0]["source"]["line"] == 8


def test_a_config_bound_then_changed_gives_the_count_at_low(cli, tmp_path: Path) -> None:
    build = ("cfg = AutoConfig.from_pretrained(HF_MODEL_NAME_OR_PATH)\n        cfg.num_hidden_layers = 2\n"
             "        model = LlamaForCausalLM(cfg)")
    write(tmp_path, {"main.py": AMBER.format(size="3.2-3B", owner="meta-llama", build=build)})
    plan = plan_of(cli, "main.py", cwd=tmp_path)
    assert [f["confidence"] for f in facts(plan, "model.num_parameters", "model_hub_config")] == ["low"]


def test_a_hub_config_the_catalog_lacks_names_the_model_and_counts_nothing(cli, tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    monkeypatch.setenv("HF_HOME", str(tmp_path / "hf"))  # an empty cache: nothing read, no network
    # (huggyllama's 7b and 13b are in the catalog since jobs36; its 30b is not)
    write(tmp_path, {"main.py": AMBER.format(size="30b", owner="huggyllama", build=INLINE)})
    plan = plan_of(cli, "main.py", cwd=tmp_path)
    assert winner(plan, "model.ref") == "huggyllama/llama-30b"
    assert not facts(plan, "model.num_parameters", "model_hub_config")
    assert any("huggyllama/llama-30b is not in the catalog" in n for n in plan["notes"])


def test_a_config_handed_to_a_checkpoint_load_or_a_local_config_is_not_read_here(cli, tmp_path: Path) -> None:
    # the checkpoint's weights decide; a config file beside the job is model_config_file's
    build = ("cfg = AutoConfig.from_pretrained(HF_MODEL_NAME_OR_PATH)\n"
             "        model = LlamaForCausalLM.from_pretrained('ckpt/last', config=cfg)")
    write(tmp_path, {"main.py": AMBER.format(size="3.2-3B", owner="meta-llama", build=build)})
    plan = plan_of(cli, "main.py", cwd=tmp_path)
    assert not facts(plan, "model.ref", "model_hub_config")
    write(tmp_path, {"main.py": AMBER.format(size="3.2-3B", owner="meta-llama", build=INLINE),
                     "meta-llama/llama-3.2-3B/config.json": "{}"})
    plan = plan_of(cli, "main.py", cwd=tmp_path)
    assert not facts(plan, "model.ref", "model_hub_config")


def test_an_f_string_with_a_part_not_known_states_nothing(cli, tmp_path: Path) -> None:
    text = AMBER.format(size="3.2-3B", owner="meta-llama", build=INLINE).replace(
        "MODEL_SIZE = '3.2-3B'", "import os\n    MODEL_SIZE = os.environ['SIZE']")
    write(tmp_path, {"main.py": text})
    plan = plan_of(cli, "main.py", cwd=tmp_path)
    assert not facts(plan, "model.ref", "model_hub_config")


# --- <role>.model.path of a composed Hydra config --------------------------------------------------
# PeterGriffinJin/Search-R1 verl/trainer/config/ppo_trainer.yaml:18-21,93-102 @
# a14dc3a4ffc6fe88c1e95038d9738e21ba3f7a06: one model section per role, the Hub id given on the launch
# line (train_ppo.sh:42,64 ``actor_rollout_ref.model.path=$BASE_MODEL``); the worker hands
# ``config.model.path`` to from_pretrained (verl/workers/fsdp_workers.py:304).
PPO_YAML = """\
    actor_rollout_ref:
      model:
        path: ~/models/deepseek-llm-7b-chat
      actor:
        ppo_micro_batch_size: 64
    critic:
      model:
        path: ~/models/deepseek-llm-7b-chat
    reward_model:
      enable: false
      model:
        path: ~/models/FsfairX-LLaMA3-RM-v0.1
"""
PPO_MAIN = """\
    import hydra


    @hydra.main(config_path="config", config_name="ppo_trainer", version_base=None)
    def main(config):
        from workers import run
        run(config.actor_rollout_ref, config.critic)


    if __name__ == "__main__":
        main()
"""


def ppo(tmp_path: Path) -> None:
    write(tmp_path, {"main_ppo.py": PPO_MAIN, "config/ppo_trainer.yaml": PPO_YAML})


def test_the_one_hub_id_of_the_roles_model_paths_is_the_model(cli, tmp_path: Path) -> None:
    ppo(tmp_path)
    plan = plan_of(cli, "main_ppo.py", "--", "actor_rollout_ref.model.path=meta-llama/Llama-3.2-3B",
                   "critic.model.path=meta-llama/Llama-3.2-3B", cwd=tmp_path)
    assert winner(plan, "model.ref") == "meta-llama/Llama-3.2-3B"
    assert [f["confidence"] for f in facts(plan, "model.ref", "hydra")] == ["medium"]


def test_local_model_paths_or_roles_naming_different_models_state_nothing(cli, tmp_path: Path) -> None:
    ppo(tmp_path)
    plan = plan_of(cli, "main_ppo.py", cwd=tmp_path)  # ~/models/...: local copies, no Hub id
    assert not facts(plan, "model.ref", "hydra")
    plan = plan_of(cli, "main_ppo.py", "--", "actor_rollout_ref.model.path=meta-llama/Llama-3.2-3B",
                   "critic.model.path=Qwen/Qwen2.5-0.5B", cwd=tmp_path)
    assert not facts(plan, "model.ref", "hydra")


# --- a Hydra model built around a transformers config node ------------------------------------------
# Dao-AILab/flash-attention training/configs/model/gpt2.yaml + configs/model/gpt2model/gpt2-small.yaml
# (the benchmark's commit): ``_target_: flash_attn.models.gpt.GPTLMHeadModel`` with ``config:
# {_target_: transformers.GPT2Config, n_positions: ${datamodule.max_length}}``, sizes in a config group,
# the vocabulary padded by ``pad_vocab_size_multiple``; run.py instantiates cfg.model.
GPT2_MODEL = """\
    defaults:
      - _self_
    _target_: flash_attn.models.gpt.GPTLMHeadModel
    config:
      _target_: {config_class}
      n_positions: ${{datamodule.max_length}}
      n_embd: 768
      n_head: 12
      n_layer: {layers}
      pad_vocab_size_multiple: 8
"""
HYDRA_TOP = """\
    defaults:
      - _self_
      - model: gpt2
    datamodule:
      max_length: 1024
"""
HYDRA_RUN = """\
    import hydra
    from hydra.utils import instantiate


    @hydra.main(config_path="configs", config_name="config", version_base=None)
    def main(config):
        model = instantiate(config.model)
        model.train()


    if __name__ == "__main__":
        main()
"""


def gpt2_job(tmp_path: Path, layers: str = "12", config_class: str = "transformers.GPT2Config") -> None:
    write(tmp_path, {"run.py": HYDRA_RUN, "configs/config.yaml": HYDRA_TOP,
                     "configs/model/gpt2.yaml": GPT2_MODEL.format(layers=layers, config_class=config_class)})


def test_a_hydra_model_built_around_a_transformers_config_node_is_counted(cli, tmp_path: Path) -> None:
    gpt2_job(tmp_path)
    plan = plan_of(cli, "run.py", cwd=tmp_path)
    # GPT-2 small with its vocabulary 50257 rounded up to 50264 (tied head): 124,439,808 + 7 x 768
    assert winner(plan, "model.num_parameters") == 124_445_184
    assert [f["confidence"] for f in facts(plan, "model.num_parameters", "hydra")] == ["medium"]
    plan = plan_of(cli, "run.py", "--", "model.config.n_layer=24", cwd=tmp_path)
    assert winner(plan, "model.num_parameters") == 124_445_184 + 12 * 7_087_872  # the override is read


def test_a_config_node_with_a_size_not_known_or_a_class_not_known_states_nothing(cli, tmp_path: Path) -> None:
    gpt2_job(tmp_path, layers="${oc.env:N_LAYER}")
    plan = plan_of(cli, "run.py", cwd=tmp_path)
    assert not facts(plan, "model.num_parameters", "hydra")
    gpt2_job(tmp_path, config_class="transformers.MyOwnConfig")
    plan = plan_of(cli, "run.py", cwd=tmp_path)
    assert not facts(plan, "model.num_parameters", "hydra")


# --- the attention kernel of a project model in another module --------------------------------------
# FoundationVision/LlamaGen autoregressive/models/gpt.py:232,451-452 @ ce98ec41803a74a90ce68c40ababa9eaeffeb4ec:
# a constructor table picked by --gpt-model, Transformer -> TransformerBlock -> Attention, whose forward
# calls F.scaled_dot_product_attention; a sampling softmax over logits elsewhere is no attention.
GPT_MODULE = """\
    import torch
    import torch.nn as nn
    import torch.nn.functional as F
    {flash_import}

    class Attention(nn.Module):
        def __init__(self, dim, n_head):
            super().__init__()
            self.n_head = n_head
            self.wqkv = nn.Linear(dim, 3 * dim, bias=False)
            self.wo = nn.Linear(dim, dim, bias=False)

        def forward(self, x):
            q, k, v = self.wqkv(x).chunk(3, dim=-1)
            {attention}
            return self.wo(y)


    class TransformerBlock(nn.Module):
        def __init__(self, dim, n_head):
            super().__init__()
            self.attention = Attention(dim, n_head)
            self.ffn = nn.Linear(dim, dim)

        def forward(self, x):
            return x + self.ffn(self.attention(x))


    class Transformer(nn.Module):
        def __init__(self, dim=64, n_layer=2, n_head=4, vocab_size=100):
            super().__init__()
            self.tok = nn.Embedding(vocab_size, dim)
            self.layers = nn.ModuleList([TransformerBlock(dim, n_head) for _ in range(n_layer)])
            self.head = nn.Linear(dim, vocab_size, bias=False)

        def forward(self, idx):
            x = self.tok(idx)
            for layer in self.layers:
                x = layer(x)
            return self.head(x)

        def sample(self, idx):
            return torch.multinomial(F.softmax(self.forward(idx)[:, -1], dim=-1), 1)


    def GPT_B(**kwargs):
        return Transformer(dim=64, n_layer=2, n_head=4, **kwargs)


    GPT_models = {{'GPT-B': GPT_B}}
"""
GPT_TRAIN = """\
    import argparse
    import torch
    from models.gpt import GPT_models

    parser = argparse.ArgumentParser()
    parser.add_argument("--gpt-model", type=str, default="GPT-B")
    args = parser.parse_args()
    model = GPT_models[args.gpt_model](vocab_size=100)
    opt = torch.optim.AdamW(model.parameters(), lr=1e-4)
    for x in range(3):
        loss = model(x).mean()
        loss.backward()
        opt.step()
        opt.zero_grad()
"""
SDPA = "y = F.scaled_dot_product_attention(q, k, v, is_causal=True)"
EAGER = ("if self.n_head > 8:\n                y = F.scaled_dot_product_attention(q, k, v)\n            else:\n"
         "                att = F.softmax(q @ k.transpose(-2, -1), dim=-1)\n                y = att @ v")
FLASH = "y = flash_attn_func(q, k, v, causal=True)"


def gpt_job(cli, tmp_path: Path, attention: str, flash_import: str = "") -> dict:
    write(tmp_path, {"train.py": GPT_TRAIN, "models/__init__.py": "",
                     "models/gpt.py": GPT_MODULE.format(attention=attention, flash_import=flash_import)})
    return plan_of(cli, "train.py", cwd=tmp_path)


def test_a_project_model_that_calls_sdpa_or_flash_attn_runs_that_kernel(cli, tmp_path: Path) -> None:
    plan = gpt_job(cli, tmp_path, SDPA)
    assert winner(plan, "model.num_parameters") is not None  # the model is found and counted
    assert [(f["value"], f["confidence"]) for f in facts(plan, "model.attn_implementation", "model_imported")] \
        == [("sdpa", "medium")]
    plan = gpt_job(cli, tmp_path, FLASH, "from flash_attn import flash_attn_func")
    assert winner(plan, "model.attn_implementation") == "flash_attention_2"


def test_a_model_with_a_hand_written_attention_arm_states_no_kernel(cli, tmp_path: Path) -> None:
    plan = gpt_job(cli, tmp_path, EAGER)
    assert winner(plan, "model.num_parameters") is not None
    assert not facts(plan, "model.attn_implementation", "model_imported")


# policy-gradient/GRPO-Zero train.py:16,91 @ d41bb486cfe4d58bf8dbb0b8f62b3c3102af9e74: the project class is
# built by its own classmethod (not counted: its sizes come from a checkpoint) and trained;
# qwen2_model.py:139,148 calls SDPA in both the inference and the training arm.
QWEN_MODULE = """\
    import torch
    import torch.nn as nn


    class Attention(nn.Module):
        def forward(self, q, k, v, start_pos=None):
            if start_pos is not None:
                return torch.nn.functional.scaled_dot_product_attention(q, k, v, is_causal=False)
            else:
                return torch.nn.functional.scaled_dot_product_attention(q, k, v, is_causal=True)


    class Transformer(nn.Module):
        def __init__(self, args):
            super().__init__()
            self.layers = nn.ModuleList([Attention() for _ in range(args.n_layers)])

        @classmethod
        def from_pretrained(cls, path, device):
            return cls(load_args(path)).to(device)
"""
QWEN_TRAIN = """\
    import torch
    from qwen2_model import Transformer

    model = Transformer.from_pretrained("ckpt", device="cuda").train()
    {frozen}
    optimizer = torch.optim.AdamW({params}, lr=1e-6)
"""


def test_a_trained_project_class_not_counted_still_gives_its_attention_kernel(cli, tmp_path: Path) -> None:
    write(tmp_path, {"qwen2_model.py": QWEN_MODULE, "train.py": QWEN_TRAIN.format(frozen="", params="model.parameters()")})
    plan = plan_of(cli, "train.py", cwd=tmp_path)
    assert [(f["value"], f["confidence"]) for f in facts(plan, "model.attn_implementation", "model_attention")] \
        == [("sdpa", "medium")]


def test_a_project_class_that_is_not_trained_or_one_of_two_trained_states_nothing(cli, tmp_path: Path) -> None:
    write(tmp_path, {"qwen2_model.py": QWEN_MODULE,
                     "train.py": QWEN_TRAIN.format(frozen="head = torch.nn.Linear(8, 8)", params="head.parameters()")})
    plan = plan_of(cli, "train.py", cwd=tmp_path)
    assert not facts(plan, "model.attn_implementation", "model_attention")
    two = QWEN_MODULE + "\n\nclass Critic(nn.Module):\n    pass\n"
    write(tmp_path, {"qwen2_model.py": two, "train.py": QWEN_TRAIN.format(
        frozen="from qwen2_model import Critic\n    critic = Critic()\n    torch.optim.AdamW(critic.parameters())",
        params="model.parameters()")})
    plan = plan_of(cli, "train.py", cwd=tmp_path)
    assert not facts(plan, "model.attn_implementation", "model_attention")


# --- a builder returning the model beside its diffusion, options handed in as a dict ----------------
# openai/improved-diffusion @ 1bc7bbbdc414d83d4abf2ad8cc1446dc36c4e4d5 scripts/image_train.py:22-24,60-79
# and improved_diffusion/script_util.py:11-35,38-83,271-282: ``model, diffusion = create_model_and_diffusion(
# **args_to_dict(args, model_and_diffusion_defaults().keys()))``, options declared from the defaults dict,
# ``attention_resolutions`` a comma-separated string split in the builder.
DIFF_UTIL = """\
    import torch.nn as nn


    class Net(nn.Module):
        def __init__(self, channels, blocks, attention):
            super().__init__()
            self.stem = nn.Conv2d(3, channels, 3)
            self.blocks = nn.ModuleList([nn.Linear(channels, channels) for _ in range(blocks)])
            self.attn = nn.ModuleList([nn.Linear(channels, channels) for _ in attention])


    class GaussianDiffusion:
        def __init__(self, steps):
            self.steps = steps


    def model_and_diffusion_defaults():
        return dict(num_channels=64, num_res_blocks=2, attention_resolutions="16,8", diffusion_steps=1000)


    def create_model_and_diffusion(num_channels, num_res_blocks, attention_resolutions, diffusion_steps):
        attention = []
        for res in attention_resolutions.split(","):
            attention.append(32 // int(res))
        model = Net(num_channels, num_res_blocks, attention)
        diffusion = GaussianDiffusion(diffusion_steps)
        return model, diffusion


    def add_dict_to_argparser(parser, default_dict):
        for k, v in default_dict.items():
            parser.add_argument(f"--{k}", default=v, type=type(v))


    def args_to_dict(args, keys):
        return {k: getattr(args, k) for k in keys}
"""
DIFF_TRAIN = """\
    import argparse
    from script_util import model_and_diffusion_defaults, create_model_and_diffusion, args_to_dict, add_dict_to_argparser


    def main():
        args = create_argparser().parse_args()
        model, diffusion = create_model_and_diffusion(**args_to_dict(args, model_and_diffusion_defaults().keys()))
        model.train()


    def create_argparser():
        defaults = dict(lr=1e-4, batch_size=1)
        defaults.update(model_and_diffusion_defaults())
        parser = argparse.ArgumentParser()
        add_dict_to_argparser(parser, defaults)
        return parser


    if __name__ == "__main__":
        main()
"""


def diffusion_count(channels: int, blocks: int, attention: int) -> int:
    return 3 * channels * 9 + channels + (blocks + attention) * (channels * channels + channels)


def test_a_model_returned_beside_its_diffusion_is_counted_with_the_options(cli, tmp_path: Path) -> None:
    write(tmp_path, {"script_util.py": DIFF_UTIL, "image_train.py": DIFF_TRAIN})
    plan = plan_of(cli, "image_train.py", "--", "--num_channels", "128", "--num_res_blocks", "3", cwd=tmp_path)
    got = facts(plan, "model.num_parameters", "model_tuple_builder")
    assert [(f["value"], f["confidence"]) for f in got] == [(diffusion_count(128, 3, 2), "medium")]
    plan = plan_of(cli, "image_train.py", cwd=tmp_path)  # the defaults dict's values
    assert winner(plan, "model.num_parameters") == diffusion_count(64, 2, 2)


def test_a_builder_returning_two_modules_or_an_option_not_known_states_nothing(cli, tmp_path: Path) -> None:
    two = DIFF_UTIL.replace(
        "diffusion = GaussianDiffusion(diffusion_steps)", "diffusion = nn.Linear(diffusion_steps, 2)")
    write(tmp_path, {"script_util.py": two, "image_train.py": DIFF_TRAIN})
    plan = plan_of(cli, "image_train.py", cwd=tmp_path)
    assert not facts(plan, "model.num_parameters", "model_tuple_builder")  # which item is the model?
    unknown = DIFF_UTIL.replace("num_res_blocks=2,", "num_res_blocks=None,")
    write(tmp_path, {"script_util.py": unknown, "image_train.py": DIFF_TRAIN})
    plan = plan_of(cli, "image_train.py", cwd=tmp_path)
    assert not facts(plan, "model.num_parameters", "model_tuple_builder")


def test_defaults_grown_by_update_are_the_options_too(cli, tmp_path: Path) -> None:
    # openai/guided-diffusion @ 22e0df8 guided_diffusion/script_util.py:52-65: ``res = dict(...)``,
    # ``res.update(diffusion_defaults())``, ``return res``
    grown = DIFF_UTIL.replace(
        '        return dict(num_channels=64, num_res_blocks=2, attention_resolutions="16,8", diffusion_steps=1000)',
        '        res = dict(num_channels=64, num_res_blocks=2, attention_resolutions="16,8")\n'
        '        res.update(diffusion_defaults())\n        return res\n\n\n'
        '    def diffusion_defaults():\n        return dict(diffusion_steps=1000)')
    write(tmp_path, {"script_util.py": grown, "image_train.py": DIFF_TRAIN})
    plan = plan_of(cli, "image_train.py", "--", "--num_channels", "32", "--attention_resolutions", "16", cwd=tmp_path)
    assert [f["value"] for f in facts(plan, "model.num_parameters", "model_tuple_builder")] \
        == [diffusion_count(32, 2, 1)]


# --- a registered timm constructor: a stage loop with ``break``, a class count rewritten after the call --
# sail-sg/poolformer @ a075575b8b3dc3c76ecc5c49985d156167372bfa models/poolformer.py:279-300,326,424-440
# (``for i in range(len(layers)): ... if i >= len(layers) - 1: break``, ``copy.deepcopy(init_cfg)``) and
# train.py:100,372-387 (``create_model(args.model, num_classes=args.num_classes)`` with ``--num-classes``
# default None, then ``if args.num_classes is None: args.num_classes = model.num_classes``).
PF_MODELS = """\
    import copy
    import torch.nn as nn
    from timm.models.registry import register_model


    class PoolNet(nn.Module):
        def __init__(self, layers, embed_dims=None, num_classes=1000, init_cfg=None, **kwargs):
            super().__init__()
            network = []
            for i in range(len(layers)):
                network.append(nn.Sequential(*[nn.Linear(embed_dims[i], embed_dims[i]) for _ in range(layers[i])]))
                if i >= len(layers) - 1:
                    break
                network.append(nn.Conv2d(embed_dims[i], embed_dims[i + 1], 3))
            self.network = nn.ModuleList(network)
            self.head = nn.Linear(embed_dims[-1], num_classes)
            self.init_cfg = copy.deepcopy(init_cfg)


    @register_model
    def poolnet_s(pretrained=False, **kwargs):
        layers = [2, 1]
        embed_dims = [8, 16]
        model = PoolNet(layers, embed_dims=embed_dims, **kwargs)
        model.default_cfg = {"url": ""}
        return model
"""
PF_TRAIN = """\
    import argparse
    import torch
    from timm.models import create_model

    import models.poolnet

    parser = argparse.ArgumentParser()
    parser.add_argument("--model", default="poolnet_s")
    parser.add_argument("--num-classes", type=int, default=None)


    def main(args):
        {before}
        model = create_model(args.model, pretrained=False, num_classes=args.num_classes)
        if args.num_classes is None:
            args.num_classes = model.num_classes
        opt = torch.optim.AdamW(model.parameters())


    if __name__ == "__main__":
        main(parser.parse_args())
"""
POOLNET = 2 * (8 * 8 + 8) + (8 * 16 * 9 + 16) + (16 * 16 + 16) + 16 * 1000 + 1000


def test_a_stage_loop_with_break_and_a_class_count_written_after_the_call_are_counted(cli, tmp_path: Path) -> None:
    write(tmp_path, {"models/__init__.py": "", "models/poolnet.py": PF_MODELS, "train.py": PF_TRAIN.format(before="")})
    plan = plan_of(cli, "train.py", cwd=tmp_path)
    assert [f["value"] for f in facts(plan, "model.num_parameters", "model_by_name")] == [POOLNET]
    plan = plan_of(cli, "train.py", "--", "--num-classes", "10", cwd=tmp_path)
    assert winner(plan, "model.num_parameters") == POOLNET - 16 * 990 - 990


def test_a_class_count_written_before_the_call_stays_unknown(cli, tmp_path: Path) -> None:
    before = "args.num_classes = len(open('classes.txt').read().split())"
    write(tmp_path, {"models/__init__.py": "", "models/poolnet.py": PF_MODELS,
                     "train.py": PF_TRAIN.format(before=before)})
    plan = plan_of(cli, "train.py", cwd=tmp_path)
    assert not facts(plan, "model.num_parameters", "model_by_name")


def test_a_registered_constructor_model_gives_its_attention_kernel(cli, tmp_path: Path) -> None:
    mixed = PF_MODELS.replace("    class PoolNet(nn.Module):", (
        "    class Mix(nn.Module):\n        def forward(self, q, k, v):\n"
        "            return nn.functional.scaled_dot_product_attention(q, k, v)\n\n\n    class PoolNet(nn.Module):"
    )).replace("            self.head = nn.Linear(embed_dims[-1], num_classes)",
               "            self.head = nn.Linear(embed_dims[-1], num_classes)\n            self.mix = Mix()")
    write(tmp_path, {"models/__init__.py": "", "models/other.py": "class Unrelated:\n    pass\n",
                     "models/poolnet.py": mixed, "train.py": PF_TRAIN.format(before="import models.other")})
    plan = plan_of(cli, "train.py", cwd=tmp_path)
    assert [f["value"] for f in facts(plan, "model.num_parameters", "model_by_name")] == [POOLNET]
    assert [f["value"] for f in facts(plan, "model.attn_implementation", "model_by_name")] == ["sdpa"]
