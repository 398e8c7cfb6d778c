"""A LoRA construct inside a project helper is built only when a call of the helper runs
(adapters/caller_guards.py, adapters/peft_helper_guard.py). Fixtures of our own, rewriting the
shape of allenai/olmocr @ f7cfe4c22098b154c76b6ec950d1c0a464eecf8d olmocr/train/train.py:40-72
(``def prepare_lora_model(model, model_cfg)`` builds ``LoraConfig(**lora_kwargs)`` and calls
``get_peft_model``) and :338-340 (``if config.model.use_lora: model = prepare_lora_model(...)``),
with ``use_lora: false`` in the job's YAML; each with a twin where LoRA is on."""

from __future__ import annotations

from plan_helpers import fact, plan_of, write

_HELPER = """\
        def add_adapters(model, cfg):
            lora_config = LoraConfig(r=cfg["lora_rank"], lora_alpha=32, task_type="CAUSAL_LM")
            model = get_peft_model(model, lora_config)
            return model
"""

# the guard reads the job's YAML (a dict from yaml.safe_load), as olmocr reads its Config
YAML_GUARD = {
    "train.py": """\
        import argparse
        import torch
        import yaml
        from peft import LoraConfig, get_peft_model
        from transformers import AutoModelForCausalLM

""" + _HELPER + """
        def main():
            parser = argparse.ArgumentParser()
            parser.add_argument("--config", default="configs/base.yaml")
            args = parser.parse_args()
            config = yaml.safe_load(open(args.config))
            model = AutoModelForCausalLM.from_pretrained(config["model_name"], torch_dtype=torch.bfloat16)
            if config["use_lora"]:
                model = add_adapters(model, config)
            optimizer = torch.optim.AdamW(model.parameters(), lr=1e-5)
            for batch in range(10):
                loss = model(batch).loss
                loss.backward()
                optimizer.step()

        if __name__ == "__main__":
            main()
    """,
    "configs/base.yaml": """\
        model_name: Qwen/Qwen2.5-0.5B
        use_lora: false
        lora_rank: 16
    """,
}


def _yaml(use_lora: str) -> dict:
    files = dict(YAML_GUARD)
    files["configs/base.yaml"] = files["configs/base.yaml"].replace("use_lora: false", f"use_lora: {use_lora}")
    return files


def test_lora_helper_called_only_under_a_false_config_guard_is_no_peft(cli, tmp_path):
    write(tmp_path, _yaml("false"))
    plan = plan_of(cli, "--", "python", "train.py", "--config", "configs/base.yaml", cwd=tmp_path)
    peft = fact(plan, "peft.method")
    assert peft is not None and peft.value == "none"
    assert (peft.source.path, peft.source.line) == ("configs/base.yaml", 2)
    mode = fact(plan, "task.mode")
    assert mode is None or mode.value not in ("lora", "qlora")


def test_lora_helper_under_a_true_config_guard_stays_lora(cli, tmp_path):
    write(tmp_path, _yaml("true"))
    plan = plan_of(cli, "--", "python", "train.py", "--config", "configs/base.yaml", cwd=tmp_path)
    assert fact(plan, "peft.method").value == "lora"


def test_lora_helper_called_outside_the_guard_too_is_lora(cli, tmp_path):
    # a second, unguarded call of the helper: the false guard does not decide LoRA off
    files = _yaml("false")
    files["train.py"] = files["train.py"].replace(
        "            optimizer = torch.optim",
        "            model = add_adapters(model, config)\n            optimizer = torch.optim")
    write(tmp_path, files)
    plan = plan_of(cli, "--", "python", "train.py", "--config", "configs/base.yaml", cwd=tmp_path)
    assert fact(plan, "peft.method").value == "lora"


# the guard is an option the script index cannot read (an environment variable): the LoRA
# construct is a guess, never a high-confidence fact
ENV_GUARD = {
    "train.py": """\
        import os
        import torch
        from peft import LoraConfig, get_peft_model
        from transformers import AutoModelForCausalLM

""" + _HELPER + """
        def main():
            model = AutoModelForCausalLM.from_pretrained("Qwen/Qwen2.5-0.5B")
            if os.environ.get("USE_LORA"):
                model = add_adapters(model, {"lora_rank": 8})
            optimizer = torch.optim.AdamW(model.parameters(), lr=1e-5)
            for batch in range(10):
                loss = model(batch).loss
                loss.backward()
                optimizer.step()

        main()
    """,
}


def test_lora_helper_under_an_unread_guard_is_not_high(cli, tmp_path):
    write(tmp_path, ENV_GUARD)
    plan = plan_of(cli, "--", "python", "train.py", cwd=tmp_path)
    peft = fact(plan, "peft.method")
    assert peft is None or peft.confidence == "low"
    mode = fact(plan, "task.mode")
    assert mode is None or mode.value not in ("lora", "qlora") or mode.confidence == "low"


def test_lora_helper_called_unguarded_is_high(cli, tmp_path):
    files = {"train.py": ENV_GUARD["train.py"].replace(
        'if os.environ.get("USE_LORA"):\n                model = add_adapters', 'model = add_adapters')}
    assert files["train.py"] != ENV_GUARD["train.py"]
    write(tmp_path, files)
    plan = plan_of(cli, "--", "python", "train.py", cwd=tmp_path)
    peft = fact(plan, "peft.method")
    assert (peft.value, peft.confidence) == ("lora", "high")
    assert fact(plan, "task.mode").value == "lora"


def test_helper_also_handed_to_spawn_keeps_its_confidence(cli, tmp_path):
    # facebookresearch/moco-v3 main_moco.py: ``mp.spawn(main_worker, ...)`` under one arm, a direct
    # ``main_worker(...)`` call under the other; the spawned call is not a call site but runs
    files = {"train.py": ENV_GUARD["train.py"].replace(
        "        main()\n", "        import torch.multiprocessing as mp\n"
                           "        if os.environ.get(\"SPAWN\"):\n"
                           "            mp.spawn(main, nprocs=2)\n"
                           "        else:\n"
                           "            main()\n").replace(
        'if os.environ.get("USE_LORA"):\n                model = add_adapters', 'model = add_adapters')}
    assert "mp.spawn(main" in files["train.py"] and "USE_LORA" not in files["train.py"]
    write(tmp_path, files)
    plan = plan_of(cli, "--", "python", "train.py", cwd=tmp_path)
    assert fact(plan, "peft.method").value == "lora"
    assert fact(plan, "peft.method").confidence == "high"


# a Trainer job whose LoRA helper runs only under a store_true flag (the shape of a public Surya OCR
# fine-tuning CLI: ``def apply_lora(model, cfg)`` building LoraConfig/get_peft_model, called under
# ``if args.lora:``, then ``Trainer(model=model, args=TrainingArguments(...)).train()``)
TRAINER = {
    "cli.py": """\
        import argparse
        from peft import LoraConfig, get_peft_model
        from transformers import AutoModelForCausalLM, Trainer, TrainingArguments


        def apply_lora(model, cfg):
            return get_peft_model(model, LoraConfig(r=cfg["rank"], task_type=None))


        def main():
            ap = argparse.ArgumentParser()
            ap.add_argument("--lora", action="store_true")
            ap.add_argument("--lora-rank", type=int, default=32)
            args = ap.parse_args()
            model = AutoModelForCausalLM.from_pretrained("gpt2")
            if args.lora:
                model = apply_lora(model, {"rank": args.lora_rank})
            trainer = Trainer(model=model, args=TrainingArguments(output_dir="out"))
            trainer.train()


        if __name__ == "__main__":
            main()
    """,
}


def test_trainer_job_without_the_lora_flag_is_full_finetuning(cli, tmp_path):
    write(tmp_path, TRAINER)
    plan = plan_of(cli, "--", "python", "cli.py", cwd=tmp_path)
    assert fact(plan, "peft.method").value == "none"
    assert fact(plan, "task.mode").value == "finetune"


def test_trainer_job_with_the_lora_flag_is_lora(cli, tmp_path):
    write(tmp_path, TRAINER)
    plan = plan_of(cli, "--", "python", "cli.py", "--lora", cwd=tmp_path)
    assert fact(plan, "peft.method").value == "lora"
    assert fact(plan, "task.mode").value == "lora"


# a guard clause before the LoRA config: ``if model_args.use_peft is False: return None`` then
# ``LoraConfig(...)`` (taishan1994/DPO-Finetuning @ 6f19d2e9 utils.py:19-23; the same early return in
# other public get_peft_config helpers: ``if not model_config.use_lora: return None``)
CLAUSE = {
    "utils.py": """\
        from peft import LoraConfig


        def get_peft_config(args):
            if args.use_peft is False:
                return None
            return LoraConfig(r=16, task_type="CAUSAL_LM")
    """,
    "train.py": """\
        import argparse
        from transformers import AutoModelForCausalLM, TrainingArguments
        from trl import DPOTrainer

        from utils import get_peft_config


        def main():
            ap = argparse.ArgumentParser()
            ap.add_argument("--use_peft", action="store_true")
            args = ap.parse_args()
            model = AutoModelForCausalLM.from_pretrained("gpt2")
            trainer = DPOTrainer(model=model, args=TrainingArguments(output_dir="out"),
                                 peft_config=get_peft_config(args))
            trainer.train()


        if __name__ == "__main__":
            main()
    """,
}


def test_lora_config_after_a_taken_guard_clause_is_not_lora(cli, tmp_path):
    write(tmp_path, CLAUSE)
    plan = plan_of(cli, "--", "python", "train.py", cwd=tmp_path)
    got = fact(plan, "peft.method")
    assert got is None or got.value != "lora"


def test_lora_config_after_a_guard_clause_not_taken_is_lora(cli, tmp_path):
    write(tmp_path, CLAUSE)
    plan = plan_of(cli, "--", "python", "train.py", "--use_peft", cwd=tmp_path)
    assert fact(plan, "peft.method").value == "lora"
