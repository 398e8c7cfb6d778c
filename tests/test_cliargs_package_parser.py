"""An ``HfArgumentParser`` inside the project's own package, reached from the launched script through
package ``__init__`` re-exports (adapters/cliargs_options.py: the modules of the classes it is handed are
read before the module cap is spent), ``Seq2SeqTrainingArguments`` read as TrainingArguments' fields
(adapters/cliargs_frontends.py), and the library's ``gradient_checkpointing`` default False not stated where
the project's code calls ``gradient_checkpointing_enable()`` itself (adapters/cliargs_help.py). A project of
our own copying the shape of hiyouga/ChatGLM-Efficient-Tuning @ 3c12daaa36779c4b45f890699c9aa36311a9ad14
(``src/train_bash.py``, ``src/glmtuner/tuner/__init__.py``, ``tuner/core/parser.py:7-26``,
``hparams/__init__.py``, ``extras/misc.py:69-79``), launched as ``accelerate launch src/train_bash.py ...``."""

from __future__ import annotations

from plan_helpers import fact, plan_of, write

WORKFLOWS = [f"w{i}" for i in range(10)]


def project(enable: bool = True, own_seq2seq: bool = False) -> dict[str, str]:
    files = {
        "src/train_bash.py": """\
            from tuner_pkg.tuner import get_train_args, run_sft


            def main():
                model_args, data_args, training_args = get_train_args()
                run_sft(model_args, data_args, training_args)


            if __name__ == "__main__":
                main()
        """,
        "src/tuner_pkg/__init__.py": "",
        "src/tuner_pkg/tuner/__init__.py": "from tuner_pkg.tuner.core import get_train_args, load_model\n"
        + "".join(f"from tuner_pkg.tuner.{w} import run_{w}\n" for w in WORKFLOWS)
        + "from tuner_pkg.tuner.w0 import run_w0 as run_sft\n",
        "src/tuner_pkg/tuner/core/__init__.py": "from tuner_pkg.tuner.core.parser import get_train_args\n"
                                                "from tuner_pkg.tuner.core.loader import load_model\n",
        "src/tuner_pkg/tuner/core/parser.py": """\
            from transformers import HfArgumentParser, Seq2SeqTrainingArguments

            from tuner_pkg.hparams import ModelArguments, DataArguments


            def get_train_args():
                parser = HfArgumentParser((ModelArguments, DataArguments, Seq2SeqTrainingArguments))
                return parser.parse_args_into_dataclasses()
        """,
        "src/tuner_pkg/tuner/core/loader.py": """\
            from transformers import AutoModel

            from tuner_pkg.extras.misc import prepare_model_for_training


            def load_model(model_args):
                model = AutoModel.from_pretrained(model_args.model_name_or_path, trust_remote_code=True)
                return prepare_model_for_training(model)
        """,
        "src/tuner_pkg/extras/__init__.py": "",
        "src/tuner_pkg/extras/misc.py": """\
            def prepare_model_for_training(model, use_gradient_checkpointing=True):
                if use_gradient_checkpointing:
                    model.gradient_checkpointing_enable()
                return model
        """ if enable else """\
            def prepare_model_for_training(model):
                return model
        """,
        "src/tuner_pkg/hparams/__init__.py": "from tuner_pkg.hparams.model_args import ModelArguments\n"
                                             "from tuner_pkg.hparams.data_args import DataArguments\n",
        "src/tuner_pkg/hparams/model_args.py": """\
            from dataclasses import dataclass, field


            @dataclass
            class ModelArguments:
                model_name_or_path: str = field(default="org/base-6b", metadata={"help": "the model"})
        """,
        "src/tuner_pkg/hparams/data_args.py": """\
            from dataclasses import dataclass, field


            @dataclass
            class DataArguments:
                max_source_length: int = field(default=512)
        """,
    }
    for w in WORKFLOWS:
        files[f"src/tuner_pkg/tuner/{w}.py"] = f"""\
            from transformers import Seq2SeqTrainer
            from tuner_pkg.tuner.core import load_model


            def run_{w}(model_args, data_args, training_args):
                model = load_model(model_args)
                Seq2SeqTrainer(model=model, args=training_args).train()
        """
    if own_seq2seq:
        files["src/tuner_pkg/tuner/core/parser.py"] = files["src/tuner_pkg/tuner/core/parser.py"].replace(
            "from transformers import HfArgumentParser, Seq2SeqTrainingArguments", """\
from dataclasses import dataclass
from transformers import HfArgumentParser


@dataclass
class Seq2SeqTrainingArguments:
    output_dir: str = "out"
""")
    return files


LINE = ["--", "accelerate", "launch", "src/train_bash.py", "--model_name_or_path", "org/chat-6b", "--do_train",
        "--output_dir", "out", "--per_device_train_batch_size", "4", "--gradient_accumulation_steps", "2", "--fp16"]


def test_package_parser_options_are_read(cli, tmp_path):
    write(tmp_path, project())
    plan = plan_of(cli, "src/train_bash.py", *LINE, cwd=tmp_path)
    micro = fact(plan, "batch.micro")
    assert micro.value == 4 and micro.source.key == "--per_device_train_batch_size"
    assert fact(plan, "model.ref").value == "org/chat-6b"
    ckpt = fact(plan, "memory.gradient_checkpointing")
    assert ckpt is None or ckpt.value is not False  # the project turns it on itself


def test_library_default_stands_without_enable_call(cli, tmp_path):
    """Twin: nothing in the project turns checkpointing on: the TrainingArguments default False stands."""
    write(tmp_path, project(enable=False))
    plan = plan_of(cli, "src/train_bash.py", *LINE, cwd=tmp_path)
    ckpt = fact(plan, "memory.gradient_checkpointing")
    assert ckpt is not None and ckpt.value is False


def test_own_class_named_like_the_library_is_not_the_library(cli, tmp_path):
    """Twin: a class of the project's own named Seq2SeqTrainingArguments declares only its own fields:
    ``--per_device_train_batch_size`` is no option it declares."""
    write(tmp_path, project(own_seq2seq=True))
    plan = plan_of(cli, "src/train_bash.py", *LINE, cwd=tmp_path)
    micro = fact(plan, "batch.micro")
    assert micro is None or micro.source.key != "--per_device_train_batch_size" or \
        "TrainingArguments" not in (micro.source.detail or "")
