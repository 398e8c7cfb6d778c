"""jobs133 (in-sample for jobs set held-out-50): a collate function that calls a processor or tokenizer with
``padding=True`` pads each batch to its longest sample (adapters/collator_pad.py ``_encoder_pads``), also when
it is handed over through ``functools.partial`` or as a Trainer's ``data_collator``. Fixtures of our own
rebuilding pinecypressfxd/finetune-Qwen2.5-VL @ 12f1b02 ``finetune_distributed.py:141-156,409-413``.
"""

from __future__ import annotations

from plan_helpers import fact, plan_of, write

SCRIPT = """\
    from functools import partial

    import torch
    from torch.utils.data import DataLoader
    from transformers import AutoProcessor, Qwen2_5_VLForConditionalGeneration


    def collate_fn(batch, processor, device):
        messages = [m["messages"] for m in batch]
        texts = [processor.apply_chat_template(msg, tokenize=False) for msg in messages]
        inputs = processor(
            text=texts,
            images=None,
            PADDING
            return_tensors="pt",
        )
        return inputs.to(device), inputs["input_ids"]


    def train():
        model = Qwen2_5_VLForConditionalGeneration.from_pretrained("Qwen/Qwen2.5-VL-3B-Instruct")
        processor = AutoProcessor.from_pretrained("Qwen/Qwen2.5-VL-3B-Instruct")
        optimizer = torch.optim.AdamW(model.parameters(), lr=1e-5)
        train_loader = DataLoader(
            list(range(100)),
            batch_size=1,
            COLLATE
        )
        for batch, labels in train_loader:
            loss = model(**batch, labels=labels).loss
            loss.backward()
            optimizer.step()
            optimizer.zero_grad()


    if __name__ == "__main__":
        train()
"""


def _plan(cli, tmp_path, padding: str = "padding=True,",
          collate: str = "collate_fn=partial(collate_fn, processor=processor, device='cuda'),"):
    write(tmp_path, {"train.py": SCRIPT.replace("PADDING", padding).replace("COLLATE", collate)})
    return plan_of(cli, "train.py", cwd=tmp_path)


def test_partial_collate_fn_with_a_padding_processor_pads_to_the_longest(cli, tmp_path):
    plan = _plan(cli, tmp_path)
    padding = fact(plan, "data.padding")
    assert padding.value == "dynamic"
    assert padding.confidence == "medium"
    assert "collate_fn" in (padding.source.detail or "")


def test_longest_is_the_same_reading(cli, tmp_path):
    assert fact(_plan(cli, tmp_path, padding="padding='longest',"), "data.padding").value == "dynamic"


def test_a_plain_collate_fn_name_is_read_too(cli, tmp_path):
    plan = _plan(cli, tmp_path, collate="collate_fn=lambda b: b,")
    assert fact(plan, "data.padding") is None  # a lambda is not read
    write(tmp_path, {"train.py": SCRIPT.replace("PADDING", "padding=True,")
                     .replace("COLLATE", "collate_fn=collate_fn,")
                     .replace("def collate_fn(batch, processor, device):", "def collate_fn(batch, processor=None, device='cuda'):")})
    assert fact(plan_of(cli, "train.py", cwd=tmp_path), "data.padding").value == "dynamic"


def test_twin_padding_off_says_nothing(cli, tmp_path):
    assert fact(_plan(cli, tmp_path, padding="padding=False,"), "data.padding") is None


def test_twin_max_length_padding_is_not_dynamic(cli, tmp_path):
    plan = _plan(cli, tmp_path, padding="padding='max_length', max_length=512,")
    padding = fact(plan, "data.padding")
    assert padding is None or padding.value != "dynamic"


def test_twin_a_layer_padding_is_not_a_processor(cli, tmp_path):
    plan = _plan(cli, tmp_path, padding="padding=False,")
    assert fact(plan, "data.padding") is None
    write(tmp_path, {"train.py": SCRIPT.replace("PADDING", "padding=False,")
                     .replace("COLLATE", "collate_fn=partial(collate_fn, processor=processor, device='cuda'),")
                     .replace("        return inputs.to(device)", "        torch.nn.functional.pad(inputs, (0, 1), padding=True)\n"
                              "        return inputs.to(device)")})
    assert fact(plan_of(cli, "train.py", cwd=tmp_path), "data.padding") is None


TRL = """\
    from datasets import load_dataset
    from transformers import AutoModelForVision2Seq, AutoProcessor
    from trl import SFTConfig, SFTTrainer

    processor = AutoProcessor.from_pretrained("HuggingFaceM4/idefics2-8b")
    model = AutoModelForVision2Seq.from_pretrained("HuggingFaceM4/idefics2-8b")


    def collate_fn(examples):
        texts = [processor.apply_chat_template(e["messages"], tokenize=False) for e in examples]
        images = [e["images"] for e in examples]
        batch = processor(text=texts, images=images, return_tensors="pt", padding=True)
        labels = batch["input_ids"].clone()
        batch["labels"] = labels
        return batch


    trainer = SFTTrainer(
        model=model,
        args=SFTConfig(output_dir="out", per_device_train_batch_size=2),
        data_collator=collate_fn,
        train_dataset=load_dataset("HuggingFaceH4/llava-instruct-mix-vsft", split="train"),
        processing_class=processor.tokenizer,
    )
    trainer.train()
"""


def test_trainer_data_collator_function_with_a_padding_processor(cli, tmp_path):
    write(tmp_path, {"sft_vlm.py": TRL})
    plan = plan_of(cli, "sft_vlm.py", cwd=tmp_path)
    padding = fact(plan, "data.padding")
    assert padding is not None and padding.value == "dynamic"
