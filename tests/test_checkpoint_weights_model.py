"""A model built from code and given a checkpoint's weights before it is trained: the checkpoint is
the model (lllyasviel/ControlNet@ed85cd1e25a5 ``tutorial_train.py:11,20-21,35``:
``model.load_state_dict(load_state_dict(resume_path, location='cpu'))`` then
``trainer.fit(model, dataloader)``)."""

from __future__ import annotations

from tests.plan_helpers import fact, plan_of, winner, write

SCRIPT = """\
import pytorch_lightning as pl
from torch.utils.data import DataLoader
from mylib import create_model, load_state_dict, MyDataset

resume_path = './models/control_sd15_ini.ckpt'
batch_size = 4

model = create_model('./models/cldm_v15.yaml').cpu()
model.load_state_dict(load_state_dict(resume_path, location='cpu'))
model.learning_rate = 1e-5

dataloader = DataLoader(MyDataset(), num_workers=0, batch_size=batch_size, shuffle=True)
trainer = pl.Trainer(gpus=1, precision=32)
trainer.fit(model, dataloader)
"""


def test_the_checkpoint_loaded_into_the_fitted_model_is_the_model(cli, tmp_path):
    write(tmp_path, {"train.py": SCRIPT})
    plan = plan_of(cli, "--", "python", "train.py", cwd=tmp_path)
    assert winner(plan, "model.ref") == "./models/control_sd15_ini.ckpt"
    got = fact(plan, "model.ref")
    assert got.confidence == "medium"
    assert got.source.line == 5  # where the path is written


def test_torch_load_with_a_state_dict_key(cli, tmp_path):
    script = SCRIPT.replace("model.load_state_dict(load_state_dict(resume_path, location='cpu'))",
                            "model.load_state_dict(torch.load(resume_path, map_location='cpu')['state_dict'])")
    write(tmp_path, {"train.py": "import torch\n" + script})
    plan = plan_of(cli, "--", "python", "train.py", cwd=tmp_path)
    assert winner(plan, "model.ref") == "./models/control_sd15_ini.ckpt"


def test_weights_loaded_into_another_object_are_not_the_model(cli, tmp_path):
    # a frozen first stage given weights, the model trained is another object
    script = SCRIPT.replace("model.load_state_dict(load_state_dict(resume_path, location='cpu'))",
                            "vae = create_model('vae.yaml')\nvae.load_state_dict(load_state_dict(resume_path))")
    write(tmp_path, {"train.py": script})
    plan = plan_of(cli, "--", "python", "train.py", cwd=tmp_path)
    assert winner(plan, "model.ref") != "./models/control_sd15_ini.ckpt"


def test_a_path_without_a_weights_suffix_is_not_claimed(cli, tmp_path):
    script = SCRIPT.replace("'./models/control_sd15_ini.ckpt'", "'./models/run-3'")
    write(tmp_path, {"train.py": script})
    plan = plan_of(cli, "--", "python", "train.py", cwd=tmp_path)
    assert winner(plan, "model.ref") != "./models/run-3"
