"""``dist.fsdp_wrap`` read from what a job states (adapters/fsdp_wrap_policy.py) and fed to the
estimate (``EstimateInput.fsdp_wrap``): each shape with a twin that must stay unread."""

from __future__ import annotations

import textwrap

import pytest

from preflight.estimate.inputs import input_from_plan


def project_plan(tmp_path, files, entry="train.py", argv=()):
    from preflight.audit import build_plan

    for name, code in files.items():
        (tmp_path / name).write_text(textwrap.dedent(code), encoding="utf-8")
    configs = [tmp_path / n for n in files if n.endswith((".yaml", ".json"))]
    plan, project = build_plan([tmp_path / entry], configs, root=tmp_path, argv=argv, strict=True)
    assert project.errors == []
    return plan


TORCH_FSDP = """\
    import functools
    import torch
    from torch.distributed.fsdp import FullyShardedDataParallel as FSDP
    from torch.distributed.fsdp.wrap import always_wrap_policy, transformer_auto_wrap_policy
    from model import Block, GPT

    model = GPT()
    model = FSDP(model, auto_wrap_policy=POLICY)
"""


@pytest.mark.parametrize("policy, wrap", [
    ("always_wrap_policy", "module"),
    ("functools.partial(transformer_auto_wrap_policy, transformer_layer_cls={Block})", "block"),
    ("lambda module, recurse, nonwrapped_numel: nonwrapped_numel >= 0", "module"),
])
def test_must_find_torch_fsdp_policy(tmp_path, policy, wrap):
    plan = project_plan(tmp_path, {"train.py": TORCH_FSDP.replace("POLICY", policy)})
    fact = plan.resolve("dist.fsdp_wrap")
    assert fact.value == wrap and fact.source.line == 8
    assert input_from_plan(plan).fsdp_wrap == wrap
    assert "train.py:8" in input_from_plan(plan).sources["fsdp_wrap"]


def test_must_find_a_policy_bound_to_a_name(tmp_path):
    code = TORCH_FSDP.replace("model = GPT()", "model = GPT()\n    wrap = lambda *args: True") \
        .replace("POLICY", "wrap")
    assert project_plan(tmp_path, {"train.py": code}).value("dist.fsdp_wrap") == "module"


@pytest.mark.parametrize("policy", [
    "lambda module, recurse, nonwrapped_numel: nonwrapped_numel >= 100_000",   # size, not every module
    "my_policy",            # a name the script never binds
    "get_policies(cfg)",    # built by a function of the project
])
def test_must_stay_empty_for_a_policy_not_read(tmp_path, policy):
    plan = project_plan(tmp_path, {"train.py": TORCH_FSDP.replace("POLICY", policy)})
    assert plan.resolve("dist.fsdp_wrap") is None
    assert input_from_plan(plan).fsdp_wrap is None


def test_must_stay_empty_for_a_commented_policy(tmp_path):
    code = TORCH_FSDP.replace("auto_wrap_policy=POLICY)", ")  # auto_wrap_policy=always_wrap_policy")
    assert project_plan(tmp_path, {"train.py": code}).resolve("dist.fsdp_wrap") is None


FULLY_SHARD = """\
    import torch
    from torch.distributed.fsdp import fully_shard
    from model import GPT

    model = GPT()
    for block in ITER:
        fully_shard(block)
    fully_shard(model)
"""


@pytest.mark.parametrize("it, wrap", [("model.layers", "block"), ("model.modules()", "module")])
def test_must_find_fully_shard_loop(tmp_path, it, wrap):
    plan = project_plan(tmp_path, {"train.py": FULLY_SHARD.replace("ITER", it)})
    fact = plan.resolve("dist.fsdp_wrap")
    assert fact.value == wrap and fact.source.line == 7


def test_must_stay_empty_for_fully_shard_of_the_root_alone(tmp_path):
    code = "import torch\nfrom torch.distributed.fsdp import fully_shard\nmodel = object()\nfully_shard(model)\n"
    assert project_plan(tmp_path, {"train.py": code}).resolve("dist.fsdp_wrap") is None


def test_must_find_lightning_always_wrap(tmp_path):
    code = """\
        import lightning as L
        from lightning.fabric.strategies import FSDPStrategy
        from torch.distributed.fsdp.wrap import always_wrap_policy

        fabric = L.Fabric(devices=8, strategy=FSDPStrategy(auto_wrap_policy=always_wrap_policy))
    """
    assert project_plan(tmp_path, {"train.py": code}).value("dist.fsdp_wrap") == "module"
    layer_set = code.replace("always_wrap_policy)", "{Block})")
    assert project_plan(tmp_path, {"train.py": layer_set}).value("dist.fsdp_wrap") == "block"


ACCEL = """\
    compute_environment: LOCAL_MACHINE
    distributed_type: FSDP
    fsdp_config:
      fsdp_sharding_strategy: FULL_SHARD
      POLICY
    num_processes: 8
"""
SCRIPT = "from accelerate import Accelerator\naccelerator = Accelerator()\n"


@pytest.mark.parametrize("line, wrap", [
    ("fsdp_auto_wrap_policy: TRANSFORMER_BASED_WRAP", "block"),
    ("fsdp_auto_wrap_policy: SIZE_BASED_WRAP", "size"),
    ("fsdp_auto_wrap_policy: NO_WRAP", "none"),
    ("fsdp_transformer_layer_cls_to_wrap: LlamaDecoderLayer", "block"),
])
def test_must_find_accelerate_config(tmp_path, line, wrap):
    plan = project_plan(tmp_path, {"train.py": SCRIPT, "accel.yaml": ACCEL.replace("POLICY", line)})
    fact = plan.resolve("dist.fsdp_wrap")
    assert fact.value == wrap and fact.source.path.endswith("accel.yaml") and fact.source.line == 5
    # the estimate models block and module; size and none keep its default (a block)
    assert input_from_plan(plan).fsdp_wrap == (wrap if wrap == "block" else None)


def test_must_stay_empty_for_an_accelerate_config_without_policy(tmp_path):
    plan = project_plan(tmp_path, {"train.py": SCRIPT,
                                   "accel.yaml": ACCEL.replace("POLICY", "fsdp_offload_params: false")})
    assert plan.resolve("dist.fsdp_wrap") is None


def test_must_find_trainer_auto_wrap_and_min_num_params(tmp_path):
    code = """\
        from transformers import AutoModelForCausalLM, Trainer, TrainingArguments

        model = AutoModelForCausalLM.from_pretrained("gpt2")
        args = TrainingArguments(output_dir="out", fsdp="full_shard auto_wrap")
        Trainer(model=model, args=args).train()
    """
    fact = project_plan(tmp_path, {"train.py": code}).resolve("dist.fsdp_wrap")
    assert fact.value == "block" and fact.source.line == 4
    # the Trainer's fsdp_config file: min_num_params makes the wrap size-based
    (tmp_path / "fsdp.json").write_text('{"min_num_params": 100000}', encoding="utf-8")
    sized = code.replace('auto_wrap")', 'auto_wrap", fsdp_config="fsdp.json")')
    fact = project_plan(tmp_path, {"train.py": sized}).resolve("dist.fsdp_wrap")
    assert fact.value == "size" and fact.source.path == "fsdp.json" and fact.source.key == "min_num_params"
    plain = code.replace(' auto_wrap"', '"')
    assert project_plan(tmp_path, {"train.py": plain}).resolve("dist.fsdp_wrap") is None


def test_estimate_changes_when_the_plan_states_per_module_wrapping(tmp_path):
    """Audit level: the same job with ``always_wrap_policy`` instead of a per-block policy gets
    a different peak, and the estimate names the line it took the policy from."""
    from preflight.estimate.audit_hook import audit_estimate

    common = """\
        import torch
        from torch.distributed.fsdp import FullyShardedDataParallel as FSDP
        from torch.distributed.fsdp.wrap import always_wrap_policy, ModuleWrapPolicy
        from transformers import AutoModelForCausalLM
        from transformers.models.llama.modeling_llama import LlamaDecoderLayer

        model = AutoModelForCausalLM.from_pretrained("meta-llama/Llama-2-7b-hf", torch_dtype=torch.bfloat16)
        model = FSDP(model, auto_wrap_policy=POLICY)
        opt = torch.optim.AdamW(model.parameters())
        loader = torch.utils.data.DataLoader(ds, batch_size=4)
        for text in loader:
            batch = tokenizer(text, max_length=2048, truncation=True, padding="max_length", return_tensors="pt")
            loss = model(**batch).loss
            loss.backward()
            opt.step()
    """
    docs = {}
    for policy in ("always_wrap_policy", "ModuleWrapPolicy({LlamaDecoderLayer})"):
        job = tmp_path / policy[:6]
        job.mkdir()
        plan = project_plan(job, {"train.py": common.replace("POLICY", policy)},
                            argv=("torchrun", "--nproc_per_node", "8", "train.py"))
        found = audit_estimate(plan, "A100-80GB")
        assert found is not None and found["json"] is not None, found
        docs[policy] = (found["json"], input_from_plan(plan))
    (module, m_in), (block, b_in) = docs["always_wrap_policy"], docs["ModuleWrapPolicy({LlamaDecoderLayer})"]
    assert m_in.fsdp_wrap == "module" and b_in.fsdp_wrap == "block" and m_in.world_size == 8
    assert "train.py:8" in m_in.sources["fsdp_wrap"]
    assert module["peak_bytes"] != block["peak_bytes"]
    assert module["breakdown"]["gathered_params"] != block["breakdown"]["gathered_params"]


def test_a_modules_loop_that_picks_blocks_by_class_is_block(tmp_path):
    code = FULLY_SHARD.replace("for block in ITER:\n        fully_shard(block)",
                               "for m in model.modules():\n        if isinstance(m, Block):\n"
                               "            fully_shard(m)").replace("import GPT", "import Block, GPT")
    assert project_plan(tmp_path, {"train.py": code}).value("dist.fsdp_wrap") == "block"
    other = code.replace("isinstance(m, Block)", "m.weight is not None")
    assert project_plan(tmp_path, {"train.py": other}).resolve("dist.fsdp_wrap") is None
