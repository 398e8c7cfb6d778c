"""PF301-PF305 (perf-hygiene): firing cases, silent twins, evidence, severities, speed."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from preflight.diagnostics import Finding, Severity
from preflight.engine import Selection, analyse_parsed
from preflight.registry import all_rules
from preflight.sources import FileError, ParsedPython, SourceText, parse_python

CODES = ("PF301", "PF302", "PF303", "PF304", "PF305")


def parse(src: str, name: str = "t.py") -> ParsedPython:
    parsed = parse_python(SourceText(path=Path(name), display=name, kind="python",
                                     raw=src.encode(), text=src))
    assert not isinstance(parsed, FileError), parsed
    return parsed


def check(src: str, code: str) -> list[Finding]:
    found = analyse_parsed(parse(textwrap.dedent(src)), Selection(codes=(code,)))
    return [f for f in found if f.code == code]


HEAD = """\
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader

device = torch.device("cuda")
model = nn.Linear(10, 3).to(device)
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
loader = DataLoader(dataset, batch_size=32, shuffle=True, num_workers=4, pin_memory=True)
"""


def step(body: str, header: str = "for x, y in loader:") -> str:
    lines = ["    x, y = x.to(device), y.to(device)", "    out = model(x)",
             "    loss = F.cross_entropy(out, y)", "    optimizer.zero_grad()",
             "    loss.backward()", "    optimizer.step()"]
    extra = textwrap.indent(textwrap.dedent(body).strip("\n"), "    ")
    return HEAD + header + "\n" + "\n".join(lines) + "\n" + extra + "\n"


# -- metadata --------------------------------------------------------------------

@pytest.mark.parametrize("code", CODES)
def test_metadata(code: str) -> None:
    cls = all_rules(plugins=False)[code]
    assert len(cls.good_examples) >= 4
    assert cls.severity is not Severity.ERROR
    for heading in ("## What it finds", "## Why it matters", "## How to fix it",
                    "## When preflight stays silent"):
        assert heading in cls.explanation


# -- PF301 host-sync-in-loop -----------------------------------------------------

def test_pf301_per_element_item_is_a_warning_with_evidence() -> None:
    src = step("""
        preds = out.argmax(dim=1)
        for i in range(preds.size(0)):
            if preds[i].item() == y[i].item():
                pass
    """)
    found = check(src, "PF301")
    assert len(found) == 1
    f = found[0]
    assert f.severity is Severity.WARNING
    assert "per-element loop" in f.message
    messages = " | ".join(e.message for e in f.evidence)
    assert "training loop" in messages and "accelerator" in messages
    assert "`preds` is a tensor" in messages


def test_pf301_single_loss_item_is_silent() -> None:
    assert not check(step("total = loss.item()"), "PF301")


def test_pf301_two_syncs_are_silent_three_are_a_note() -> None:
    two = step("a = loss.item()\nb = (out.argmax(1) == y).sum().item()")
    three = step("a = loss.item()\nb = (out.argmax(1) == y).sum().item()\nprint(f'{loss}')")
    assert not check(two, "PF301")
    found = check(three, "PF301")
    assert [f.severity for f in found] == [Severity.NOTE]


def test_pf301_chain_cpu_numpy_counts_once() -> None:
    src = step("a = loss.item()\nb = out.detach().cpu().numpy()")
    assert not check(src, "PF301")


def test_pf301_guarded_by_modulo_is_silent() -> None:
    # competitor TG007 false positive: a sync under `if step % save_steps == 0:`
    src = step("""
        if step % 100 == 0:
            for i in range(len(out)):
                print(out[i].max().item(), loss.item(), float(loss))
    """, header="for step, (x, y) in enumerate(loader):")
    assert not check(src, "PF301")


def test_pf301_rollout_loop_is_not_per_element() -> None:
    # an RL rollout must hand each action to the CPU environment
    src = step("""
        for t in range(num_steps):
            action = model(x).argmax(1)
            obs = envs.step(action.cpu().numpy())
    """)
    assert not check(src, "PF301")


def test_pf301_host_tensor_item_is_silent() -> None:
    src = step("""
        scale = torch.tensor([1.0, 2.0])
        vals = [scale[i].item() for i in range(len(scale))]
    """)
    assert not check(src, "PF301")


def test_pf301_cpu_only_file_is_silent() -> None:
    src = step("vals = [o.max().item() for o in out]").replace(
        'device = torch.device("cuda")', 'device = torch.device("cpu")  # cuda later')
    assert not check(src, "PF301")


def test_pf301_accelerate_counts_as_accelerator() -> None:
    src = """\
        import torch
        import torch.nn.functional as F
        from accelerate import Accelerator

        accelerator = Accelerator()
        model = torch.nn.Linear(10, 3)
        optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
        model, optimizer, loader = accelerator.prepare(model, optimizer, loader)
        for x, y in loader:
            out = model(x)
            loss = F.cross_entropy(out, y)
            accelerator.backward(loss)
            optimizer.step()
            optimizer.zero_grad()
            vals = [o.max().item() for o in out]
    """
    assert [f.severity for f in check(src, "PF301")] == [Severity.WARNING]


# -- PF302 loop-invariant-transfer ---------------------------------------------------

def test_pf302_invariant_weights_evidence() -> None:
    src = HEAD + """
w = torch.tensor([1.0, 2.0, 0.5])
for x, y in loader:
    loss = F.cross_entropy(model(x.to(device)), y.to(device), weight=w.to(device))
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
"""
    found = check(src, "PF302")
    assert len(found) == 1 and found[0].severity is Severity.WARNING
    assert [e.line for e in found[0].evidence] == [11, 12, 13]


def test_pf302_rebinding_and_device_created_are_silent() -> None:
    src = HEAD + """
w = torch.tensor([1.0, 2.0, 0.5], device=device)
for x, y in loader:
    x = x.to(device)
    loss = F.cross_entropy(model(x), y.to(device), weight=w.to(device))
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
"""
    assert not check(src, "PF302")


def test_pf302_ema_offload_is_silent() -> None:
    # competitor TG013 false positive: deliberate EMA offload to the CPU
    src = HEAD + """
ema_unet = nn.Linear(10, 3)
buf = torch.zeros(3)
for x, y in loader:
    loss = F.cross_entropy(model(x.to(device)), y.to(device))
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    ema_unet.to("cuda")
    ema_unet.to("cpu")
    g = buf.to("cuda")
    h = buf.to("cpu")
"""
    assert not check(src, "PF302")


def test_pf302_per_iteration_numpy_output_is_silent() -> None:
    # competitor TG013 false positive: a fresh host array every iteration
    src = HEAD + """
for x, y in loader:
    feats = torch.from_numpy(runner.run(x))
    loss = F.cross_entropy(model(feats.to(device)), y.to(device))
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
"""
    assert not check(src, "PF302")


def test_pf302_guarded_transfer_is_silent() -> None:
    src = HEAD + """
probe = torch.randn(4, 10)
for step, (x, y) in enumerate(loader):
    loss = F.cross_entropy(model(x.to(device)), y.to(device))
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    if step % 100 == 0:
        p = model(probe.to(device))
"""
    assert not check(src, "PF302")


# -- PF303 discarded-tensor-to -----------------------------------------------------

def test_pf303_batch_fields() -> None:
    src = HEAD + """
for i, (x, y) in enumerate(loader):
    x.to(device)
    loss = F.cross_entropy(model(x), y.to(device))
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
"""
    found = check(src, "PF303")
    assert [f.span.line for f in found] == [12]
    assert "DataLoader batch" in found[0].evidence[0].message


def test_pf303_annotated_tensor_parameter_and_dtype_cast() -> None:
    src = """\
        import torch

        def resize(table: torch.Tensor, dtype):
            out = table.float().permute(1, 0)
            out.to(dtype)
            return out
    """
    found = check(src, "PF303")
    assert len(found) == 1 and found[0].severity is Severity.WARNING


def test_pf303_modules_and_unknowns_are_silent() -> None:
    src = HEAD + """
class Head(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(3, 3)

def setup(batch, thing, table):
    batch.to(device)   # a BatchEncoding moves in place
    thing.cuda()       # unknown object
    table.half()       # unannotated parameter
    Head().to(device).cuda()
    model.to(device)
    model.half()
"""
    assert not check(src, "PF303")


def test_pf303_collate_fn_batches_are_unknown() -> None:
    src = HEAD.replace("num_workers=4", "collate_fn=collate") + """
for x, y in loader:
    x.to(device)
"""
    assert not check(src, "PF303")


# -- PF304 loader-starvation --------------------------------------------------------

LOOP = """
for x, y in train_loader:
    loss = F.cross_entropy(model(x.cuda()), y.cuda())
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
"""


def test_pf304_note_with_evidence() -> None:
    src = HEAD + "train_loader = DataLoader(ds, batch_size=8, shuffle=True)\n" + LOOP
    found = check(src, "PF304")
    assert len(found) == 1 and found[0].severity is Severity.NOTE
    assert "num_workers" in found[0].message and "pin_memory" in found[0].message
    assert {e.message for e in found[0].evidence} >= {"training loop iterating this loader",
                                                       "the script uses CUDA"}


def test_pf304_only_pin_memory_missing() -> None:
    src = HEAD + "train_loader = DataLoader(ds, batch_size=8, num_workers=2)\n" + LOOP
    found = check(src, "PF304")
    assert len(found) == 1 and "num_workers" not in found[0].message.split(" with ")[1].split(".")[0]


def test_pf304_cuda_substring_is_not_cuda() -> None:
    # competitor TG004 decided "uses CUDA" by substring
    src = HEAD.replace('device = torch.device("cuda")', 'device = "cpu"  # cuda') + (
        "train_loader = DataLoader(ds, batch_size=8)\n") + LOOP.replace(".cuda()", ".to(device)")
    assert not check(src, "PF304")


def test_pf304_lightning_and_hf_trainer_are_silent() -> None:
    src = """\
        import lightning as L
        from torch.utils.data import DataLoader

        class Model(L.LightningModule):
            def train_dataloader(self):
                return DataLoader(ds, batch_size=8, shuffle=True)

        model = Model().cuda()
        L.Trainer(accelerator="gpu").fit(model)
    """
    assert not check(src, "PF304")


def test_pf304_loader_not_in_a_training_loop_is_silent() -> None:
    src = HEAD + "val_loader = DataLoader(ds, batch_size=8)\n" + """
with torch.no_grad():
    for x, y in val_loader:
        model(x.cuda())
"""
    assert not check(src, "PF304")


# -- PF305 unseeded-training ---------------------------------------------------------

MAIN = """\
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader
{imports}

def main():
{seed}    model = nn.Linear(10, 3)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    loader = DataLoader(dataset, batch_size=32, shuffle=True)
    for x, y in loader:
        loss = F.cross_entropy(model(x), y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()


if __name__ == "__main__":
    main()
"""


def test_pf305_one_note_at_the_entry() -> None:
    found = check(MAIN.format(imports="", seed=""), "PF305")
    assert len(found) == 1 and found[0].severity is Severity.NOTE
    assert found[0].span.line == 19
    lines = [e.line for e in found[0].evidence]
    assert lines[0] == 19 and 8 in lines


@pytest.mark.parametrize("seed", [
    "torch.manual_seed(0)", "torch.cuda.manual_seed_all(0)", "np.random.seed(0)",
    "random.seed(0)", "transformers.set_seed(0)", "set_seed(0)", "L.seed_everything(0)",
    "pl.seed_everything(0)", "lightning.seed_everything(0)", "accelerate.utils.set_seed(0)",
    "rng = np.random.default_rng(0)", "g = torch.Generator().manual_seed(0)",
    "init_seeds(args.seed)",
])
def test_pf305_seed_helpers_silence(seed: str) -> None:
    assert not check(MAIN.format(imports="", seed=f"    {seed}\n"), "PF305")


def test_pf305_seed_word_in_comment_does_not_silence() -> None:
    src = MAIN.format(imports="# seed: we call torch.manual_seed later", seed="    # set_seed(0)\n")
    assert len(check(src, "PF305")) == 1


def test_pf305_library_module_is_silent() -> None:
    src = MAIN.format(imports="", seed="").split("\n\nif __name__")[0] + "\n"
    assert not check(src, "PF305")


def test_pf305_lightning_fit_without_seed_everything() -> None:
    # the competitor skipped every Lightning file
    src = """\
        import lightning as L
        import torch.nn as nn

        class Model(L.LightningModule):
            def __init__(self):
                super().__init__()
                self.fc = nn.Linear(4, 1)

        def cli_main():
            model = Model()
            trainer = L.Trainer(max_epochs=1)
            trainer.fit(model)

        if __name__ == "__main__":
            cli_main()
    """
    found = check(src, "PF305")
    assert len(found) == 1
    seeded = src.replace("model = Model()", "L.seed_everything(1)\n            model = Model()")
    assert not check(seeded, "PF305")


def test_pf305_hf_trainer_seeds_itself() -> None:
    src = """\
        from transformers import AutoModelForCausalLM, Trainer, TrainingArguments
        model = AutoModelForCausalLM.from_config(config)
        Trainer(model=model, args=TrainingArguments("o"), train_dataset=ds).train()
    """
    assert not check(src, "PF305")


# -- speed -------------------------------------------------------------------------------

def _big(n: int) -> str:
    body = "\n".join(
        f"a{i} = loss.item()\nb{i} = out[{i}].cpu()\nw{i}.to(device)" for i in range(n))
    return step(body)


def test_linear_time() -> None:
    from conftest import cpu_cost

    def cost(n: int) -> float:
        parsed = parse(_big(n))
        return cpu_cost(lambda: analyse_parsed(parsed, Selection(codes=CODES)), repeat=5)

    cost(50)
    # 4x the input: linear costs about 4x, quadratic about 16x; the margin absorbs noise
    small, large = cost(150), cost(600)
    assert large < small * 8.0 + 0.02, (small, large)


def test_pf303_self_rebinding_keeps_tensor_and_functional_results() -> None:
    # written for the timm finding: a resized table whose dtype cast is dropped
    src = """\
        import torch.nn.functional as F

        def resize(table, size, dtype):
            grid = F.interpolate(table.float(), size=size, mode="bicubic")
            grid = grid.flatten(1).transpose(0, 1)
            grid.to(dtype)
            return grid
    """
    found = check(src, "PF303")
    assert [f.span.line for f in found] == [6]


def test_pf303_module_parameter_cast_is_silent() -> None:
    # ``m.float()`` on an unknown parameter could be a module (in place); no local forward
    src = """\
        def prepare(m, device):
            m2 = m.float()
            m2.to(device)
            return m2
    """
    assert not check(src, "PF303")
