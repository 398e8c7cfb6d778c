"""Set 35's wrong fields (branch jobs72): fixtures of our own copying the real code's shape, each with a
must-read test and silent (must-stay-unknown or must-keep-the-other-value) twins.

- FastChat's flash-attention monkey patch, imported from the installed library (not vendored) and called
  at import: OpenMOSS/AnyGPT @ 282b58f ``anygpt/src/train/stage1_pretrain.py:5-8``; the same two lines in
  FastChat's ``fastchat/train/train_mem.py`` and the fine-tuning repositories that copy it;
- two TrainingArguments subclasses of one module that both declare ``optim`` (``SFTConfig`` default
  ``adamw_torch``, ``DPOConfig`` default ``rmsprop``), the parser handed the second one:
  martin-wey/CodeUltraFeedback @ 0525dde ``src/dpo/alignment/configs.py:211-253``, ``run_dpo.py:22``
  (the alignment-handbook layout).
"""

from __future__ import annotations

import textwrap

from plan_helpers import fact, plan_of, write

ANYGPT = {
    "requirements.txt": "transformers==4.34.1\ntorch==2.1.0\n",
    "src/train/pretrain.py": """\
        # stage1: continue pretrain
        import sys
        sys.path.append('src')
        from fastchat.train.llama2_flash_attn_monkey_patch import (
            replace_llama_attn_with_flash_attn,
        )
        replace_llama_attn_with_flash_attn()

        from dataclasses import dataclass, field
        from typing import Optional

        import transformers
        from transformers import LlamaForCausalLM


        @dataclass
        class ModelArguments:
            model_name_or_path: Optional[str] = field(default="meta-llama/Llama-2-7b-hf")


        @dataclass
        class TrainingArguments(transformers.TrainingArguments):
            optim: str = field(default="adamw_torch")


        def train():
            parser = transformers.HfArgumentParser((ModelArguments, TrainingArguments))
            model_args, training_args = parser.parse_args_into_dataclasses()
            model = LlamaForCausalLM.from_pretrained(model_args.model_name_or_path)
            trainer = transformers.Trainer(model=model, args=training_args)
            trainer.train()


        if __name__ == "__main__":
            train()
    """,
}

_LINE = ["src/train/pretrain.py", "--", "--output_dir", "out", "--per_device_train_batch_size", "1"]


def _attn(tmp_path, cli, files):
    write(tmp_path, files)
    return fact(plan_of(cli, *_LINE, cwd=tmp_path), "model.attn_implementation")


def test_fastchat_library_flash_patch_at_import_is_flash_attention(cli, tmp_path):
    attn = _attn(tmp_path, cli, ANYGPT)
    assert attn is not None and attn.value == "flash_attention_2" and attn.confidence == "medium"
    assert attn.source.path == "src/train/pretrain.py" and attn.source.line == 7
    assert "llama2_flash_attn_monkey_patch.py" in (attn.source.detail or "")


def test_fastchat_llama1_patch_module_is_read_too(cli, tmp_path):
    files = dict(ANYGPT)
    files["src/train/pretrain.py"] = files["src/train/pretrain.py"].replace(
        "llama2_flash_attn_monkey_patch", "llama_flash_attn_monkey_patch")
    attn = _attn(tmp_path, cli, files)
    assert attn is not None and attn.value == "flash_attention_2" and attn.source.line == 7


def test_patch_under_try_undecided_if_or_other_patch_is_not_flash(cli, tmp_path):
    """Silent twins: the FastChat call in a ``try`` body (runs only where flash-attn is installed), under an
    ``if`` the reader cannot decide, FastChat's xformers patch, and a same-named function of another
    library: none is read as flash attention (the version default stays)."""
    base = textwrap.dedent(ANYGPT["src/train/pretrain.py"])
    imported = ("from fastchat.train.llama2_flash_attn_monkey_patch import (\n"
                "    replace_llama_attn_with_flash_attn,\n)\nreplace_llama_attn_with_flash_attn()\n")
    twins = {
        "try": base.replace(imported, "try:\n    from fastchat.train.llama2_flash_attn_monkey_patch import "
                                      "replace_llama_attn_with_flash_attn\n"
                                      "    replace_llama_attn_with_flash_attn()\nexcept ImportError:\n    pass\n"),
        "if": base.replace("\nreplace_llama_attn_with_flash_attn()\n",
                           "\nimport os\nif os.environ.get('FLASH'):\n    replace_llama_attn_with_flash_attn()\n"),
        "xformers": base.replace("llama2_flash_attn_monkey_patch", "llama_xformers_attn_monkey_patch"),
        "other library": base.replace("fastchat.train.", "otherlib.patches."),
    }
    for name, text in twins.items():
        assert text != base, name
        attn = _attn(tmp_path, cli, {**ANYGPT, "src/train/pretrain.py": text})
        assert attn is None or attn.value != "flash_attention_2", name


CODEULTRA = {
    "src/dpo/alignment/__init__.py": """\
        from .configs import DataArguments, DPOConfig, H4ArgumentParser, ModelArguments, SFTConfig
    """,
    "src/dpo/alignment/configs.py": """\
        import dataclasses
        import sys
        from dataclasses import dataclass, field
        from typing import Optional

        import transformers
        from transformers import HfArgumentParser


        class H4ArgumentParser(HfArgumentParser):
            def parse(self):
                if len(sys.argv) == 2 and sys.argv[1].endswith(".yaml"):
                    return self.parse_yaml_file(sys.argv[1])
                return self.parse_args_into_dataclasses()


        @dataclass
        class ModelArguments:
            model_name_or_path: Optional[str] = field(default=None)
            use_peft: bool = field(default=False)


        @dataclass
        class DataArguments:
            preprocessing_num_workers: Optional[int] = field(default=None)


        @dataclass
        class SFTConfig(transformers.TrainingArguments):
            max_seq_length: Optional[int] = field(default=None)
            optim: Optional[str] = field(default="adamw_torch")


        @dataclass
        class DPOConfig(transformers.TrainingArguments):
            beta: Optional[float] = field(default=0.1)
            max_length: Optional[int] = field(default=None)
            optim: Optional[str] = field(default="rmsprop")
    """,
    "src/dpo/run_dpo.py": """\
        from transformers import AutoModelForCausalLM
        from trl import DPOTrainer

        from alignment import DataArguments, DPOConfig, H4ArgumentParser, ModelArguments


        def main():
            parser = H4ArgumentParser((ModelArguments, DataArguments, DPOConfig))
            model_args, data_args, training_args = parser.parse()
            model = AutoModelForCausalLM.from_pretrained(model_args.model_name_or_path)
            trainer = DPOTrainer(model, None, args=training_args, beta=training_args.beta,
                                 max_length=training_args.max_length)
            trainer.train()


        if __name__ == "__main__":
            main()
    """,
    "src/dpo/recipes/dpo.yaml": """\
        model_name_or_path: gpt2
        per_device_train_batch_size: 2
        gradient_accumulation_steps: 16
        max_length: 2048
    """,
}


def _optim(tmp_path, cli, files):
    write(tmp_path, files)
    plan = plan_of(cli, "run_dpo.py", "--", "recipes/dpo.yaml", cwd=tmp_path / "src/dpo")
    return fact(plan, "optimizer.name"), fact(plan, "batch.micro")


def test_the_parsers_class_decides_a_field_two_subclasses_declare(cli, tmp_path):
    optim, micro = _optim(tmp_path, cli, CODEULTRA)
    assert optim is not None and optim.value == "rmsprop" and optim.confidence != "high"
    assert "alignment/configs.py:38" in (optim.source.detail or "")
    assert micro is not None and micro.value == 2  # the YAML read through the same parser


def test_the_other_class_handed_keeps_its_own_default(cli, tmp_path):
    """Twin: the parser handed ``SFTConfig`` keeps ``adamw_torch`` (SFTConfig's line 31)."""
    files = dict(CODEULTRA)
    files["src/dpo/run_dpo.py"] = files["src/dpo/run_dpo.py"].replace(
        "DataArguments, DPOConfig))", "DataArguments, SFTConfig))").replace(
        "DPOConfig, H4ArgumentParser", "SFTConfig, H4ArgumentParser")
    optim, _ = _optim(tmp_path, cli, files)
    assert optim is not None and optim.value == "adamw_torch"
    assert "alignment/configs.py:31" in (optim.source.detail or "")


def test_a_handed_class_without_the_field_does_not_take_the_siblings(cli, tmp_path):
    """Tricky twin: ``DPOConfig`` declares no ``optim``: it inherits TrainingArguments' (version-dependent),
    never SFTConfig's ``adamw_torch`` nor a made-up ``rmsprop``."""
    files = dict(CODEULTRA)
    files["src/dpo/alignment/configs.py"] = files["src/dpo/alignment/configs.py"].replace(
        '            optim: Optional[str] = field(default="rmsprop")\n', "")
    optim, _ = _optim(tmp_path, cli, files)
    assert optim is None or (optim.value != "rmsprop" and "configs.py:31" not in (optim.source.detail or ""))


# -- Lightning defaults of a Hydra-instantiated Trainer (lightning-hydra-template; Matcha-TTS) ------------------

MATCHA = {
    "src/train.py": """\
        import hydra
        from lightning import LightningDataModule, LightningModule, Trainer


        @hydra.main(version_base="1.3", config_path="../configs", config_name="train.yaml")
        def main(cfg):
            datamodule: LightningDataModule = hydra.utils.instantiate(cfg.data)
            model: LightningModule = hydra.utils.instantiate(cfg.model)
            trainer: Trainer = hydra.utils.instantiate(cfg.trainer, callbacks=[], logger=[])
            trainer.fit(model=model, datamodule=datamodule)


        if __name__ == "__main__":
            main()
    """,
    "configs/train.yaml": """\
        defaults:
          - _self_
          - data: ljspeech
          - trainer: default
    """,
    "configs/data/ljspeech.yaml": """\
        _target_: torch.utils.data.DataLoader
        batch_size: 32
        num_workers: 20
        pin_memory: True
    """,
    "configs/trainer/default.yaml": """\
        _target_: lightning.pytorch.trainer.Trainer

        max_epochs: -1

        accelerator: gpu
        devices: [0]

        # mixed precision for extra speed-up
        precision: 16-mixed
        gradient_clip_val: 5.0
    """,
}


def _lightning(tmp_path, cli, files, *over):
    write(tmp_path, files)
    plan = plan_of(cli, "src/train.py", "--", *over, cwd=tmp_path)
    return {f: fact(plan, f) for f in ("dist.nodes", "batch.grad_accum", "dist.sharding", "batch.global",
                                       "dist.world_size")}


def test_hydra_trainer_gets_lightnings_defaults_for_what_it_leaves_out(cli, tmp_path):
    got = _lightning(tmp_path, cli, MATCHA, "trainer.devices=[0,1]")
    for field, value in (("dist.nodes", 1), ("batch.grad_accum", 1), ("dist.sharding", "ddp")):
        f = got[field]
        assert f is not None and f.value == value and f.confidence == "medium", field
        assert f.source.kind == "default" and f.source.path == "configs/trainer/default.yaml" \
            and f.source.line == 1, field
    assert got["dist.world_size"].value == 2
    assert got["batch.global"] is not None and got["batch.global"].value == 32 * 1 * 2


def test_hydra_trainer_on_one_device_is_a_single_device(cli, tmp_path):
    got = _lightning(tmp_path, cli, MATCHA)
    assert got["dist.sharding"] is not None and got["dist.sharding"].value == "none"
    assert got["batch.grad_accum"].value == 1 and got["dist.nodes"].value == 1


def test_hydra_trainer_defaults_stay_silent_where_lightning_would_not_apply_them(cli, tmp_path):
    """Twins: the section's own strategy/accumulation/nodes win (no default beside them); a
    GradientAccumulationScheduler callback composed; the keys passed in the instantiate call or through
    ``**``; devices ``-1`` (all visible: unknown); a CPU accelerator's two processes are not read as GPU DDP;
    the section never instantiated by the script."""
    trainer = MATCHA["configs/trainer/default.yaml"].rstrip(" ")
    script = MATCHA["src/train.py"]
    own = _lightning(tmp_path, cli, {**MATCHA, "configs/trainer/default.yaml": trainer
                                     + "        strategy: deepspeed_stage_2\n        accumulate_grad_batches: 4\n"
                                     + "        num_nodes: 2\n"}, "trainer.devices=[0,1]")
    assert own["dist.sharding"].value == "zero2" and own["dist.sharding"].source.kind != "default"
    assert own["batch.grad_accum"].value == 4 and own["dist.nodes"].value == 2
    sched = _lightning(tmp_path, cli, {**MATCHA, "configs/train.yaml": MATCHA["configs/train.yaml"].rstrip(" ")
                                       + "        callbacks:\n          accum:\n"
                                       + "            _target_: lightning.pytorch.callbacks.GradientAccumulationScheduler\n"
                                       + "            scheduling: {0: 8}\n"}, "trainer.devices=[0,1]")
    assert sched["batch.grad_accum"] is None
    passed = _lightning(tmp_path, cli, {**MATCHA, "src/train.py": script.replace(
        "callbacks=[], logger=[])", "callbacks=[], logger=[], accumulate_grad_batches=8, strategy='fsdp')")},
        "trainer.devices=[0,1]")
    assert passed["batch.grad_accum"] is None or passed["batch.grad_accum"].source.kind != "default"
    assert passed["dist.sharding"] is None or passed["dist.sharding"].value != "ddp"
    mapping = _lightning(tmp_path, cli, {**MATCHA, "src/train.py": script.replace(
        "callbacks=[], logger=[])", "**extra)")}, "trainer.devices=[0,1]")
    assert all(mapping[f] is None or mapping[f].source.kind != "default"
               for f in ("dist.nodes", "batch.grad_accum", "dist.sharding"))
    allvis = _lightning(tmp_path, cli, MATCHA, "trainer.devices=-1")
    assert allvis["dist.sharding"] is None
    cpu = _lightning(tmp_path, cli, {**MATCHA, "configs/trainer/default.yaml": trainer.replace(
        "accelerator: gpu", "accelerator: mps")}, "trainer.devices=[0,1]")
    assert cpu["dist.sharding"] is None
    unused = _lightning(tmp_path, cli, {**MATCHA, "src/train.py": script.replace(
        "hydra.utils.instantiate(cfg.trainer, callbacks=[], logger=[])", "Trainer(max_epochs=1)")})
    assert all(unused[f] is None or unused[f].source.kind != "default" or "Hydra" not in (unused[f].source.detail or "")
               for f in ("dist.nodes", "batch.grad_accum", "dist.sharding"))


# -- the alignment-handbook parser's file and the Trainer's loader defaults (CodeUltraFeedback) -----------------


def _dpo_plan(tmp_path, cli, files):
    write(tmp_path, files)
    plan = plan_of(cli, "run_dpo.py", "--", "recipes/dpo.yaml", cwd=tmp_path / "src/dpo")
    return {f: fact(plan, f) for f in ("precision.mode", "data.num_workers", "data.pin_memory")}


def test_bf16_in_the_project_parsers_file_and_the_trainers_loader_defaults(cli, tmp_path):
    files = {**CODEULTRA, "src/dpo/recipes/dpo.yaml": CODEULTRA["src/dpo/recipes/dpo.yaml"].rstrip(" ")
             + "        bf16: true\n"}
    got = _dpo_plan(tmp_path, cli, files)
    prec = got["precision.mode"]
    assert prec is not None and prec.value == "amp_bf16" and prec.confidence == "medium"
    assert prec.source.path == "recipes/dpo.yaml" and prec.source.line == 5
    workers, pin = got["data.num_workers"], got["data.pin_memory"]
    assert workers is not None and workers.value == 0 and workers.confidence == "low"
    assert workers.source.kind == "default" and "DPOTrainer()" in (workers.source.detail or "")
    assert pin is not None and pin.value is True and pin.confidence == "low"


def test_no_bf16_no_loader_default_where_the_trainer_or_parser_is_not_the_librarys(cli, tmp_path):
    """Twins: ``bf16: false`` in the file is no bf16; a Trainer subclass that builds its own loader
    (``get_train_dataloader``) and a Trainer of the project give no loader default."""
    off = _dpo_plan(tmp_path, cli, {**CODEULTRA, "src/dpo/recipes/dpo.yaml":
                                    CODEULTRA["src/dpo/recipes/dpo.yaml"].rstrip(" ") + "        bf16: false\n"})
    assert off["precision.mode"] is None or off["precision.mode"].value != "amp_bf16"
    script = CODEULTRA["src/dpo/run_dpo.py"]
    own_loader = script.replace("def main():", "class MyTrainer(DPOTrainer):\n"
                                "            def get_train_dataloader(self):\n"
                                "                return None\n\n\n        def main():")
    own_trainer = script.replace("from trl import DPOTrainer", "from mytrainers import DPOTrainer")
    for name, text in (("own loader", own_loader), ("own trainer", own_trainer)):
        assert text != script, name
        got = _dpo_plan(tmp_path, cli, {**CODEULTRA, "src/dpo/run_dpo.py": text})
        assert got["data.num_workers"] is None and got["data.pin_memory"] is None, name


# -- a retrieval metric named precision does not block fp32 by absence (DiffRec) -------------------------------

DIFFREC = {
    "main.py": """\
        import argparse

        import torch
        from torch import nn

        import evaluate_utils

        parser = argparse.ArgumentParser()
        parser.add_argument("--batch_size", type=int, default=400)
        args = parser.parse_args()

        model = nn.Linear(10, 10)
        optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
        for step in range(10):
            x = torch.randn(args.batch_size, 10)
            loss = model(x).pow(2).mean()
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        print(evaluate_utils.computeTopNAccuracy([[1]], [[1]], [1]))
    """,
    "evaluate_utils.py": """\
        def computeTopNAccuracy(GroundTruth, predictedIndices, topN):
            precision = []
            recall = []
            for index in range(len(topN)):
                sumForPrecision = 0
                sumForRecall = 0
                precision.append(round(sumForPrecision / len(predictedIndices), 4))
                recall.append(round(sumForRecall / len(predictedIndices), 4))
            return precision, recall
    """,
}


def _precision(tmp_path, cli, files):
    write(tmp_path, files)
    return fact(plan_of(cli, "main.py", cwd=tmp_path), "precision.mode")


def test_a_precision_at_k_metric_beside_recall_does_not_block_fp32(cli, tmp_path):
    prec = _precision(tmp_path, cli, DIFFREC)
    assert prec is not None and prec.value == "fp32" and prec.confidence == "medium"
    assert prec.source.kind == "derived" and prec.source.path == "main.py"


def test_a_precision_setting_or_another_precision_word_still_blocks(cli, tmp_path):
    """Twins: the metric file without recall (the word alone), a ``"precision"`` key read, an
    ``args.precision`` read, and a ``bfloat16`` word beside the metric: no fp32 claimed by absence."""
    metric = DIFFREC["evaluate_utils.py"]
    twins = {
        "no recall": {**DIFFREC, "evaluate_utils.py": metric.replace("recall", "hits")},
        "key": {**DIFFREC, "evaluate_utils.py": metric.replace(
            "    precision = []", "    precision = []\n            mode = cfg['precision']")},
        "attribute": {**DIFFREC, "evaluate_utils.py": metric.replace(
            "    precision = []", "    precision = []\n            mode = args.precision")},
        "bf16 word": {**DIFFREC, "evaluate_utils.py": metric.replace(
            "    precision = []", "    precision = []\n            dtype = 'bfloat16'")},
    }
    for name, files in twins.items():
        assert files != DIFFREC, name
        prec = _precision(tmp_path, cli, files)
        assert prec is None or prec.source.kind != "derived", name
