"""A Megatron-style job read through the project's own argument parser: the launch line's flags are
followed from the entry script to ``parse_args`` in ``megatron/arguments.py`` and mapped by dest, type,
default and action. The shape is epfLLM/Megatron-LLM @ 806a833 (``examples/finetune.sh:104-250``,
``finetune.py:242-262``, ``megatron/initialize.py:39``, ``megatron/arguments.py:15-45``), rewritten small
in our own words; each test has a twin that must stay empty."""

from __future__ import annotations

import pytest
from plan_helpers import fact, plan_of, winner, write

ARGUMENTS = """\
    import argparse
    import deepspeed


    def build_base_parser():
        parser = argparse.ArgumentParser(description="Megatron", allow_abbrev={abbrev})
        parser = _add_training_args(parser)
        parser = _add_distributed_args(parser)
        return parser


    def parse_args(extra_args_provider=None):
        parser = build_base_parser()
        if extra_args_provider is not None:
            parser = extra_args_provider(parser)
        {ds}
        args = parser.parse_args()
        return args


    def _add_training_args(parser):
        group = parser.add_argument_group(title="training")
        group.add_argument("--micro_batch_size", type=int, default=None)
        group.add_argument("--global_batch_size", type=int, default=None)
        group.add_argument("--seq_length", type=int, default=None)
        group.add_argument("--num_layers", type=int, default=None)
        group.add_argument("--optimizer", type=str, default="adam", choices=["adam", "sgd"])
        group.add_argument("--bf16", action="store_true")
        group.add_argument("--fp16", action="store_true")
        group.add_argument("--num_workers", type=int, default=2)
        group.add_argument("--recompute_granularity", type=str, default=None, choices=["full", "selective"])
        group.add_argument("--use_flash_attn", action="store_true")
        group.add_argument("--use_checkpoint_args", action="store_true")
        group.add_argument("--hidden_size", type=int, default=None)
        group.add_argument("--num_attention_heads", type=int, default=None)
        group.add_argument("--max_position_embeddings", type=int, default=None)
        group.add_argument("--swiglu", action="store_true")
        group.add_argument("--disable_bias_linear", action="store_false", dest="add_bias_linear")
        group.add_argument("--normalization", default="LayerNorm", choices=["LayerNorm", "RMSNorm"])
        group.add_argument("--position_embedding_type", default="learned_absolute")
        group.add_argument("--tokenizer_type", type=str, default=None)
        group.add_argument("--make_vocab_size_divisible_by", type=int, default=128)
        return parser


    def _add_distributed_args(parser):
        group = parser.add_argument_group(title="distributed")
        group.add_argument("--tensor_model_parallel_size", type=int, default=1)
        group.add_argument("--pipeline_model_parallel_size", type=int, default=1)
        group.add_argument("--use_distributed_optimizer", action="store_true")
        return parser
    """
INITIALIZE = """\
    import megatron.arguments


    def initialize_megatron(extra_args_provider=None, args_defaults={}):
        args = megatron.arguments.parse_args(extra_args_provider)
        return args
    """
FINETUNE = """\
    from megatron.initialize import initialize_megatron


    def extra_args(parser):
        group = parser.add_argument_group(title="model")
        group.add_argument("--model_name", choices={{"gpt", "llama2"}}, default="gpt")
        return parser


    if __name__ == "__main__":
        initialize_megatron({provider}, {{"tokenizer_type": "SentencePieceTokenizer"}})
    """
RUN_SH = """\
    #!/bin/bash
    MODEL=$1
    TP=8
    SEQ_LEN=none
    if [[ $MODEL = falcon ]]; then
        SEQ_LEN=2048
    elif [[ $MODEL = llama ]] || [[ $MODEL = llama2 ]]; then
        SEQ_LEN=4096
    fi
    COMMON_ARGS="--use_flash_attn --seq_length $SEQ_LEN
                 --recompute_granularity selective"
    torchrun --nproc_per_node 8 --nnodes 1 finetune.py --tensor_model_parallel_size $TP --model_name $MODEL \\
        --bf16 --global_batch_size 12 --micro_batch_size 1 {extra} $COMMON_ARGS
    """


def _project(tmp_path, *, extra="", provider="extra_args", abbrev="False", flash=True, ds=""):
    write(tmp_path, {
        "run.sh": RUN_SH.format(extra=extra),
        "finetune.py": FINETUNE.format(provider=provider),
        "megatron/__init__.py": "",
        "megatron/initialize.py": INITIALIZE,
        "megatron/arguments.py": ARGUMENTS.format(abbrev=abbrev, ds=ds or "pass"),
        "megatron/model/__init__.py": "",
        "megatron/model/transformer.py": "from flash_attn import flash_attn_func\n" if flash
        else "from flash_attn.flash_attn_interface import flash_attn_unpadded_func\n",
    })


def test_the_launch_line_is_read_through_the_projects_megatron_parser(cli, tmp_path):
    _project(tmp_path)
    plan = plan_of(cli, "run.sh", "--", "llama2", cwd=tmp_path)
    assert winner(plan, "batch.micro") == 1
    assert winner(plan, "batch.global") == 12
    assert winner(plan, "batch.grad_accum") == 12  # 12 / (1 x 8 processes / tensor parallel 8)
    assert winner(plan, "data.seq_len") == 4096  # the `elif [[ .. ]] || [[ .. ]]` branch of llama2
    assert winner(plan, "precision.mode") == "bf16"
    assert winner(plan, "optimizer.name") == "adam"  # the parser's default
    assert winner(plan, "data.num_workers") == 2  # the parser's default
    assert winner(plan, "model.attn_implementation") == "flash_attention_2"
    assert winner(plan, "peft.method") == "none"
    got = fact(plan, "batch.micro")
    assert got.adapter == "megatron_args" and "megatron/arguments.py" in got.source.detail
    # tensor parallel 8: no data-parallel sharding value describes it; selective recompute is neither on nor off
    assert fact(plan, "dist.sharding") is None or fact(plan, "dist.sharding").adapter != "megatron_args"
    assert fact(plan, "memory.gradient_checkpointing") is None \
        or fact(plan, "memory.gradient_checkpointing").adapter != "megatron_args"


def test_values_the_parser_would_reject_or_not_know_stay_out(cli, tmp_path):
    # gpt: SEQ_LEN stays "none", which type=int rejects; --micro-batch-size is not an option of a parser
    # declaring --micro_batch_size with allow_abbrev=False (argparse would stop)
    _project(tmp_path, extra="--micro-batch-size 4", flash=False)
    plan = plan_of(cli, "run.sh", "--", "gpt", cwd=tmp_path)
    assert winner(plan, "data.seq_len") is None
    assert winner(plan, "batch.micro") == 1  # --micro_batch_size 1 only
    assert winner(plan, "model.attn_implementation") is None  # flash-attn's v1 API only: not stated as v2
    notes = " ".join(plan.get("notes", []))
    assert "--seq_length none" in notes and "--micro-batch-size is not an option" in notes


@pytest.mark.parametrize("abbrev,micro", [("True", 3), ("False", 1)])
def test_an_abbreviated_option_counts_only_where_the_parser_allows_it(cli, tmp_path, abbrev, micro):
    _project(tmp_path, extra="--micro_batch 3", abbrev=abbrev)
    plan = plan_of(cli, "run.sh", "--", "llama2", cwd=tmp_path)
    # --micro_batch 3 comes after --micro_batch_size 1: the prefix of the one long option, the later word
    # wins; with allow_abbrev=False it is no option at all
    assert winner(plan, "batch.micro") == micro


@pytest.mark.parametrize("extra,sharding,ckpt,accum,confidence", [
    ("--tensor_model_parallel_size 1 --global_batch_size 16 --use_distributed_optimizer --recompute_granularity full",
     "zero1", True, 2, "medium"),
    ("--tensor_model_parallel_size 1 --global_batch_size 16", "ddp", None, 2, "medium"),
    # the checkpoint's tensor/pipeline sizes replace the line's: the accumulation is a low-confidence reading
    ("--use_checkpoint_args", None, None, 12, "low"),
])
def test_parallel_split_sharding_and_recompute(cli, tmp_path, extra, sharding, ckpt, accum, confidence):
    _project(tmp_path)
    # put after $COMMON_ARGS (its selective recompute): the last occurrence of an option wins
    text = (tmp_path / "run.sh").read_text().replace("$COMMON_ARGS", f"$COMMON_ARGS {extra}")
    (tmp_path / "run.sh").write_text(text)
    plan = plan_of(cli, "run.sh", "--", "llama2", cwd=tmp_path)
    got = fact(plan, "dist.sharding")
    assert (got.value if got is not None and got.adapter == "megatron_args" else None) == sharding
    got = fact(plan, "memory.gradient_checkpointing")
    assert (got.value if got is not None and got.adapter == "megatron_args" else None) == ckpt
    got = fact(plan, "batch.grad_accum")
    assert (got.value, got.confidence) == (accum, confidence)


def test_a_provider_the_reader_cannot_follow_leaves_adapter_options_unknown(cli, tmp_path):
    _project(tmp_path, provider="extra_args if USE else None")
    plan = plan_of(cli, "run.sh", "--", "llama2", cwd=tmp_path)
    assert winner(plan, "batch.micro") == 1  # the parser's own options are still read
    got = fact(plan, "peft.method")
    assert got is None or got.adapter != "megatron_args"


def test_a_megatron_module_whose_parser_is_never_reached_is_not_read(cli, tmp_path):
    _project(tmp_path)
    (tmp_path / "finetune.py").write_text(
        "from megatron.initialize import initialize_megatron\n\n\ndef main():\n"
        "    initialize_megatron(None)\n")  # defined, never called
    plan = plan_of(cli, "run.sh", "--", "llama2", cwd=tmp_path)
    for field in ("batch.micro", "batch.grad_accum", "optimizer.name", "data.num_workers"):
        got = fact(plan, field)
        assert got is None or got.adapter != "megatron_args"


GPT_345M = "--tensor_model_parallel_size 1 --num_layers 24 --hidden_size 1024 --num_attention_heads 16 " \
           "--max_position_embeddings 1024"


@pytest.mark.parametrize("extra,count", [
    # GPT-2's BPE: 50257 padded to 50304 (a multiple of 128 x tensor parallel 1); 24 x (12h^2 + 13h) +
    # (50304 + 1024) x 1024 + 2 x 1024, tied output layer (Megatron's GPT-345M)
    (f"{GPT_345M} --tokenizer_type GPT2BPETokenizer", 354_871_296),
    (f"{GPT_345M} --tokenizer_type SentencePieceTokenizer", None),  # the vocabulary is in a file not read
    (f"{GPT_345M} --tokenizer_type GPT2BPETokenizer --swiglu", None),  # SwiGLU with biases: neither layout
    (f"{GPT_345M} --tokenizer_type GPT2BPETokenizer --use_checkpoint_args", None),  # sizes from the checkpoint
])
def test_a_gpt_of_the_stated_sizes_is_counted_where_the_vocabulary_is_known(cli, tmp_path, extra, count):
    _project(tmp_path)
    text = (tmp_path / "run.sh").read_text().replace("$COMMON_ARGS", f"$COMMON_ARGS {extra}")
    (tmp_path / "run.sh").write_text(text)
    plan = plan_of(cli, "run.sh", "--", "llama2", cwd=tmp_path)
    got = fact(plan, "model.num_parameters")
    assert (got.value if got is not None and got.adapter == "megatron_args" else None) == count


@pytest.mark.parametrize("launch,optimizer", [("--deepspeed --deepspeed_config ds.json", None), ("", "adam")])
def test_under_deepspeed_the_optimizer_and_sharding_are_the_deepspeed_configs(cli, tmp_path, launch, optimizer):
    # Megatron-DeepSpeed megatron/arguments.py: parser = deepspeed.add_config_arguments(parser)
    _project(tmp_path, extra=f"--tensor_model_parallel_size 1 {launch}",
             ds="parser = deepspeed.add_config_arguments(parser)")
    plan = plan_of(cli, "run.sh", "--", "llama2", cwd=tmp_path)
    for field, want in (("optimizer.name", optimizer), ("dist.sharding", "ddp" if optimizer else None)):
        got = fact(plan, field)
        assert (got.value if got is not None and got.adapter == "megatron_args" else None) == want
    assert winner(plan, "batch.micro") == 1


def _renamed(tmp_path, entry_body):
    # DeepSpeedExamples training/DeepSpeed-Domino: Megatron's parser vendored as domino/arguments.py
    write(tmp_path, {
        "run.sh": "deepspeed --num_gpus 2 pretrain_gpt.py --micro-batch-size 4 --global-batch-size 32 "
                  "--tensor-model-parallel-size 2 --num-layers 2\n",
        "pretrain_gpt.py": entry_body,
        "domino/__init__.py": "",
        "domino/arguments.py": """\
            import argparse


            def parse_args():
                parser = argparse.ArgumentParser(allow_abbrev=False)
                parser.add_argument("--micro-batch-size", type=int, default=None)
                parser.add_argument("--global-batch-size", type=int, default=None)
                parser.add_argument("--tensor-model-parallel-size", type=int, default=1)
                parser.add_argument("--num-layers", type=int, default=None)
                parser.add_argument("--bf16", action="store_true")
                parser.add_argument("--fp16", action="store_true")
                return parser.parse_args()
            """,
    })


def test_a_forks_renamed_megatron_package_is_followed_too(cli, tmp_path):
    _renamed(tmp_path, "from domino.arguments import parse_args\n\nargs = parse_args()\n")
    plan = plan_of(cli, "run.sh", cwd=tmp_path)
    got = fact(plan, "batch.grad_accum")
    assert got.adapter == "megatron_args" and got.value == 8  # 32 / (4 x 2 processes / tensor parallel 2)
    assert winner(plan, "precision.mode") == "fp32"  # neither --bf16 nor --fp16 of the parser given


def test_the_same_flags_on_a_script_with_its_own_parser_are_not_megatrons(cli, tmp_path):
    _renamed(tmp_path, "import argparse\n\nparser = argparse.ArgumentParser()\n"
                       "parser.add_argument('--micro-batch-size', type=int)\nargs, _ = parser.parse_known_args()\n")
    plan = plan_of(cli, "run.sh", cwd=tmp_path)
    for field in ("batch.grad_accum", "precision.mode", "peft.method"):
        got = fact(plan, field)
        assert got is None or got.adapter != "megatron_args"


def test_a_parser_helper_that_calls_itself_ends_with_the_options_it_declares(cli, tmp_path):
    _renamed(tmp_path, "from domino.arguments import parse_args\n\nargs = parse_args()\n")
    text = (tmp_path / "domino/arguments.py").read_text()
    (tmp_path / "domino/arguments.py").write_text(
        text.replace("    return parser.parse_args()", "    _more(parser)\n    return parser.parse_args()")
        + "\n\ndef _more(parser):\n    _more(parser)\n    parser.add_argument('--seq-length', type=int, default=77)\n")
    plan = plan_of(cli, "run.sh", cwd=tmp_path)
    assert winner(plan, "data.seq_len") == 77  # the parser's default, read once
    assert fact(plan, "batch.grad_accum").value == 8


@pytest.mark.parametrize("launcher,sharding", [("torchrun --nproc_per_node 4", "ddp"), ("python", None)])
def test_data_parallel_sharding_only_over_the_processes_the_launcher_states(cli, tmp_path, launcher, sharding):
    _renamed(tmp_path, "from domino.arguments import parse_args\n\nargs = parse_args()\n")
    text = (tmp_path / "domino/arguments.py").read_text().replace(
        '    return parser.parse_args()',
        '    parser.add_argument("--use-distributed-optimizer", action="store_true")\n    return parser.parse_args()')
    (tmp_path / "domino/arguments.py").write_text(text)
    (tmp_path / "run.sh").write_text(f"{launcher} pretrain_gpt.py --micro-batch-size 4 --tensor-model-parallel-size 1\n")
    plan = plan_of(cli, "run.sh", cwd=tmp_path)
    got = fact(plan, "dist.sharding")
    assert (got.value if got is not None and got.adapter == "megatron_args" else None) == sharding
    assert winner(plan, "batch.micro") == 4
