"""jobs68: sizes a script reads from a named env, dataset or tokenizer, from the sourced data catalog
(``preflight/architectures`` ``datasets.py``, read by ``preflight/catalog_values.py`` inside the resolver).

Shapes from real code (fixtures of our own that reproduce them):

- sfujim/TD3 @ 34770cc ``main.py:39,66,74-75``: ``--env`` default ``HalfCheetah-v2``, ``env = gym.make(args.env)``,
  ``state_dim = env.observation_space.shape[0]``, ``action_dim = env.action_space.shape[0]``; the Actor of
  ``TD3.py:14-20`` (17-256-256-6).
- a DQN on CartPole (public code, find_string "state_dim = env.observation_space.shape[0]"): ``env =
  gym.make("CartPole-v1")``, ``n_actions = env.action_space.n``, ``DQN(state_dim, n_actions)``.
- corl-team/CORL @ eeeeef2 ``algorithms/offline/dt.py:447-455``: the D4RL name ``halfcheetah-medium-v2`` made by
  ``gym.make`` inside ``wrap_env(...)`` (the twin: a wrapper function may change the spaces, unknown).
- snap-stanford/ogb @ 61e9784 ``examples/graphproppred/mol/main_pyg.py:93,115``: ``dataset =
  PygGraphPropPredDataset(name = args.dataset)``, ``GNN(..., num_tasks = dataset.num_tasks, ...)``.
- PyG examples: ``dataset = Planetoid(root, 'Cora')``, ``Net(dataset.num_features, dataset.num_classes)``,
  ``data = dataset[0]``, ``data.num_features``.
"""

from __future__ import annotations

import ast
import textwrap
from pathlib import Path
from typing import Any

from preflight.architectures.datasets import (
    ENVS,
    MOVIELENS,
    OGB,
    PLANETOID,
    REID_TRAIN_IDS,
    TIKTOKEN,
    TOKENIZERS,
)

from preflight.audit import build_plan
from preflight.script_index import ScriptIndex
from preflight.sources import ParsedPython, SourceText, parse_python


def _uses(text: str) -> list[Any]:
    """What the index resolves for each argument of ``use(...)``, in source order (value, cap)."""
    text = textwrap.dedent(text)
    parsed = parse_python(SourceText(path=Path("x.py"), display="x.py", kind="python", raw=text.encode(), text=text))
    assert isinstance(parsed, ParsedPython)
    idx = ScriptIndex(parsed)
    out = []
    for node in ast.walk(parsed.tree):
        if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "use":
            got = idx.resolve(node.args[0])
            out.append((node.lineno, None if got is None else (got.value, got.cap)))
    return [v for _, v in sorted(out, key=lambda p: p[0])]


TD3_MAIN = """\
    import argparse
    import gym
    parser = argparse.ArgumentParser()
    parser.add_argument("--env", default="HalfCheetah-v2")
    args = parser.parse_args()
    env = gym.make(args.env)
    state_dim = env.observation_space.shape[0]
    action_dim = env.action_space.shape[0]
    use(state_dim)
    use(action_dim)
    use(env.action_space.n)
"""


def test_gym_spaces_of_a_named_mujoco_env_are_read_at_medium():
    assert _uses(TD3_MAIN) == [(17, "medium"), (6, "medium"), None]  # a Box has no .n


def test_the_env_id_from_the_launch_line_picks_the_entry():
    hopper = TD3_MAIN.replace('default="HalfCheetah-v2"', 'default="Hopper-v3"')
    assert _uses(hopper)[:2] == [(11, "medium"), (3, "medium")]


def test_a_discrete_env_gives_its_action_count_and_no_box_size():
    got = _uses("""\
        import gymnasium as gym
        env = gym.make("CartPole-v1")
        use(env.action_space.n)
        use(env.observation_space.shape[0])
        use(env.action_space.shape[0])
    """)
    assert got == [(2, "medium"), (4, "medium"), None]


def test_a_d4rl_dataset_name_reads_the_gym_env_it_runs():
    got = _uses("""\
        import gym
        import d4rl
        env = gym.make("hopper-medium-v2")
        use(env.observation_space.shape[0])
        use(env.action_space.shape[0])
    """)
    assert got == [(11, "medium"), (3, "medium")]


def test_envs_the_catalog_cannot_vouch_for_stay_unknown():
    # an id built when the job runs, an env of the project, a wrapper that may change the spaces (CORL's
    # wrap_env), an env rebound to a frame-stacking wrapper, a version whose size depends on an option (Ant-v4)
    assert _uses("""\
        import os
        import gym
        from myenvs import make_env
        a = gym.make(os.environ["ENV_ID"])
        use(a.observation_space.shape[0])
        b = gym.make("MyRobot-v0")
        use(b.observation_space.shape[0])
        c = wrap_env(env=gym.make("halfcheetah-medium-v2"), state_mean=0.0)
        use(c.observation_space.shape[0])
        d = gym.make("CartPole-v1")
        d = gym.wrappers.FrameStack(d, 4)
        use(d.observation_space.shape[0])
        e = gym.make("Ant-v4")
        use(e.observation_space.shape[0])
        f = make_env("HalfCheetah-v2")
        use(f.observation_space.shape[0])
    """) == [None] * 6


OGB_MAIN = """\
    import argparse
    from ogb.graphproppred import PygGraphPropPredDataset
    parser = argparse.ArgumentParser()
    parser.add_argument('--dataset', type=str, default="ogbg-molhiv")
    args = parser.parse_args()
    dataset = PygGraphPropPredDataset(name = args.dataset)
    use(dataset.num_tasks)
"""


def test_ogb_num_tasks_from_master_csv():
    assert _uses(OGB_MAIN) == [(1, "medium")]
    assert _uses(OGB_MAIN.replace('"ogbg-molhiv"', '"ogbg-molpcba"')) == [(128, "medium")]


def test_planetoid_features_and_classes_and_its_graph():
    got = _uses("""\
        from torch_geometric.datasets import Planetoid
        import torch_geometric.transforms as T
        dataset = Planetoid(root='/tmp/Cora', name='Cora', transform=T.NormalizeFeatures())
        data = dataset[0]
        use(dataset.num_features)
        use(dataset.num_classes)
        use(data.num_features)
        use(data.num_classes)
    """)
    assert got == [(1433, "medium"), (7, "medium"), (1433, "medium"), None]  # a Data object has no num_classes


def test_datasets_not_in_the_catalog_stay_unknown():
    assert _uses("""\
        from torch_geometric.datasets import Planetoid, TUDataset
        from mydata import GraphSet
        a = Planetoid('/tmp', 'Amazon')
        use(a.num_features)
        b = TUDataset('/tmp', name='MUTAG')
        use(b.num_features)
        c = GraphSet('cora')
        use(c.num_features)
        use(c.num_tasks)
    """) == [None] * 4


def test_torchvision_class_lists():
    got = _uses("""\
        import torchvision
        from torchvision import datasets
        train = torchvision.datasets.CIFAR100(root='./data', train=True, download=True)
        use(len(train.classes))
        folder = datasets.ImageFolder('/data/train')
        use(len(folder.classes))
    """)
    assert got == [(100, "medium"), None]


def test_tokenizer_vocabularies_and_the_tokens_a_script_adds():
    got = _uses("""\
        import tiktoken
        from transformers import AutoTokenizer, GPT2TokenizerFast
        tok = AutoTokenizer.from_pretrained("gpt2")
        use(len(tok))
        use(tok.vocab_size)
        grown = GPT2TokenizerFast.from_pretrained("gpt2")
        grown.add_special_tokens({"pad_token": "[PAD]"})
        use(len(grown))
        use(grown.vocab_size)
        enc = tiktoken.get_encoding("gpt2")
        use(enc.n_vocab)
        other = AutoTokenizer.from_pretrained("./my-tokenizer")
        use(len(other))
    """)
    # a special token added: len() grows by it (unknown here), vocab_size (the base vocabulary) does not
    assert got == [(50257, "medium"), (50257, "medium"), None, (50257, "medium"), (50257, "medium"), None]


DQN = """\
    import gym
    import torch
    import torch.nn as nn
    import torch.optim as optim


    class DQN(nn.Module):
        def __init__(self, state_dim, n_actions):
            super().__init__()
            self.net = nn.Sequential(nn.Linear(state_dim, 128), nn.ReLU(), nn.Linear(128, 128), nn.ReLU(),
                                     nn.Linear(128, n_actions))

        def forward(self, x):
            return self.net(x)


    def main():
        env = gym.make('CartPole-v1')
        n_actions = env.action_space.n
        state_dim = env.observation_space.shape[0]
        policy_net = DQN(state_dim, n_actions)
        optimizer = optim.Adam(policy_net.parameters(), lr=1e-3)
        for step in range(100):
            loss = policy_net(torch.randn(64, state_dim)).pow(2).mean()
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()


    main()
"""


def _plan(tmp_path: Path, text: str) -> Any:
    (tmp_path / "train.py").write_text(textwrap.dedent(text), encoding="utf-8")
    plan, _ = build_plan([tmp_path / "train.py"], [], root=tmp_path, argv=[])
    return plan


def test_a_model_sized_by_a_named_env_is_counted(tmp_path):
    fact = _plan(tmp_path, DQN).resolve("model.num_parameters")
    # 4-128-128-2: (4*128+128) + (128*128+128) + (128*2+2)
    assert fact is not None and fact.value == 640 + 16_512 + 258 == 17_410
    assert fact.source.line == 21 and fact.confidence == "medium"


def test_the_same_model_on_an_env_id_known_only_when_it_runs_stays_uncounted(tmp_path):
    runtime = DQN.replace("gym.make('CartPole-v1')", "gym.make(input('env: '))")
    assert _plan(tmp_path, runtime).resolve("model.num_parameters") is None


def test_every_catalog_entry_names_its_source():
    for entry in [*ENVS.values(), *PLANETOID.values(), *OGB.values(), *TOKENIZERS.values(), *TIKTOKEN.values()]:
        assert entry.source and any(ch.isdigit() for ch in entry.source)
    for count in [*REID_TRAIN_IDS.values(), *MOVIELENS.values()]:
        assert count[-1]
    assert ENVS["HalfCheetah-v3"].obs == 17 and ENVS["halfcheetah-medium-v2"].act == 6
    assert "Ant-v4" not in ENVS  # its size depends on use_contact_forces


CHAR_GPT = """\
    import torch
    import torch.nn as nn

    n_embd = 32
    with open('input.txt', 'r', encoding='utf-8') as f:
        text = f.read()
    chars = sorted(list(set(text)))
    vocab_size = len(chars)


    class BigramLanguageModel(nn.Module):
        def __init__(self):
            super().__init__()
            self.token_embedding_table = nn.Embedding(vocab_size, n_embd)
            self.lm_head = nn.Linear(n_embd, vocab_size)

        def forward(self, idx):
            return self.lm_head(self.token_embedding_table(idx))


    model = BigramLanguageModel()
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3)
    for it in range(100):
        loss = model(torch.randint(0, vocab_size, (4, 8))).sum()
        optimizer.zero_grad(set_to_none=True)
        loss.backward()
        optimizer.step()
"""


def test_a_character_vocabulary_from_the_text_file_the_job_holds(tmp_path):
    # karpathy/ng-video-lecture gpt.py:22-27,143,147: the model's sizes from the distinct characters of input.txt
    (tmp_path / "input.txt").write_text("hello world\nHELLO!\n", encoding="utf-8")
    vocab = len(set("hello world\nHELLO!\n"))
    assert vocab == 14  # h e l o space w r d newline H E L O !
    fact = _plan(tmp_path, CHAR_GPT).resolve("model.num_parameters")
    assert fact is not None and fact.value == vocab * 32 + (32 * vocab + vocab) == 910
    assert fact.source.line == 21 and fact.confidence == "medium"


def test_a_character_vocabulary_stays_unknown_without_the_file_or_with_the_text_changed(tmp_path):
    assert _plan(tmp_path, CHAR_GPT).resolve("model.num_parameters") is None  # downloaded when the job runs
    (tmp_path / "input.txt").write_text("abc", encoding="utf-8")
    lowered = CHAR_GPT.replace("text = f.read()", "text = f.read().lower()")
    assert _plan(tmp_path, lowered).resolve("model.num_parameters") is None
    rebound = CHAR_GPT.replace("chars = sorted(list(set(text)))", "chars = sorted(list(set(text)))\n    chars += ['<pad>']")
    assert _plan(tmp_path, rebound).resolve("model.num_parameters") is None
