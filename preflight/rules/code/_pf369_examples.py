"""Examples of PF369 (quantized-model-moved); the shapes of transformers#38717 and bitsandbytes#547."""

from __future__ import annotations

import textwrap

PF369_BAD = [
    # transformers#38717: the 8-bit config in a variable, device_map given, then .to(device)
    textwrap.dedent("""
    import torch
    from transformers import AutoModelForCausalLM, BitsAndBytesConfig

    def main():
        device = torch.device("cuda:0")
        bnb = BitsAndBytesConfig(load_in_8bit=True, llm_int8_threshold=6.0)
        model = AutoModelForCausalLM.from_pretrained(
            "mistralai/Mistral-7B-v0.3", quantization_config=bnb, device_map={"": 0})
        model.to(device)  # error: PF369
        return model
"""),
    # the older keyword, and the move written as a reassignment
    textwrap.dedent("""
    from transformers import AutoModelForSeq2SeqLM

    model = AutoModelForSeq2SeqLM.from_pretrained("google/flan-t5-xl", load_in_8bit=True, device_map="auto")
    model = model.cuda()  # error: PF369
"""),
    # an 8-bit model cast with .half() in a helper that loaded it (the cast is refused at any bit width)
    textwrap.dedent("""
    from transformers import AutoModelForCausalLM

    def load_frozen_judge(path):
        judge = AutoModelForCausalLM.from_pretrained(path, load_in_8bit=True, device_map="auto")
        judge.eval()
        judge.half()  # error: PF369
        return judge
"""),
    # a 4-bit model cast to half precision (bitsandbytes refuses dtype casts of quantized weights)
    textwrap.dedent("""
    import torch
    from transformers import AutoModelForCausalLM, BitsAndBytesConfig

    class Loader:
        def load(self, name):
            self.model = AutoModelForCausalLM.from_pretrained(
                name, quantization_config=BitsAndBytesConfig(
                    load_in_4bit=True, bnb_4bit_quant_type="nf4", bnb_4bit_compute_dtype=torch.bfloat16))
            self.model.to(torch.float16)  # error: PF369
"""),
]

PF369_GOOD = [
    # the fix: the device is chosen through device_map, no .to
    textwrap.dedent("""
    import torch
    from transformers import AutoModelForCausalLM, BitsAndBytesConfig

    def main():
        bnb = BitsAndBytesConfig(load_in_8bit=True)
        model = AutoModelForCausalLM.from_pretrained("mistralai/Mistral-7B-v0.3", quantization_config=bnb,
                                                     device_map={"": 0})
        return model
"""),
    # tricky: a 4-bit model moved (not cast) is allowed by bitsandbytes >= 0.43.2; the float
    # reference model of the same function may be moved freely
    textwrap.dedent("""
    import torch
    from transformers import AutoModelForCausalLM, BitsAndBytesConfig

    def main(device):
        bnb = BitsAndBytesConfig(load_in_4bit=True, bnb_4bit_quant_type="nf4",
                                 bnb_4bit_compute_dtype=torch.bfloat16)
        policy = AutoModelForCausalLM.from_pretrained("Qwen/Qwen2-7B", quantization_config=bnb)
        policy.to(device)
        reference = AutoModelForCausalLM.from_pretrained("Qwen/Qwen2-7B", torch_dtype=torch.bfloat16)
        reference.to(device)
        eight = BitsAndBytesConfig(load_in_8bit=True)
        other = AutoModelForCausalLM.from_pretrained("Qwen/Qwen2-0.5B", quantization_config=eight)
        other = AutoModelForCausalLM.from_pretrained("Qwen/Qwen2-0.5B")
        other.cuda()
"""),
    # tricky: QLoRA's usual casts of the unquantized parts (the head, the norms) and a .bfloat16()
    # of the whole model (not overridden by transformers; torch skips the integer weights)
    textwrap.dedent("""
    import torch
    from transformers import AutoModelForCausalLM, BitsAndBytesConfig

    def build(name):
        model = AutoModelForCausalLM.from_pretrained(
            name, device_map={"": 0}, quantization_config=BitsAndBytesConfig(
                load_in_4bit=True, bnb_4bit_quant_type="nf4", bnb_4bit_compute_dtype=torch.bfloat16))
        model.lm_head.float()
        for name, module in model.named_modules():
            if "norm" in name:
                module.to(torch.float32)
        model.bfloat16()
        try:
            model.half()
        except ValueError:
            pass
        return model
"""),
    # tricky: the 8-bit load is one branch of an if/else and the move runs only on the other path
    # (the if after it asks the same flag): not decided from the file, silent
    textwrap.dedent("""
    import torch
    from transformers import AutoModelForCausalLM

    def load(name, int8):
        if not int8:
            model = AutoModelForCausalLM.from_pretrained(name, torch_dtype=torch.float16)
        else:
            model = AutoModelForCausalLM.from_pretrained(name, load_in_8bit=True, device_map="auto")
        if not int8:
            model.cuda()
        return model.eval()
"""),
    # tricky: the config's keys come through **kwargs (not known), and 8-bit is only a flag name
    textwrap.dedent("""
    from transformers import AutoModelForCausalLM, BitsAndBytesConfig

    def load(name, quant_kwargs, load_in_8bit=False):
        model = AutoModelForCausalLM.from_pretrained(
            name, quantization_config=BitsAndBytesConfig(**quant_kwargs))
        model.to("cuda")
        return model
"""),
]

# peft tests/test_gpu_examples.py (real code, det84): the config name is bound in an 8-bit and a
# 4-bit branch (unknown), and the move is guarded by a device test
PF369_GOOD.append(textwrap.dedent("""
    import torch
    from transformers import AutoModelForCausalLM, BitsAndBytesConfig

    def load(model_id, method, device):
        if method == "bnb-4bit":
            quantization_config = BitsAndBytesConfig(load_in_4bit=True, bnb_4bit_quant_type="nf4",
                                                     bnb_4bit_compute_dtype=torch.float32)
        else:
            quantization_config = BitsAndBytesConfig(load_in_8bit=True)
        model = AutoModelForCausalLM.from_pretrained(model_id, quantization_config=quantization_config)
        model = model.to(device)
        eight = AutoModelForCausalLM.from_pretrained(model_id, load_in_8bit=True)
        if eight.device.type != device:
            eight = eight.to(device)
        return model, eight
"""))
