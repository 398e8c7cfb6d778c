"""PF352 examples: bad ones pin their finding's line, good ones stay silent."""

from __future__ import annotations

import textwrap

_LOOP = textwrap.dedent("""
    import torch
    import torch.nn.functional as F

    from unet import UNet
    from data import make_loader


    def main(fp16=True, epochs=10):
        device = torch.device("cuda")
        model = UNet(channels=128)
        model.load_state_dict(torch.load("pretrained.pt", map_location="cpu"))
        if fp16:
            {cast}
        model.to(device)
        model.train()
        optimizer = torch.optim.{opt}{mark}
        for epoch in range(epochs):
            for x, y in make_loader():
                loss = F.mse_loss(model(x.to(device)).float(), y.to(device).float())
                optimizer.zero_grad()
                loss.backward()
                optimizer.step()
""")

PF352_BAD = [
    # glide-finetune issue 5: convert_to_fp16 and AdamW's default eps
    _LOOP.format(cast="model.convert_to_fp16()", opt="AdamW(model.parameters(), lr=1e-5, weight_decay=0.0)",
                 mark="  # error: PF352"),
    # .half() and Adam with an explicit eps that float16 cannot hold
    _LOOP.format(cast="model = model.half()", opt="Adam(model.parameters(), lr=1e-4, eps=1e-10)",
                 mark="  # error: PF352"),
    # a Hub model loaded in float16 and fully fine-tuned
    textwrap.dedent("""
    import torch
    from transformers import AutoModelForCausalLM

    model = AutoModelForCausalLM.from_pretrained("EleutherAI/gpt-neo-125m", torch_dtype=torch.float16).cuda()
    model.train()
    opt = torch.optim.AdamW(model.parameters(), lr=2e-5)  # error: PF352
    for batch in loader:
        out = model(**batch)
        out.loss.backward()
        opt.step()
        opt.zero_grad()
"""),
]

PF352_GOOD = [
    # the fix
    _LOOP.format(cast="model.convert_to_fp16()",
                 opt="AdamW(model.parameters(), lr=1e-5, weight_decay=0.0, eps=1e-4 if fp16 else 1e-8)", mark=""),
    # a literal eps float16 can hold
    _LOOP.format(cast="model.half()", opt="Adam(model.parameters(), lr=1e-4, eps=1e-4)", mark=""),
    # tricky-correct: bfloat16 weights (float32's exponent range: 1e-8 is representable)
    _LOOP.format(cast="model.to(torch.bfloat16)", opt="AdamW(model.parameters(), lr=1e-5)", mark=""),
    # tricky-correct: a frozen float16 teacher, the float32 student is trained
    textwrap.dedent("""
    import torch
    import torch.nn.functional as F

    teacher = torch.load("teacher.pt").half().eval()
    student = torch.nn.Linear(512, 10).cuda()
    opt = torch.optim.AdamW(student.parameters(), lr=1e-3)
    for x, y in loader:
        with torch.no_grad():
            soft = teacher(x.half()).float()
        loss = F.kl_div(F.log_softmax(student(x), -1), F.softmax(soft, -1), reduction="batchmean")
        opt.zero_grad()
        loss.backward()
        opt.step()
"""),
    # tricky-correct: the model is cast to float16 for export, after training
    textwrap.dedent("""
    import torch

    model = torch.nn.Sequential(torch.nn.Linear(64, 64), torch.nn.ReLU(), torch.nn.Linear(64, 1)).cuda()
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    for x, y in loader:
        loss = torch.nn.functional.mse_loss(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
    model.half()
    torch.save(model.state_dict(), "model_fp16.pt")
"""),
]
