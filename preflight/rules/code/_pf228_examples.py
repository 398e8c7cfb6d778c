"""PF228 examples: executable documentation. A bad example marks each line it must be reported on
with a trailing ``# error: PF228`` comment; the meta-test asserts exactly those findings. Good
examples must stay silent."""

from __future__ import annotations

import textwrap

PF228_BAD = [
    # accelerate issue 1619 / Qwen3-TTS issue 286: TensorBoard and no project directory
    textwrap.dedent("""
    from accelerate import Accelerator

    accelerator = Accelerator(gradient_accumulation_steps=4, mixed_precision="bf16", log_with="tensorboard")  # error: PF228
    accelerator.init_trackers("sft")
"""),
    # Aim in a list of trackers; the ProjectConfiguration carries no directory
    textwrap.dedent("""
    from accelerate import Accelerator
    from accelerate.utils import ProjectConfiguration


    def build():
        return Accelerator(log_with=["wandb", "aim"],  # error: PF228
                           project_config=ProjectConfiguration(automatic_checkpoint_naming=True, total_limit=3))
"""),
]

PF228_GOOD = [
    # the fix: a project directory (the logging directory defaults to it)
    textwrap.dedent("""
    from accelerate import Accelerator

    accelerator = Accelerator(mixed_precision="bf16", log_with="tensorboard", project_dir="runs/sft")
    accelerator.init_trackers("sft")
"""),
    # a ProjectConfiguration with a logging directory
    textwrap.dedent("""
    from accelerate import Accelerator
    from accelerate.utils import ProjectConfiguration

    config = ProjectConfiguration(project_dir="out", logging_dir="out/logs")
    accelerator = Accelerator(log_with="tensorboard", project_config=config)
"""),
    # tricky-correct: wandb needs no directory; `report_to` from the command line is not read
    textwrap.dedent("""
    from accelerate import Accelerator


    def build(args):
        first = Accelerator(log_with="wandb")
        second = Accelerator(log_with=args.report_to)
        return first, second
"""),
    # tricky-correct: the directory arrives through keyword unpacking (the transformers no_trainer examples)
    textwrap.dedent("""
    from accelerate import Accelerator


    def build(args):
        accelerator_log_kwargs = {"log_with": args.report_to, "project_dir": args.output_dir}
        return Accelerator(log_with="tensorboard", **{"project_dir": args.output_dir})
"""),
    # tricky-correct: a test of the error itself (accelerate's tests/test_tracking.py)
    textwrap.dedent("""
    import pytest
    from accelerate import Accelerator


    def test_project_dir():
        with pytest.raises(ValueError, match="requires a `logging_dir`"):
            Accelerator(log_with="tensorboard")
"""),
]
