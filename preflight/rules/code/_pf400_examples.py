"""PF400 examples: bad ones pin their finding's line, good ones stay silent."""

from __future__ import annotations

import textwrap

BAD_EXAMPLES = [
    # transformers issue 16971: T5 wrapped in nn.DataParallel, save_pretrained on the wrapper after each epoch
    textwrap.dedent("""
    import os

    import torch
    import torch.nn as nn
    from transformers import T5ForConditionalGeneration


    def main(loader):
        model = T5ForConditionalGeneration.from_pretrained("t5-base")
        model = nn.DataParallel(model).cuda()
        optimizer = torch.optim.Adam(model.parameters(), lr=1e-4)
        for epoch in range(3):
            model.train()
            for batch in loader:
                loss = model(**batch).loss.mean()
                optimizer.zero_grad()
                loss.backward()
                optimizer.step()
            model.save_pretrained(os.path.join("outputs", f"epoch{epoch}"))  # error: PF400
"""),
    # transformers issue 7980: DistributedDataParallel (imported as DDP), the model's config read through it
    textwrap.dedent("""
    import torch
    import torch.distributed as dist
    from torch.nn.parallel import DistributedDataParallel as DDP
    from transformers import EncoderDecoderModel

    dist.init_process_group("nccl")
    rank = dist.get_rank()
    model = EncoderDecoderModel.from_encoder_decoder_pretrained("bert-base-uncased", "bert-base-uncased").cuda(rank)
    model = DDP(model, device_ids=[rank])
    model.config.decoder_start_token_id = 101  # error: PF400
"""),
    # deepspeech.pytorch issue 475: the file's own model class, a plain attribute read through the DDP wrapper
    textwrap.dedent("""
    import torch
    import torch.nn as nn
    from torch.nn.parallel import DistributedDataParallel


    class DeepSpeech(nn.Module):
        def __init__(self, labels, hidden_size=768):
            super().__init__()
            self.version = "0.0.1"
            self.labels = labels
            self.rnn = nn.LSTM(161, hidden_size)

        def forward(self, x):
            return self.rnn(x)[0]


    def train(labels, rank):
        model = DeepSpeech(labels)
        model = model.cuda(rank)
        model = DistributedDataParallel(model, device_ids=[rank])
        package = {"version": model.version, "state_dict": model.state_dict()}  # error: PF400
        torch.save(package, "deepspeech.pth")
"""),
]

GOOD_EXAMPLES = [
    # the fix of transformers issue 16971: save the wrapped module
    textwrap.dedent("""
    import torch.nn as nn
    from transformers import T5ForConditionalGeneration

    model = T5ForConditionalGeneration.from_pretrained("t5-base")
    model = nn.DataParallel(model).cuda()
    model.module.save_pretrained("outputs")
"""),
    # the old transformers examples' idiom: unwrap by hand under a hasattr test, then save
    textwrap.dedent("""
    import torch
    from transformers import BertForSequenceClassification


    def train(n_gpu):
        model = BertForSequenceClassification.from_pretrained("bert-base-uncased")
        if n_gpu > 1:
            model = torch.nn.DataParallel(model)
        model_to_save = model.module if hasattr(model, "module") else model
        model_to_save.save_pretrained("out")
        if hasattr(model, "config"):
            print(model.config)
"""),
    # tricky-correct: the name is re-bound to the inner model before the save
    textwrap.dedent("""
    import torch.nn as nn
    from transformers import AutoModelForCausalLM

    model = AutoModelForCausalLM.from_pretrained("gpt2")
    model = nn.DataParallel(model)
    model = model.module
    model.save_pretrained("out")
"""),
    # tricky-correct: the wrapper keeps its own name, the raw model is saved and generates
    textwrap.dedent("""
    import torch
    from transformers import AutoModelForSeq2SeqLM

    model = AutoModelForSeq2SeqLM.from_pretrained("t5-small").cuda()
    dp_model = torch.nn.DataParallel(model)
    loss = dp_model(input_ids=ids, labels=ids).loss.mean()
    model.generate(ids, max_new_tokens=20)
    model.save_pretrained("out")
"""),
    # tricky-correct: the project's own DataParallel subclass forwards unknown attributes to the module
    textwrap.dedent("""
    import torch.nn as nn
    from transformers import AutoModel


    class DataParallel(nn.DataParallel):
        def __getattr__(self, name):
            try:
                return super().__getattr__(name)
            except AttributeError:
                return getattr(self.module, name)


    model = DataParallel(AutoModel.from_pretrained("bert-base-uncased"))
    model.save_pretrained("out")
"""),
    # tricky-correct: a local model's method of a name the wrapper has too (train/state_dict), and nn.Module API
    textwrap.dedent("""
    import torch
    import torch.nn as nn
    from torch.nn.parallel import DistributedDataParallel as DDP


    class Net(nn.Module):
        def __init__(self):
            super().__init__()
            self.fc = nn.Linear(4, 2)

        def train(self, mode=True):
            return super().train(mode)

        def forward(self, x):
            return self.fc(x)


    def run(rank):
        net = Net().cuda(rank)
        net = DDP(net, device_ids=[rank])
        net.train()
        torch.save(net.module.state_dict(), "net.pt")
        print(sum(p.numel() for p in net.parameters()))
"""),
    # tricky-correct: the wrap happens in one function, the save in another on the model it was given
    textwrap.dedent("""
    import torch.nn as nn


    def wrap(model):
        model = nn.DataParallel(model)
        return model


    def save(model, path):
        model.save_pretrained(path)
"""),
]
