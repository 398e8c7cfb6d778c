"""Sizes of well-known datasets, environments and tokenizers that a model's layers are built from
(installed as ``preflight.architectures.datasets``): data, no logic.

A training script often sizes its model from the data it loads (``nn.Linear(env.observation_space.shape[0],
256)``, ``GCN(dataset.num_features, ...)``, ``GNN(num_tasks=dataset.num_tasks)``, ``nn.Embedding(
tokenizer.vocab_size, d)``). The number is not in the code, but for a named, published dataset it is a
fact of that dataset. Every entry cites where the number is written (a library file at a pinned commit or
tag, file:line; or the dataset's own table). ``preflight/catalog_values.py`` hands them to the resolver;
values read from here are never more than ``medium`` (a wrapper or a preprocessing step in the job may
change them).
"""

from __future__ import annotations

from typing import NamedTuple, Optional

_GYM = "openai/gym @ bc212954"  # the last gym master (0.26.x); v2 = <env>.py, v3 = <env>_v3.py, v4 = <env>_v4.py
_GYMNASIUM = "Farama-Foundation/Gymnasium @ v1.2.3"
_D4RL = "Farama-Foundation/D4RL @ 89141a68"


class EnvSpaces(NamedTuple):
    obs: int  # observation_space.shape[0] (a flat Box)
    act: int  # action_space.shape[0] (Box) or action_space.n (Discrete)
    discrete: bool  # the action space is Discrete (``.n``), else a Box (``.shape[0]``)
    source: str


# MuJoCo locomotion: the observation sizes of gym's env classes, the action sizes (the model's actuators,
# the same XML for every version) from Gymnasium's docstrings.
_MUJOCO: dict[str, tuple[dict[str, int], int, str]] = {
    # family: ({version: obs}, act, sources)
    "HalfCheetah": ({"v2": 17, "v3": 17, "v4": 17, "v5": 17}, 6,
                    f"{_GYM} gym/envs/mujoco/half_cheetah.py:19, half_cheetah_v3.py:55, half_cheetah_v4.py:173 "
                    f"shape=(17,); {_GYMNASIUM} gymnasium/envs/mujoco/half_cheetah_v5.py:29,52 Box (6,) / (17,)"),
    "Hopper": ({"v2": 11, "v3": 11, "v4": 11, "v5": 11}, 3,
               f"{_GYM} gym/envs/mujoco/hopper.py:19, hopper_v3.py:75, hopper_v4.py:196 shape=(11,); "
               f"{_GYMNASIUM} gymnasium/envs/mujoco/hopper_v5.py:32,52 Box (3,) / (11,)"),
    "Walker2d": ({"v2": 17, "v3": 17, "v4": 17, "v5": 17}, 6,
                 f"{_GYM} gym/envs/mujoco/walker2d.py:19, walker2d_v3.py:69, walker2d_v4.py:197 shape=(17,); "
                 f"{_GYMNASIUM} gymnasium/envs/mujoco/walker2d_v5.py:32,55 Box (6,) / (17,)"),
    # Ant-v4's size depends on use_contact_forces (obs_shape computed, ant_v4.py:237): not listed
    "Ant": ({"v2": 111, "v3": 111, "v5": 105}, 8,
            f"{_GYM} gym/envs/mujoco/ant.py:20, ant_v3.py:66 shape=(111,); "
            f"{_GYMNASIUM} gymnasium/envs/mujoco/ant_v5.py:29,57 Box (8,) / (105,)"),
    "Humanoid": ({"v2": 376, "v3": 376, "v4": 376, "v5": 348}, 17,
                 f"{_GYM} gym/envs/mujoco/humanoid.py:26, humanoid_v3.py:75, humanoid_v4.py:261 shape=(376,); "
                 f"{_GYMNASIUM} gymnasium/envs/mujoco/humanoid_v5.py:40,89 Box (17,) / (348,)"),
    "HumanoidStandup": ({"v2": 376, "v4": 376, "v5": 348}, 17,
                        f"{_GYM} gym/envs/mujoco/humanoidstandup.py:20, humanoidstandup_v4.py:192 shape=(376,); "
                        f"{_GYMNASIUM} gymnasium/envs/mujoco/humanoidstandup_v5.py:33,82 Box (17,) / (348,)"),
    "Swimmer": ({"v2": 8, "v3": 8, "v4": 8, "v5": 8}, 2,
                f"{_GYM} gym/envs/mujoco/swimmer.py:19, swimmer_v3.py:52, swimmer_v4.py:163 shape=(8,); "
                f"{_GYMNASIUM} gymnasium/envs/mujoco/swimmer_v5.py:37,56 Box (2,) / (8,)"),
    "Reacher": ({"v2": 11, "v4": 11, "v5": 10}, 2,
                f"{_GYM} gym/envs/mujoco/reacher.py:20, reacher_v4.py:132 shape=(11,); "
                f"{_GYMNASIUM} gymnasium/envs/mujoco/reacher_v5.py:25,168 Box (2,) / (10,)"),
    "InvertedPendulum": ({"v2": 4, "v4": 4, "v5": 4}, 1,
                         f"{_GYM} gym/envs/mujoco/inverted_pendulum.py:20, inverted_pendulum_v4.py:97 shape=(4,); "
                         f"{_GYMNASIUM} gymnasium/envs/mujoco/inverted_pendulum_v5.py:28,130 one action / (4,)"),
    "InvertedDoublePendulum": ({"v2": 11, "v4": 11, "v5": 9}, 1,
                               f"{_GYM} gym/envs/mujoco/inverted_double_pendulum.py:19, "
                               f"inverted_double_pendulum_v4.py:125 shape=(11,); {_GYMNASIUM} gymnasium/envs/mujoco/"
                               "inverted_double_pendulum_v5.py:28,160 one action / (9,)"),
    "Pusher": ({"v2": 23, "v4": 23, "v5": 23}, 7,
               f"{_GYM} gym/envs/mujoco/pusher.py:20, pusher_v4.py:142 shape=(23,); "
               f"{_GYMNASIUM} gymnasium/envs/mujoco/pusher_v5.py:29,193 Box (7,) / (23,)"),
}

# classic control and Box2D (Gymnasium v1.2.3; the same sizes in gym): (versions, obs, act, discrete, source)
_CLASSIC: dict[str, tuple[tuple[str, ...], int, int, bool, str]] = {
    "CartPole": (("v0", "v1"), 4, 2, True,
                 f"{_GYMNASIUM} gymnasium/envs/classic_control/cartpole.py:150-151 Discrete(2), a Box of 4"),
    "Pendulum": (("v0", "v1"), 3, 1, False,
                 f"{_GYMNASIUM} gymnasium/envs/classic_control/pendulum.py:122-125 Box (1,), a Box of 3"),
    "MountainCar": (("v0",), 2, 3, True,
                    f"{_GYMNASIUM} gymnasium/envs/classic_control/mountain_car.py:129-130 Discrete(3), a Box of 2"),
    "MountainCarContinuous": (("v0",), 2, 1, False,
                              f"{_GYMNASIUM} gymnasium/envs/classic_control/continuous_mountain_car.py:143-146 "
                              "Box (1,), a Box of 2"),
    "Acrobot": (("v1",), 6, 3, True,
                f"{_GYMNASIUM} gymnasium/envs/classic_control/acrobot.py:182-183 Discrete(3), a Box of 6"),
    "LunarLander": (("v2", "v3"), 8, 4, True,
                    f"{_GYMNASIUM} gymnasium/envs/box2d/lunar_lander.py:298,307 a Box of 8, Discrete(4)"),
}

# D4RL's MuJoCo datasets ``<agent>-<dataset>-v<k>`` run gym's v2 env classes (D4RL d4rl/gym_mujoco/gym_envs.py:2
# imports HalfCheetahEnv, AntEnv, HopperEnv, Walker2dEnv from gym.envs.mujoco; __init__.py:6-7 the names)
_D4RL_AGENTS = {"halfcheetah": "HalfCheetah", "hopper": "Hopper", "walker2d": "Walker2d", "ant": "Ant"}
_D4RL_SETS = ("random", "medium", "expert", "medium-expert", "medium-replay", "full-replay")


def _envs() -> dict[str, EnvSpaces]:
    out: dict[str, EnvSpaces] = {}
    for family, (versions, act, source) in _MUJOCO.items():
        for version, obs in versions.items():
            out[f"{family}-{version}"] = EnvSpaces(obs, act, False, source)
    for family, (vs, obs, act, discrete, source) in _CLASSIC.items():
        for version in vs:
            out[f"{family}-{version}"] = EnvSpaces(obs, act, discrete, source)
    for agent, family in _D4RL_AGENTS.items():
        spaces = out[f"{family}-v2"]
        for dataset in _D4RL_SETS:
            for version in ("v0", "v1", "v2"):
                out[f"{agent}-{dataset}-{version}"] = EnvSpaces(
                    spaces.obs, spaces.act, False,
                    f"{_D4RL} d4rl/gym_mujoco/__init__.py:6-7 and gym_envs.py:2 ({family}-v2's spaces): "
                    f"{spaces.source}")
    return out


ENVS: dict[str, EnvSpaces] = _envs()


def env_spaces(env_id: str) -> Optional[EnvSpaces]:
    """The spaces of a registered env id (``"HalfCheetah-v3"``, ``"hopper-medium-v2"``), None when unlisted."""
    return ENVS.get(env_id.strip())


class GraphData(NamedTuple):
    num_features: Optional[int]
    num_classes: Optional[int]
    num_tasks: Optional[int]
    source: str


_PLANETOID = ("pyg-team/pytorch_geometric torch_geometric/datasets/planetoid.py, the class docstring's STATS table "
              "(#features, #classes; Yang et al. 2016 splits)")
_OGB = "snap-stanford/ogb @ 61e9784c (1.3.6)"
# Planetoid(root, name): the name is matched case-insensitively by PyG
PLANETOID: dict[str, GraphData] = {
    "cora": GraphData(1433, 7, None, _PLANETOID),
    "citeseer": GraphData(3703, 6, None, _PLANETOID),
    "pubmed": GraphData(500, 3, None, _PLANETOID),
}
# OGB datasets by name: ``num tasks`` / ``num classes`` rows of master.csv
OGB: dict[str, GraphData] = {
    **{name: GraphData(None, None, tasks, f"{_OGB} ogb/graphproppred/master.csv:2 (num tasks)")
       for name, tasks in (("ogbg-molbace", 1), ("ogbg-molbbbp", 1), ("ogbg-molclintox", 2), ("ogbg-molmuv", 17),
                           ("ogbg-molpcba", 128), ("ogbg-molsider", 27), ("ogbg-moltox21", 12),
                           ("ogbg-moltoxcast", 617), ("ogbg-molhiv", 1), ("ogbg-molesol", 1),
                           ("ogbg-molfreesolv", 1), ("ogbg-mollipo", 1), ("ogbg-molchembl", 1310))},
    **{name: GraphData(None, classes, tasks, f"{_OGB} ogb/nodeproppred/master.csv:2-3 (num tasks, num classes)")
       for name, tasks, classes in (("ogbn-proteins", 112, 2), ("ogbn-products", 1, 47), ("ogbn-arxiv", 1, 40),
                                    ("ogbn-mag", 1, 349), ("ogbn-papers100M", 1, 172))},
}

# torchvision datasets with a ``.classes`` list: its length (the class lists in the library's dataset files)
_TV = "pytorch/vision torchvision/datasets/"
TORCHVISION_CLASSES: dict[str, tuple[int, str]] = {
    "CIFAR10": (10, f"{_TV}cifar.py (batches.meta label_names: 10; CIFAR-10, Krizhevsky 2009)"),
    "CIFAR100": (100, f"{_TV}cifar.py (meta fine_label_names: 100; CIFAR-100, Krizhevsky 2009)"),
    "MNIST": (10, f"{_TV}mnist.py MNIST.classes, 10 digit names"),
    "FashionMNIST": (10, f"{_TV}mnist.py FashionMNIST.classes, 10 names"),
    "KMNIST": (10, f"{_TV}mnist.py KMNIST.classes, 10 names"),
    "STL10": (10, f"{_TV}stl10.py (class_names.txt: 10; Coates et al. 2011)"),
}

# re-identification and recommendation datasets: counts from their papers / READMEs
REID_TRAIN_IDS: dict[str, tuple[int, str]] = {
    "market1501": (751, "Market-1501 (Zheng et al., ICCV 2015): 12,936 training images of 751 identities"),
    "dukemtmc": (702, "DukeMTMC-reID (Zheng et al., ICCV 2017): 16,522 training images of 702 identities"),
}
MOVIELENS: dict[str, tuple[int, int, str]] = {
    # name: (users, items, source)
    "ml-100k": (943, 1682, "MovieLens 100K README (GroupLens): 100,000 ratings by 943 users on 1,682 movies"),
    "ml-1m": (6040, 3706, "MovieLens 1M README (GroupLens): 6,040 users; 3,706 movies with a rating"),
}


class Vocab(NamedTuple):
    vocab_size: int  # ``tokenizer.vocab_size`` / tiktoken ``n_vocab``: the base vocabulary
    length: int  # ``len(tokenizer)``: with the added special tokens the tokenizer ships with
    source: str


_HUB = "the Hub repository's tokenizer files (vocab.json / tokenizer.json) and config.json vocab_size"
# Hugging Face tokenizer ids (lower-cased) and tiktoken encodings
TOKENIZERS: dict[str, Vocab] = {
    "gpt2": Vocab(50257, 50257, f"openai-community/gpt2: {_HUB} 50257"),
    "openai-community/gpt2": Vocab(50257, 50257, f"openai-community/gpt2: {_HUB} 50257"),
    "bert-base-uncased": Vocab(30522, 30522, f"google-bert/bert-base-uncased: {_HUB} 30522"),
    "google-bert/bert-base-uncased": Vocab(30522, 30522, f"google-bert/bert-base-uncased: {_HUB} 30522"),
    "bert-base-cased": Vocab(28996, 28996, f"google-bert/bert-base-cased: {_HUB} 28996"),
    "roberta-base": Vocab(50265, 50265, f"FacebookAI/roberta-base: {_HUB} 50265"),
    "meta-llama/llama-2-7b-hf": Vocab(32000, 32000, f"meta-llama/Llama-2-7b-hf: {_HUB} 32000"),
    "meta-llama/meta-llama-3-8b": Vocab(128000, 128256,
                                        "meta-llama/Meta-Llama-3-8B tokenizer.json: 128,000 BPE tokens + 256 "
                                        "reserved special tokens (config.json vocab_size 128256)"),
}
TIKTOKEN: dict[str, Vocab] = {
    "gpt2": Vocab(50257, 50257, "openai/tiktoken tiktoken_ext/openai_public.py gpt2(): explicit_n_vocab=50257"),
    "r50k_base": Vocab(50257, 50257,
                       "openai/tiktoken tiktoken_ext/openai_public.py r50k_base(): explicit_n_vocab=50257"),
    "p50k_base": Vocab(50281, 50281,
                       "openai/tiktoken tiktoken_ext/openai_public.py p50k_base(): explicit_n_vocab=50281"),
}
