"""PF579 examples: small projects (``# --- <path>`` sections, ``# --- launch`` holds the launch
command); bad ones must fire at the pinned line, good ones stay silent."""

from __future__ import annotations

import textwrap

_SFT = textwrap.dedent("""
    # --- finetune.py
    import torch
    from transformers import AutoModelForCausalLM, HfArgumentParser, Trainer, TrainingArguments

    from data import ModelArguments, make_data_module


    def train():
        parser = HfArgumentParser((ModelArguments, TrainingArguments))
        model_args, training_args = parser.parse_args_into_dataclasses()
        model = AutoModelForCausalLM.from_pretrained(model_args.model_name_or_path)
        {cast}{pin}
        trainer = Trainer(model=model, args=training_args, **make_data_module())
        trainer.train()


    if __name__ == "__main__":
        train()
    # --- launch
    torchrun --nproc_per_node 4 finetune.py --model_name_or_path TinyLlama/TinyLlama-1.1B --output_dir out {flags}
""")

_LOOP = textwrap.dedent("""
    # --- train.py
    import torch
    from torch.utils.data import DataLoader

    from nets import ResNet, make_dataset


    def main():
        model = ResNet().cuda()
        {cast}{pin}
        optimizer = torch.optim.AdamW(model.parameters(), lr=1e-4)
        loader = DataLoader(make_dataset(), batch_size=64, shuffle=True)
        for epoch in range(10):
            for x, y in loader:
                loss = torch.nn.functional.cross_entropy(model(x.cuda(){xcast}), y.cuda())
                optimizer.zero_grad()
                loss.backward()
                optimizer.step()


    if __name__ == "__main__":
        main()
""")

BAD_EXAMPLES = [
    # TinyLlama issue 32: model.half() added to fit full SFT, no --fp16
    _SFT.format(cast="model = model.half()", pin="  # warning: PF579", flags="--learning_rate 2e-5"),
    # a custom loop: the whole network cast to float16 and stepped by AdamW without a scaler
    # PF352 (a code rule) names the other consequence on the optimizer line: AdamW's default eps is 0 in float16
    _LOOP.format(cast="model = model.half()", pin="  # warning: PF579", xcast=".half()").replace(
        "optimizer = torch.optim.AdamW(model.parameters(), lr=1e-4)",
        "optimizer = torch.optim.AdamW(model.parameters(), lr=1e-4)  # error: PF352"),
    # GLIDE fine-tuning (held-out-28): guided-diffusion's `convert_to_fp16()` under a flag the launch sets,
    # AdamW at its default eps=1e-8, which is 0 in float16
    _LOOP.format(cast="model.convert_to_fp16()", pin="  # warning: PF579", xcast=".half()").replace(
        "optimizer = torch.optim.AdamW(model.parameters(), lr=1e-4)",
        "optimizer = torch.optim.AdamW(model.parameters(), lr=1e-4)  # error: PF352"),
]

GOOD_EXAMPLES = [
    # the fix: fp32 weights, fp16 mixed precision from the launch line
    _SFT.format(cast="model.gradient_checkpointing_enable()", pin="", flags="--learning_rate 2e-5 --fp16"),
    # tricky-correct: a LoRA adapter trained on the frozen fp16 model
    _SFT.format(cast="model = get_peft_model(model.half(), LoraConfig(r=8, target_modules=['q_proj', 'v_proj']))",
                pin="", flags="--learning_rate 2e-4").replace(
        "from data import", "from peft import LoraConfig, get_peft_model\nfrom data import"),
    # the GLIDE fine-tuning fix: pure float16 kept on purpose, Adam's eps raised to a float16-safe value
    _LOOP.format(cast="model.convert_to_fp16()", pin="", xcast=".half()").replace(
        "lr=1e-4)", "lr=1e-4, eps=1e-4 if torch.cuda.is_available() else 1e-8)"),
    # tricky-correct: a bfloat16 cast (no underflow of the exponent range)
    _LOOP.format(cast="model = model.to(torch.bfloat16)", pin="", xcast=".to(torch.bfloat16)"),
    # tricky-correct: a half-precision copy used for evaluation only
    textwrap.dedent("""
    # --- evaluate.py
    import torch

    from nets import ResNet, make_loader


    @torch.no_grad()
    def main():
        model = ResNet().cuda()
        model.load_state_dict(torch.load("best.pt"))
        model = model.half().eval()
        correct = 0
        for x, y in make_loader():
            correct += (model(x.cuda().half()).argmax(-1) == y.cuda()).sum().item()
        print(correct)


    if __name__ == "__main__":
        main()
"""),
]
