"""Shapes of set 27's real jobs that jobs51 reads (issue 15), reproduced in minimal fixtures of our own, each
citing the repository, path and commit it copies the shape of; each with twins that must stay empty or change."""

from __future__ import annotations

from pathlib import Path

from plan_helpers import fact, plan_of, winner, write

# zhouhaoyi/Informer2020 @ 29f2a739226a509202a092b464163da81fa74960 main_informer.py:7-60,88-96,
# exp/exp_basic.py:5-8, exp/exp_informer.py:21-23,64-101,140-171,273-274: the parsed options handed to an
# experiment class whose project base stores them (`self.args = args`, reached by `super().__init__(args)`),
# a loader's batch size bound in the arms of `if flag == ...`, and autocast under `if self.args.use_amp:`
INFORMER_MAIN = """\
    import argparse

    import torch

    from exp.exp_informer import Exp_Informer

    parser = argparse.ArgumentParser()
    parser.add_argument('--model', type=str, default='informer')
    parser.add_argument('--seq_len', type=int, default=96)
    parser.add_argument('--num_workers', type=int, default=0)
    parser.add_argument('--batch_size', type=int, default=32)
    parser.add_argument('--use_amp', action='store_true', default=False)
    parser.add_argument('--itr', type=int, default=2)
    args = parser.parse_args()

    Exp = Exp_Informer
    for ii in range(args.itr):
        exp = Exp(args)
        exp.train('setting')
"""

INFORMER_BASIC = """\
    import torch


    class Exp_Basic(object):
        def __init__(self, args):
            self.args = args
            self.model = self._build_model().to('cuda')

        def _build_model(self):
            raise NotImplementedError
"""

INFORMER_EXP = """\
    import torch
    import torch.nn as nn
    from torch import optim
    from torch.utils.data import DataLoader

    from exp.exp_basic import Exp_Basic


    class Exp_Informer(Exp_Basic):
        def __init__(self, args):
            super(Exp_Informer, self).__init__(args)

        def _build_model(self):
            return nn.Linear(self.args.seq_len, 1)

        def _get_data(self, flag):
            args = self.args
            if flag == 'test':
                shuffle_flag = False; batch_size = args.batch_size
            elif flag == 'pred':
                shuffle_flag = False; batch_size = 1
            else:
                shuffle_flag = True; batch_size = args.batch_size
            data_set = list(range(args.seq_len))
            data_loader = DataLoader(data_set, batch_size=batch_size, shuffle=shuffle_flag,
                                     num_workers=args.num_workers)
            return data_set, data_loader

        def _step(self, x):
            if self.args.use_amp:
                with torch.cuda.amp.autocast():
                    return self.model(x).sum()
            return self.model(x).sum()

        def train(self, setting):
            train_data, train_loader = self._get_data(flag='train')
            vali_data, vali_loader = self._get_data(flag='val')
            model_optim = optim.Adam(self.model.parameters(), lr=1e-4)
            for x in train_loader:
                model_optim.zero_grad()
                loss = self._step(x)
                loss.backward()
                model_optim.step()
"""


def _informer(root: Path, exp: str = INFORMER_EXP, basic: str = INFORMER_BASIC) -> None:
    write(root, {"main_informer.py": INFORMER_MAIN, "exp/__init__.py": "", "exp/exp_basic.py": basic,
                 "exp/exp_informer.py": exp})


def test_options_stored_by_a_base_class_reach_the_subclass_loader(cli, tmp_path: Path) -> None:
    _informer(tmp_path)
    plan = plan_of(cli, "main_informer.py", "--", "--model", "informer", cwd=tmp_path)
    assert winner(plan, "batch.micro") == 32
    assert winner(plan, "batch.global") == 32
    assert winner(plan, "data.num_workers") == 0
    assert winner(plan, "data.pin_memory") is False
    assert winner(plan, "precision.mode") == "fp32"
    amp = fact(plan, "precision.mode")
    assert amp is not None and "use_amp" in (amp.source.key or "") and amp.confidence == "medium"


def test_launch_line_values_follow_into_the_experiment_class(cli, tmp_path: Path) -> None:
    _informer(tmp_path)
    plan = plan_of(cli, "main_informer.py", "--", "--batch_size", "8", "--num_workers", "4", "--use_amp",
                   cwd=tmp_path)
    assert winner(plan, "batch.micro") == 8
    assert winner(plan, "data.num_workers") == 4
    assert winner(plan, "precision.mode") == "amp_fp16"


def test_without_super_init_the_base_store_is_not_the_subclass_options(cli, tmp_path: Path) -> None:
    # twin: the subclass never calls the base's __init__, so nothing stores the options on it
    _informer(tmp_path, exp=INFORMER_EXP.replace("super(Exp_Informer, self).__init__(args)", "self.other = args"))
    plan = plan_of(cli, "main_informer.py", "--", "--batch_size", "8", cwd=tmp_path)
    assert winner(plan, "batch.micro") is None
    assert winner(plan, "data.num_workers") is None
    assert winner(plan, "precision.mode") is None


def test_a_subclass_own_store_wins_over_the_base(cli, tmp_path: Path) -> None:
    # twin: the subclass stores another object in self.args after the base did: not the options
    exp = INFORMER_EXP.replace("super(Exp_Informer, self).__init__(args)",
                               "super(Exp_Informer, self).__init__(args)\n            self.args = make_args()")
    _informer(tmp_path, exp=exp)
    plan = plan_of(cli, "main_informer.py", "--", "--batch_size", "8", cwd=tmp_path)
    assert winner(plan, "batch.micro") is None


def test_split_arm_with_no_training_call_is_not_read(cli, tmp_path: Path) -> None:
    # twin: the loader is built for a split named by a variable, never a literal: no arm is the training one
    exp = INFORMER_EXP.replace("self._get_data(flag='train')", "self._get_data(flag=setting)")
    _informer(tmp_path, exp=exp)
    plan = plan_of(cli, "main_informer.py", "--", "--batch_size", "8", cwd=tmp_path)
    assert winner(plan, "batch.micro") is None


def test_split_arm_taken_by_the_training_literal(cli, tmp_path: Path) -> None:
    # the test split reads --eval_batch_size (64), the training split (the `else` arm) --batch_size
    exp = INFORMER_EXP.replace("shuffle_flag = False; batch_size = args.batch_size",
                               "shuffle_flag = False; batch_size = args.eval_batch_size")
    write(tmp_path, {"main_informer.py": INFORMER_MAIN.replace(
        "parser.add_argument('--itr'", "parser.add_argument('--eval_batch_size', type=int, default=64)\n"
        "    parser.add_argument('--itr'"), "exp/__init__.py": "", "exp/exp_basic.py": INFORMER_BASIC,
        "exp/exp_informer.py": exp})
    plan = plan_of(cli, "main_informer.py", "--", "--batch_size", "8", cwd=tmp_path)
    assert winner(plan, "batch.micro") == 8
    # twin: the training loader asks for the test split's arm
    write(tmp_path, {"exp/exp_informer.py": exp.replace("self._get_data(flag='train')",
                                                        "self._get_data(flag='test_train')")
                     .replace("if flag == 'test':", "if flag == 'test_train':")})
    plan = plan_of(cli, "main_informer.py", "--", "--batch_size", "8", cwd=tmp_path)
    assert winner(plan, "batch.micro") == 64


def test_undecided_guard_around_autocast_says_nothing(cli, tmp_path: Path) -> None:
    # twin: the autocast sits under a test of the data, not of the options: the precision is not said
    exp = INFORMER_EXP.replace("if self.args.use_amp:\n                with", "if x.is_cuda:\n                with")
    _informer(tmp_path, exp=exp)
    plan = plan_of(cli, "main_informer.py", "--", "--use_amp", cwd=tmp_path)
    assert winner(plan, "precision.mode") is None


# NVIDIA/flowtron @ d149bc466b8325026aeb68aa2fef24337e7463b2 train.py:38-55,57-79,205-211,230-300,380-423,
# distributed.py:81-133, config.json: a JSON config with `-p a.b=c` overrides applied by a project
# function, a section passed as `train(n_gpus, rank, **train_config)`, `fp16_run = bool(fp16_run)`, an
# optimizer picked by name, and a hand-written gradient all-reduce wrapper instead of DDP
FLOWTRON = """\
    import argparse
    import ast
    import json
    import os

    import torch
    from torch.cuda import amp
    from torch.utils.data import DataLoader
    from torch.utils.data.distributed import DistributedSampler

    from distributed import apply_gradient_allreduce
    from radam import RAdam


    def update_params(config, params):
        for param in params:
            k, v = param.split("=")
            try:
                v = ast.literal_eval(v)
            except Exception:
                pass
            k_split = k.split('.')
            if len(k_split) > 1:
                parent_k = k_split[0]
                cur_param = ['.'.join(k_split[1:]) + "=" + str(v)]
                update_params(config[parent_k], cur_param)
            elif k in config and len(k_split) == 1:
                config[k] = v


    def prepare_dataloaders(n_gpus, batch_size):
        trainset = list(range(100))
        sampler = DistributedSampler(trainset) if n_gpus > 1 else None
        return DataLoader(trainset, num_workers=1, sampler=sampler, batch_size=batch_size, pin_memory=False)


    def train(n_gpus, rank, optim_algo, learning_rate, batch_size, fp16_run):
        fp16_run = bool(fp16_run)
        model = torch.nn.Linear(4, 4).cuda()
        if optim_algo == 'Adam':
            optimizer = torch.optim.Adam(model.parameters(), lr=learning_rate)
        elif optim_algo == 'RAdam':
            optimizer = RAdam(model.parameters(), lr=learning_rate)
        if n_gpus > 1:
            model = apply_gradient_allreduce(model)
        scaler = amp.GradScaler(enabled=fp16_run)
        train_loader = prepare_dataloaders(n_gpus, batch_size)
        for batch in train_loader:
            model.zero_grad()
            with amp.autocast(enabled=fp16_run):
                loss = model(batch).sum()
            scaler.scale(loss).backward()
            scaler.step(optimizer)
            scaler.update()


    if __name__ == "__main__":
        parser = argparse.ArgumentParser()
        parser.add_argument('-c', '--config', type=str)
        parser.add_argument('-p', '--params', nargs='+', default=[])
        args = parser.parse_args()
        with open(args.config) as f:
            data = f.read()
        global config
        config = json.loads(data)
        update_params(config, args.params)
        train_config = config["train_config"]
        rank = int(os.getenv('RANK', '0'))
        n_gpus = int(os.getenv("WORLD_SIZE", '1'))
        train(n_gpus, rank, **train_config)
"""

FLOWTRON_CONFIG = """\
    {
        "train_config": {
            "optim_algo": "RAdam",
            "learning_rate": 1e-3,
            "batch_size": 6,
            "fp16_run": true
        }
    }
"""

DISTRIBUTED = """\
    import torch
    import torch.distributed as dist


    def apply_gradient_allreduce(module):
        def allreduce_params():
            grads = [p.grad.data for p in module.parameters() if p.grad is not None]
            for g in grads:
                dist.all_reduce(g)
                g /= dist.get_world_size()

        for param in list(module.parameters()):
            def allreduce_hook(*unused):
                allreduce_params()
            if param.requires_grad:
                param.register_hook(allreduce_hook)
        return module
"""

RADAM = """\
    from torch.optim.optimizer import Optimizer


    class RAdam(Optimizer):
        def __init__(self, params, lr=1e-3):
            super().__init__(params, dict(lr=lr))
"""

LAUNCH = ["--", "python", "-m", "torch.distributed.launch", "--use_env", "--nproc_per_node=8", "train.py",
          "-c", "config.json"]


def _flowtron(root: Path, train: str = FLOWTRON, distributed: str = DISTRIBUTED) -> None:
    write(root, {"train.py": train, "config.json": FLOWTRON_CONFIG, "distributed.py": distributed,
                 "radam.py": RADAM})


def test_json_section_spread_into_train_after_overrides(cli, tmp_path: Path) -> None:
    _flowtron(tmp_path)
    plan = plan_of(cli, *LAUNCH, "-p", "train_config.fp16=true", cwd=tmp_path)
    assert winner(plan, "batch.micro") == 6
    assert winner(plan, "optimizer.name") == "RAdam"
    assert winner(plan, "precision.mode") == "amp_fp16"  # fp16_run = bool(fp16_run) keeps the config's true
    assert winner(plan, "dist.sharding") == "ddp"
    assert winner(plan, "batch.global") == 48


def test_dotted_override_words_set_the_keys(cli, tmp_path: Path) -> None:
    _flowtron(tmp_path)
    plan = plan_of(cli, *LAUNCH, "-p", "train_config.batch_size=12", "train_config.fp16_run=False",
                   "train_config.optim_algo=Adam", cwd=tmp_path)
    assert winner(plan, "batch.micro") == 12
    assert winner(plan, "precision.mode") == "fp32"
    assert winner(plan, "optimizer.name") == "Adam"


def test_override_function_writing_a_literal_key_drops_the_config(cli, tmp_path: Path) -> None:
    # twin: the function also sets a key of its own: what it leaves is not known, nothing is read
    train = FLOWTRON.replace("                config[k] = v\n",
                             "                config[k] = v\n        config['batch_size'] = 2\n")
    _flowtron(tmp_path, train=train)
    plan = plan_of(cli, *LAUNCH, cwd=tmp_path)
    assert winner(plan, "batch.micro") is None
    assert winner(plan, "optimizer.name") is None


def test_recast_parameter_is_no_longer_the_callers_value(cli, tmp_path: Path) -> None:
    # twin: `fp16_run = not fp16_run` is a new value, not a cast of the config's
    _flowtron(tmp_path, train=FLOWTRON.replace("fp16_run = bool(fp16_run)", "fp16_run = not fp16_run"))
    plan = plan_of(cli, *LAUNCH, cwd=tmp_path)
    assert winner(plan, "precision.mode") != "amp_fp16"
    assert winner(plan, "batch.micro") == 6


def test_loss_all_reduce_without_gradient_hooks_is_not_ddp(cli, tmp_path: Path) -> None:
    # twin: the helper only averages a tensor across ranks (a logging reduction): no data-parallel wrapper
    reduce_only = """\
        import torch.distributed as dist


        def apply_gradient_allreduce(module):
            t = module.weight.grad
            dist.all_reduce(t)
            return module
    """
    _flowtron(tmp_path, distributed=reduce_only)
    plan = plan_of(cli, *LAUNCH, cwd=tmp_path)
    assert winner(plan, "dist.sharding") != "ddp"


def test_gradient_all_reduce_wrapper_not_run_by_one_process(cli, tmp_path: Path) -> None:
    # twin: plain python sets no WORLD_SIZE, so `if n_gpus > 1:` never wraps the model
    _flowtron(tmp_path)
    plan = plan_of(cli, "train.py", "--", "-c", "config.json", cwd=tmp_path)
    assert winner(plan, "dist.sharding") != "ddp"
    assert winner(plan, "batch.micro") == 6


# zhouhaoyi/Informer2020 @ 29f2a739226a509202a092b464163da81fa74960 main_informer.py:70-86 (a data table rewriting
# the channel options, `args.freq = args.freq[-1:]`), exp/exp_informer.py:25-56 (the model picked from a table,
# positional options, `.float()`, a DataParallel wrap), models/embed.py:7-31,79-88 (a Conv1d whose padding follows
# torch's version, a position table written into a local tensor)
COUNT_MAIN = """\
    import argparse

    from exp.exp_informer import Exp_Informer

    parser = argparse.ArgumentParser()
    parser.add_argument('--model', type=str, default='informer')
    parser.add_argument('--data', type=str, default='ETTh1')
    parser.add_argument('--features', type=str, default='M')
    parser.add_argument('--enc_in', type=int, default=7)
    parser.add_argument('--c_out', type=int, default=7)
    parser.add_argument('--d_model', type=int, default=64)
    parser.add_argument('--freq', type=str, default='h')
    parser.add_argument('--use_multi_gpu', action='store_true', default=False)
    args = parser.parse_args()

    data_parser = {
        'ETTh1': {'data': 'ETTh1.csv', 'M': [7, 7, 7], 'S': [1, 1, 1]},
        'WTH': {'data': 'WTH.csv', 'M': [12, 12, 12], 'S': [1, 1, 1]},
    }
    if args.data in data_parser.keys():
        data_info = data_parser[args.data]
        args.enc_in, args.dec_in, args.c_out = data_info[args.features]

    args.freq = args.freq[-1:]

    exp = Exp_Informer(args)
    exp.train()
"""

COUNT_EXP = """\
    import torch
    import torch.nn as nn
    from torch import optim

    from models.model import Informer


    class Exp_Basic(object):
        def __init__(self, args):
            self.args = args
            self.device = torch.device('cuda:0')
            self.model = self._build_model().to(self.device)


    class Exp_Informer(Exp_Basic):
        def __init__(self, args):
            super().__init__(args)

        def _build_model(self):
            model_dict = {'informer': Informer, 'informerstack': InformerStack}
            if self.args.model == 'informer' or self.args.model == 'informerstack':
                model = model_dict[self.args.model](
                    self.args.enc_in, self.args.c_out, self.args.d_model, self.args.freq, self.device
                ).float()
            if self.args.use_multi_gpu:
                model = nn.DataParallel(model)
            return model

        def train(self):
            opt = optim.Adam(self.model.parameters())
            for x in range(10):
                opt.zero_grad()
                loss = self.model(x).sum()
                loss.backward()
                opt.step()
"""

COUNT_EMBED = """\
    import torch
    import torch.nn as nn


    class TokenEmbedding(nn.Module):
        def __init__(self, c_in, d_model):
            super(TokenEmbedding, self).__init__()
            padding = 1 if torch.__version__ >= '1.5.0' else 2
            self.tokenConv = nn.Conv1d(in_channels=c_in, out_channels=d_model, kernel_size=3, padding=padding,
                                       padding_mode='circular')


    class PositionalEmbedding(nn.Module):
        def __init__(self, d_model, max_len=5000):
            super(PositionalEmbedding, self).__init__()
            pe = torch.zeros(max_len, d_model).float()
            pe.require_grad = False
            pe[:, 0::2] = torch.sin(pe[:, 0::2])
            self.register_buffer('pe', pe)


    class TimeFeatureEmbedding(nn.Module):
        def __init__(self, d_model, freq='h'):
            super(TimeFeatureEmbedding, self).__init__()
            freq_map = {'h': 4, 't': 5}
            self.embed = nn.Linear(freq_map[freq], d_model)
"""

COUNT_MODEL = """\
    import torch
    import torch.nn as nn

    from models.embed import PositionalEmbedding, TimeFeatureEmbedding, TokenEmbedding


    class Informer(nn.Module):
        def __init__(self, enc_in, c_out, d_model=512, freq='h', device=torch.device('cuda:0')):
            super(Informer, self).__init__()
            self.value = TokenEmbedding(enc_in, d_model)
            self.pos = PositionalEmbedding(d_model)
            self.time = TimeFeatureEmbedding(d_model, freq)
            self.projection = nn.Linear(d_model, c_out, bias=True)


    class InformerStack(nn.Module):
        def __init__(self, enc_in, c_out, d_model=512, freq='h', device=None):
            super().__init__()
            self.layers = make_layers(enc_in, d_model)
"""


def _counted(root: Path) -> None:
    write(root, {"main_informer.py": COUNT_MAIN, "exp/__init__.py": "", "exp/exp_informer.py": COUNT_EXP,
                 "models/__init__.py": "", "models/model.py": COUNT_MODEL, "models/embed.py": COUNT_EMBED})


def test_model_from_a_table_counted_with_rewritten_options(cli, tmp_path: Path) -> None:
    _counted(tmp_path)
    plan = plan_of(cli, "main_informer.py", "--", "--model", "informer", cwd=tmp_path)
    # Conv1d 7->64 k3 (64*7*3 + 64) + Linear 4->64 (320) + Linear 64->7 (455); the position table is a buffer
    assert winner(plan, "model.num_parameters") == 1408 + 320 + 455
    counted = fact(plan, "model.num_parameters")
    assert counted is not None and counted.confidence == "medium" and "Informer" in (counted.source.detail or "")


def test_table_and_slice_rewrites_follow_the_launch_line(cli, tmp_path: Path) -> None:
    _counted(tmp_path)
    # --features S: the table gives 1 channel in and out; --freq 3t: its last letter 't' (5 time features)
    plan = plan_of(cli, "main_informer.py", "--", "--features", "S", "--freq", "3t", cwd=tmp_path)
    assert winner(plan, "model.num_parameters") == (64 * 1 * 3 + 64) + (5 * 64 + 64) + (64 + 1)


def test_rewrite_from_a_missing_table_key_leaves_the_count_unknown(cli, tmp_path: Path) -> None:
    # twin: --data custom is not in the table: the guard keeps the options, but the reading cannot tell
    _counted(tmp_path)
    plan = plan_of(cli, "main_informer.py", "--", "--data", "custom", cwd=tmp_path)
    assert winner(plan, "model.num_parameters") is None
    # twin: a frequency the model's own table lacks: no count, never a guess
    plan = plan_of(cli, "main_informer.py", "--", "--freq", "15min", cwd=tmp_path)
    assert winner(plan, "model.num_parameters") is None


def test_table_entry_not_countable_gives_no_count(cli, tmp_path: Path) -> None:
    # twin: the other table entry builds its layers in a helper not read
    _counted(tmp_path)
    plan = plan_of(cli, "main_informer.py", "--", "--model", "informerstack", cwd=tmp_path)
    assert winner(plan, "model.num_parameters") is None


def test_model_returned_unwrapped_only(cli, tmp_path: Path) -> None:
    # twin: the builder returns something else than the model it built
    _counted(tmp_path)
    write(tmp_path, {"exp/exp_informer.py": COUNT_EXP.replace("            return model\n",
                                                              "            return make_other(model)\n")})
    plan = plan_of(cli, "main_informer.py", "--", cwd=tmp_path)
    assert winner(plan, "model.num_parameters") is None


# thuml/Time-Series-Library @ 4e938a1767106324dd753b2a44832bf870a0252e run.py:180-205: the experiment class chosen
# in the arms of `if args.task_name == ...` (each arm importing its own module) under `if __name__ == '__main__':`
TSL_MAIN = """\
    import argparse

    if __name__ == '__main__':
        parser = argparse.ArgumentParser()
        parser.add_argument('--task_name', type=str, default='long_term_forecast')
        parser.add_argument('--model', type=str, default='informer')
        parser.add_argument('--seq_len', type=int, default=96)
        parser.add_argument('--num_workers', type=int, default=10)
        parser.add_argument('--batch_size', type=int, default=32)
        parser.add_argument('--use_amp', action='store_true', default=False)
        args = parser.parse_args()

        if args.task_name == 'long_term_forecast':
            from exp.exp_informer import Exp_Informer
            Exp = Exp_Informer
        elif args.task_name == 'other':
            from exp.exp_other import Exp_Other
            Exp = Exp_Other
        else:
            from exp.exp_informer import Exp_Informer
            Exp = Exp_Informer

        exp = Exp(args)
        exp.train('setting')
"""

TSL_OTHER = """\
    from torch.utils.data import DataLoader


    class Exp_Other(object):
        def __init__(self, args):
            self.args = args

        def train(self, setting):
            loader = DataLoader(list(range(8)), batch_size=self.args.batch_size * 2, num_workers=1)
"""


def test_experiment_class_chosen_in_decided_arms(cli, tmp_path: Path) -> None:
    _informer(tmp_path)
    write(tmp_path, {"run.py": TSL_MAIN, "exp/exp_other.py": TSL_OTHER})
    plan = plan_of(cli, "run.py", "--", "--task_name", "long_term_forecast", "--batch_size", "16", cwd=tmp_path)
    assert winner(plan, "batch.micro") == 16
    assert winner(plan, "data.num_workers") == 10
    assert winner(plan, "precision.mode") == "fp32"


def test_experiment_class_in_undecided_arms_is_not_followed(cli, tmp_path: Path) -> None:
    # twin: the task comes from the environment, not an option: which class runs is not decided
    _informer(tmp_path)
    write(tmp_path, {"run.py": TSL_MAIN.replace("if args.task_name == 'long_term_forecast':",
                                                "if os.environ['TASK'] == 'long_term_forecast':")
                     .replace("import argparse", "import argparse\n    import os"),
                     "exp/exp_other.py": TSL_OTHER})
    plan = plan_of(cli, "run.py", "--", "--batch_size", "16", cwd=tmp_path)
    assert winner(plan, "batch.micro") is None
    assert winner(plan, "data.num_workers") is None


def test_autocast_off_with_another_autocast_in_the_other_arm_is_not_fp32(cli, tmp_path: Path) -> None:
    # twin: the other arm autocasts too (bf16): the option being off does not make the step fp32
    exp = INFORMER_EXP.replace(
        "            return self.model(x).sum()\n\n        def train",
        "            else:\n                with torch.autocast('cuda', dtype=torch.bfloat16):\n"
        "                    return self.model(x).sum()\n\n        def train")
    _informer(tmp_path, exp=exp)
    plan = plan_of(cli, "main_informer.py", "--", cwd=tmp_path)
    assert winner(plan, "precision.mode") != "fp32"
