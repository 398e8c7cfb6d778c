"""PF424 examples: executable documentation. A bad example marks each line it must be
reported on with a trailing ``# error: PFxxx`` / ``# warning: PFxxx`` comment; the meta-test
asserts exactly those findings. Good examples must stay silent."""

from __future__ import annotations

import textwrap

PF424_BAD = [
    textwrap.dedent("""
    import deepspeed

    engine, optimizer, loader, _ = deepspeed.initialize(model=model, model_parameters=model.parameters(), training_data=ds)
    for batch in loader:
        loss = engine(batch)
        loss.backward()  # error: PF424
        engine.step()
"""),
    # the training function sits above main() and is handed the engine (the usual layout of a
    # script; a shape the rule missed when probed while hunting, not a real repository's code)
    textwrap.dedent("""
    import deepspeed


    def train(engine, optimizer, loader):
        for batch in loader:
            loss = engine(**batch).loss
            loss.backward()  # error: PF424
            optimizer.step()
            optimizer.zero_grad()


    def main():
        engine, optimizer, _, _ = deepspeed.initialize(args=args, model=model, model_parameters=model.parameters())
        train(engine, optimizer, loader)
"""),
    # two engines handed to an update function under their own names, trained with loss.backward()
    textwrap.dedent("""
    import deepspeed
    import torch


    def build_engine(model, ds_config):
        engine, *_ = deepspeed.initialize(model=model, model_parameters=model.parameters(), config=ds_config)
        return engine


    def ppo_update(policy_engine, value_engine, minibatches):
        for mb in minibatches:
            ratio = torch.exp(policy_engine(mb["ids"]).logprobs - mb["old_logprobs"])
            (-mb["advantages"] * ratio).mean().backward()  # error: PF424
            policy_engine.step()
            vf_loss = ((value_engine(mb["ids"]).values - mb["returns"]) ** 2).mean()
            vf_loss.backward()
            value_engine.step()
"""),
]

PF424_GOOD = [
    textwrap.dedent("""
    import deepspeed

    engine, optimizer, loader, _ = deepspeed.initialize(model=model, model_parameters=model.parameters(), training_data=ds)
    for batch in loader:
        loss = engine(batch)
        engine.backward(loss)
        engine.step()
"""),
    # no DeepSpeed engine in this file
    textwrap.dedent("""
    import torch

    for x, y in loader:
        optimizer.zero_grad()
        torch.nn.functional.mse_loss(model(x), y).backward()
        optimizer.step()
"""),
    # one layer trained by hand with its own optimizer after initialize (layer-wise
    # distillation; shape of microsoft/DeepSpeedExamples compression/bert/run_glue_lkd.py:473-527
    # at 83757d9c937daabd1089a08051061706cb73900d)
    textwrap.dedent("""
    import deepspeed
    import torch
    from torch.optim import AdamW

    model, optimizer, _, lr_scheduler = deepspeed.initialize(args=args, model=model, optimizer=optimizer)
    for layer in model.module.bert.encoder.layer:
        optimizer = AdamW(layer.parameters(), lr=5e-6)
        for batch in loader:
            with torch.no_grad():
                teacher_out = teacher(**batch, output_hidden_states=True)
            loss = torch.nn.functional.mse_loss(layer(teacher_out.hidden_states[0])[0], teacher_out.hidden_states[1])
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
"""),
    # tricky-correct (open-instruct issue 495): the engines come in as `policy_engine` and
    # `value_engine`, are called as modules, and backward(loss)/step() run on every micro-batch;
    # the engine counts the accumulation window and only updates at its boundary
    textwrap.dedent("""
    import deepspeed
    import torch


    def build_engine(model, ds_config):
        engine, *_ = deepspeed.initialize(model=model, model_parameters=model.parameters(), config=ds_config)
        return engine


    def ppo_update(policy_engine, value_engine, minibatches):
        for mb in minibatches:
            ratio = torch.exp(policy_engine(mb["ids"]).logprobs - mb["old_logprobs"])
            policy_engine.backward((-mb["advantages"] * ratio).mean())
            policy_engine.step()
            vf_loss = ((value_engine(mb["ids"]).values - mb["returns"]) ** 2).mean()
            value_engine.backward(vf_loss)
            value_engine.step()
"""),
]
