"""A transformers 4.2x modeling file vendored in the project: the ``_set_gradient_checkpointing`` hook sits on the
``PreTrainedModel`` base, the ``self.gradient_checkpointing = False`` flag on the model class
(``adapters/ckpt_flag_guard.py``). Guitaricet/relora @ 176f376 ``peft_pretraining/modeling_pythia.py:81-83,533``,
OpenLMLab/MOSS @ c810e0b ``models/modeling_moss.py:323,405``, PKU-YuanGroup/Video-LLaVA @ 984e65b
``languagebind/image/modeling_image.py:232,350``. The fixture is our own rewrite of that layout; the twin enables
checkpointing from the script and nothing is claimed."""

from __future__ import annotations

from plan_helpers import fact, plan_of, write

MODELING = """\
    import torch
    import torch.utils.checkpoint
    from torch import nn


    class TinyPreTrainedModel(nn.Module):
        supports_gradient_checkpointing = True

        def _set_gradient_checkpointing(self, module, value=False):
            if isinstance(module, TinyModel):
                module.gradient_checkpointing = value


    class TinyModel(TinyPreTrainedModel):
        def __init__(self):
            super().__init__()
            self.layers = nn.ModuleList([nn.Linear(4, 4) for _ in range(2)])
            self.gradient_checkpointing = False

        def forward(self, x):
            for layer in self.layers:
                if self.gradient_checkpointing and self.training:
                    x = torch.utils.checkpoint.checkpoint(layer, x)
                else:
                    x = layer(x)
            return x
    """

TRAIN = """\
    import torch
    from modeling_tiny import TinyModel


    def main():
        model = TinyModel(){enable}
        optimizer = torch.optim.AdamW(model.parameters(), lr=0.01)
        for x in [torch.zeros(2, 4)]:
            loss = model(x).sum()
            loss.backward()
            optimizer.step()
            optimizer.zero_grad()


    if __name__ == "__main__":
        main()
    """


def _plan(cli, tmp_path, enable: str = "") -> dict:
    write(tmp_path, {"modeling_tiny.py": MODELING, "train.py": TRAIN.format(enable=enable)})
    return plan_of(cli, "train.py", cwd=tmp_path)


def test_hook_on_the_base_class_switches_nothing_on(cli, tmp_path) -> None:
    got = fact(_plan(cli, tmp_path), "memory.gradient_checkpointing")
    assert got is not None and got.value is False and got.confidence == "medium", got


def test_twin_the_script_enables_it(cli, tmp_path) -> None:
    got = fact(_plan(cli, tmp_path, "\n        model.gradient_checkpointing = True"), "memory.gradient_checkpointing")
    assert got is None or got.value is True, got
