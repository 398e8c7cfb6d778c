"""det84 (issue 18): two bug classes no rule owned, with the most public reports among the held-out
misses. PF369: a bitsandbytes-quantized model moved or cast after loading (transformers#38717,
held-out-20). PF370: a Dataset holding CUDA tensors read by fork-started DataLoader workers
(pytorch#40403, held-out-21). Programs written here, run through the CLI as a user does."""

from __future__ import annotations

import json
import textwrap
from pathlib import Path


def write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(textwrap.dedent(text), encoding="utf-8")
    return path


def findings(cli, tmp_path: Path, code: str) -> list[dict]:
    """``check .`` for file rules; plan rules (PF370) read the job: ``audit`` of its Python files."""
    files = sorted(p.name for p in tmp_path.glob("*.py"))
    command = ("audit", *files) if code == "PF370" else ("check", ".")
    result = cli(*command, "--select", code, "--format", "json", "--no-cache", "--exit-zero", cwd=tmp_path)
    return [f for f in json.loads(result.out)["findings"] if f["code"] == code]


def where(found: list[dict]) -> list[tuple[str, int]]:
    return [(Path(f["path"]).name, f["line"]) for f in found]


# --- PF369 ---------------------------------------------------------------------------------------------------
SFT = """\
    import torch
    from peft import LoraConfig, get_peft_model
    from transformers import AutoModelForCausalLM, BitsAndBytesConfig


    def main():
        device = torch.device("cuda:0")
        bnb = BitsAndBytesConfig(
            load_in_{bits}bit=True,
            bnb_4bit_quant_type="nf4",
            bnb_4bit_compute_dtype=torch.bfloat16,
        )
        model = AutoModelForCausalLM.from_pretrained(
            "mistralai/Mistral-7B-v0.3",
            quantization_config=bnb,
            device_map={{"": 0}},
        )
        {move}
        model = get_peft_model(model, LoraConfig(r=16, task_type="CAUSAL_LM"))
        model.to(device)
"""


def test_pf369_eight_bit_model_moved_with_to_is_an_error_at_the_call(cli, tmp_path):
    write(tmp_path, "lora8_sft.py", SFT.format(bits=8, move="model.to(device)"))
    found = findings(cli, tmp_path, "PF369")
    assert where(found) == [("lora8_sft.py", 18)]
    assert found[0]["severity"] == "error"
    assert "line 13" in found[0]["message"] and "8-bit" in found[0]["message"]


def test_pf369_the_fix_and_the_peft_wrapped_move_stay_silent(cli, tmp_path):
    # the fix drops the move; the `.to(device)` after get_peft_model is on a new object (not decided: silent)
    write(tmp_path, "lora8_sft.py", SFT.format(bits=8, move="model.config.use_cache = False"))
    assert findings(cli, tmp_path, "PF369") == []


def test_pf369_four_bit_model_moved_is_allowed_but_cast_is_not(cli, tmp_path):
    write(tmp_path, "qlora.py", SFT.format(bits=4, move="model.to(device)"))
    assert findings(cli, tmp_path, "PF369") == []
    write(tmp_path, "qlora.py", SFT.format(bits=4, move="model.half()"))
    found = findings(cli, tmp_path, "PF369")
    assert where(found) == [("qlora.py", 18)]
    assert "`.half()` is not supported for quantized model" in found[0]["message"]
    # .bfloat16() is not overridden by transformers (torch skips the integer weights): silent
    write(tmp_path, "qlora.py", SFT.format(bits=4, move="model.bfloat16()"))
    assert findings(cli, tmp_path, "PF369") == []


def test_pf369_each_refused_call_quotes_its_own_error(cli, tmp_path):
    write(tmp_path, "lora8_sft.py", SFT.format(bits=8, move="model = model.cuda()"))
    found = findings(cli, tmp_path, "PF369")
    assert where(found) == [("lora8_sft.py", 18)]
    assert "Calling `cuda()` is not supported for `8-bit` quantized models" in found[0]["message"]
    write(tmp_path, "lora8_sft.py", SFT.format(bits=8, move="model.to(device, dtype=torch.float16)"))
    found = findings(cli, tmp_path, "PF369")
    assert where(found) == [("lora8_sft.py", 18)]
    assert "You cannot cast a bitsandbytes model in a new `dtype`" in found[0]["message"]


# --- PF370 ---------------------------------------------------------------------------------------------------
DATA = """\
    import torch
    from torch.utils.data import Dataset


    class CachedEmbeddingDataset(Dataset):
        \"\"\"Pre-computed CLIP image embeddings and labels.\"\"\"

        def __init__(self, path, device={device}):
            blob = torch.load(path, map_location="cpu")
            self.features = blob["features"].to(device)
            self.labels = blob["labels"].to(device)

        def __len__(self):
            return self.labels.shape[0]

        def __getitem__(self, idx):
            return self.features[idx], self.labels[idx]
"""
TRAIN = """\
    {header}import torch
    from torch.utils.data import DataLoader

    from data import CachedEmbeddingDataset


    def build_loader(path, batch_size):
        dataset = CachedEmbeddingDataset(path{args})
        return DataLoader(dataset, batch_size=batch_size, shuffle=True, num_workers={workers}, drop_last=True)


    def main():
        loader = build_loader("cache/train.pt", 512)
        probe = torch.nn.Linear(768, 1000).cuda()
        optimizer = torch.optim.AdamW(probe.parameters(), lr=1e-3)
        for x, y in loader:
            loss = torch.nn.functional.cross_entropy(probe(x.cuda()), y.cuda())
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()


    if __name__ == "__main__":
        main()
"""


def test_pf370_gpu_dataset_in_another_file_read_by_eight_forked_workers(cli, tmp_path):
    write(tmp_path, "data.py", DATA.format(device='"cuda"'))
    write(tmp_path, "train.py", TRAIN.format(header="", args="", workers=8))
    found = findings(cli, tmp_path, "PF370")
    assert where(found) == [("train.py", 9)]
    assert found[0]["severity"] == "error"
    assert "8 worker processes" in found[0]["message"] and "line 10" in found[0]["message"]
    assert [(Path(e["path"]).name, e["line"]) for e in found[0]["evidence"] if e.get("path")] == [("data.py", 10)]


def test_pf370_cpu_dataset_passed_device_no_workers_or_spawn_stay_silent(cli, tmp_path):
    write(tmp_path, "data.py", DATA.format(device='"cpu"'))
    write(tmp_path, "train.py", TRAIN.format(header="", args="", workers=8))
    assert findings(cli, tmp_path, "PF370") == []
    write(tmp_path, "data.py", DATA.format(device='"cuda"'))
    for header, args, workers in (("", ', device="cpu"', 8), ("", "", 0),
                                  ("import torch.multiprocessing as mp\nmp.set_start_method(\"spawn\")\n", "", 8)):
        write(tmp_path, "train.py", TRAIN.format(header=header, args=args, workers=workers))
        assert findings(cli, tmp_path, "PF370") == [], (header, args, workers)


# --- PF371 ---------------------------------------------------------------------------------------------------
UTIL = """\
    from torch.nn.parallel import DistributedDataParallel as DDP


    def transform_if_model_is_DDP(text_encoder, unet, network=None):
        # Transform text_encoder, unet and network from DistributedDataParallel
        return (model.module if type(model) == DDP else model for model in [text_encoder, unet, network] if model is not None)
"""
FINE_TUNE = """\
    import torch
    from accelerate import Accelerator

    import library.train_util as train_util


    def train(args, unet, text_encoder, optimizer, train_dataloader, lr_scheduler):
        accelerator = Accelerator(gradient_accumulation_steps=args.gradient_accumulation_steps)
        {te}unet, optimizer, train_dataloader, lr_scheduler = accelerator.prepare({te}unet, optimizer, train_dataloader,
                                                                               lr_scheduler)
        {unwrap}
        for epoch in range(args.max_train_epochs):
            unet.train()
            for step, batch in enumerate(train_dataloader):
                with accelerator.accumulate(unet):
                    with torch.no_grad():
                        encoder_hidden_states = text_encoder(batch["input_ids"])[0]
                    noise = torch.randn_like(batch["latents"])
                    noise_pred = unet(batch["latents"] + noise, batch["timesteps"], encoder_hidden_states).sample
                    loss = torch.nn.functional.mse_loss(noise_pred.float(), noise.float(), reduction="mean")
                    accelerator.backward(loss)
                    optimizer.step()
                    lr_scheduler.step()
                    optimizer.zero_grad(set_to_none=True)
        {after}
"""


def test_pf371_sd_scripts_924_unwrap_helper_in_another_module_right_after_prepare(cli, tmp_path):
    write(tmp_path, "library/__init__.py", "")
    write(tmp_path, "library/train_util.py", UTIL)
    write(tmp_path, "fine_tune.py", FINE_TUNE.format(
        te="", unwrap="text_encoder, unet = train_util.transform_if_model_is_DDP(text_encoder, unet)", after=""))
    found = findings(cli, tmp_path, "PF371")
    assert where(found) == [("fine_tune.py", 11)]
    assert found[0]["severity"] == "warning"
    assert "`unet` is unwrapped" in found[0]["message"] and "line 9" in found[0]["message"]


def test_pf371_the_fix_and_the_unwrap_for_the_final_save_stay_silent(cli, tmp_path):
    write(tmp_path, "library/__init__.py", "")
    write(tmp_path, "library/train_util.py", UTIL)
    # sd-scripts#989's fix: the prepared names are trained; the bare modules are taken for the save at the end
    write(tmp_path, "fine_tune.py", FINE_TUNE.format(
        te="", unwrap="", after="unet = accelerator.unwrap_model(unet)\n        unet.save_pretrained(args.output_dir)"))
    assert findings(cli, tmp_path, "PF371") == []
    # the prepared text encoder, run only under no_grad, unwrapped before the loop: not the trained model
    write(tmp_path, "fine_tune.py", FINE_TUNE.format(
        te="text_encoder, ", unwrap="text_encoder = accelerator.unwrap_model(text_encoder)", after=""))
    assert findings(cli, tmp_path, "PF371") == []
