"""kohya-style trainers' shared options (adapters/kohya_options.py), and a parser helper reached
through a re-export (adapters/cliargs_options.py). Fixture of our own in the shape of
kohya-ss/musubi-tuner @ 30c658c: ``wan_train_network.py`` takes ``setup_parser_common`` from
``hv_train_network.py``, which imports it from ``training/parser_common.py``; the entry imports
many other project modules first. With twins."""

from __future__ import annotations

from plan_helpers import fact, plan_of, write

PARSER = """\
    import argparse


    def setup_parser_common():
        parser = argparse.ArgumentParser()
        parser.add_argument("--mixed_precision", type=str, default="no", choices=["no", "fp16", "bf16"])
        parser.add_argument("--full_fp16", action="store_true")
        parser.add_argument("--full_bf16", action="store_true")
        parser.add_argument("--optimizer_type", type=str, default="")
        parser.add_argument("--max_data_loader_n_workers", type=int, default=8)
        parser.add_argument("--gradient_checkpointing", action="store_true")
        parser.add_argument("--gradient_accumulation_steps", type=int, default=1)
        parser.add_argument("--compile", action="store_true")
        parser.add_argument("--sdpa", action="store_true")
        parser.add_argument("--flash_attn", action="store_true")
        parser.add_argument("--fp8_base", action="store_true")
        return parser
"""


def _files(n_other: int = 14) -> dict[str, str]:
    files = {"pkg/__init__.py": "", "pkg/training/__init__.py": "", "pkg/training/parser_common.py": PARSER,
             "pkg/hv_train.py": """\
                 from pkg.training.parser_common import setup_parser_common


                 class Trainer:
                     def train(self, args):
                         pass
             """}
    imports = []
    for i in range(n_other):
        files[f"pkg/other{i}.py"] = f"from pkg.more{i} import thing{i}\n\nVALUE{i} = {i}\n"
        files[f"pkg/more{i}.py"] = f"thing{i} = {i}\n"
        imports.append(f"from pkg.other{i} import VALUE{i}")
    files["pkg/wan_train.py"] = "\n".join([*imports[:7], "from pkg.hv_train import Trainer, setup_parser_common",
                                           *imports[7:], "", "", "def main():",
                                           "    parser = setup_parser_common()", "    args = parser.parse_args()",
                                           "    Trainer().train(args)", "", "", 'if __name__ == "__main__":',
                                           "    main()", ""])
    return files


def _plan(cli, tmp_path, *args):
    write(tmp_path, _files())
    return plan_of(cli, "--", "accelerate", "launch", "pkg/wan_train.py", *args, cwd=tmp_path)


def test_the_shared_options_through_a_reexport(cli, tmp_path):
    plan = _plan(cli, tmp_path, "--mixed_precision", "bf16", "--optimizer_type", "adamw8bit", "--sdpa",
                 "--gradient_checkpointing", "--max_data_loader_n_workers", "2", "--fp8_base")
    assert fact(plan, "optimizer.name").value == "adamw8bit"
    prec = fact(plan, "precision.mode")
    assert prec.value == "amp_bf16"
    assert fact(plan, "model.attn_implementation").value == "sdpa"
    assert fact(plan, "memory.gradient_checkpointing").value is True
    assert fact(plan, "compile.enabled").value is False
    assert fact(plan, "data.num_workers").value == 2
    assert fact(plan, "precision.weights_bits").value == 8
    accum = fact(plan, "batch.grad_accum")
    assert accum is not None and accum.value == 1  # the declared default, found through the re-export


def test_full_bf16_and_flash_attention(cli, tmp_path):
    plan = _plan(cli, tmp_path, "--mixed_precision", "bf16", "--full_bf16", "--flash_attn", "--compile",
                 "--optimizer_type", "bitsandbytes.optim.Lion8bit")
    assert fact(plan, "precision.mode").value == "bf16"
    assert fact(plan, "model.attn_implementation").value == "flash_attention_2"
    assert fact(plan, "compile.enabled").value is True
    assert fact(plan, "optimizer.name").value == "Lion8bit"


def test_defaults_claim_no_optimizer_workers_or_precision(cli, tmp_path):
    plan = _plan(cli, tmp_path)
    for field in ("optimizer.name", "data.num_workers", "precision.mode", "model.attn_implementation",
                  "precision.weights_bits"):
        got = fact(plan, field)
        assert got is None or got.adapter != "kohya_options", field


def test_a_parser_without_the_kohya_pair_is_not_read_as_kohya(cli, tmp_path):
    files = _files()
    files["pkg/training/parser_common.py"] = PARSER.replace("--max_data_loader_n_workers", "--num_workers")
    write(tmp_path, files)
    plan = plan_of(cli, "--", "accelerate", "launch", "pkg/wan_train.py", "--optimizer_type", "adamw8bit",
                   "--sdpa", cwd=tmp_path)
    for field in ("optimizer.name", "model.attn_implementation"):
        got = fact(plan, field)
        assert got is None or got.adapter != "kohya_options", field
