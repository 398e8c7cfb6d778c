"""argparse options declared from a dict by a helper (issue 15): a small rewrite of our own with the
shape of openai/improved-diffusion @ 1bc7bbb scripts/image_train.py:60-79 (`defaults = dict(...)`,
`defaults.update(model_and_diffusion_defaults())`, `add_dict_to_argparser(parser, defaults)`) and
improved_diffusion/script_util.py:271-278 (the helper's loop over `items()`)."""

from __future__ import annotations

from plan_helpers import plan_of, winner, write

UTIL = """\
    import argparse

    def model_defaults():
        return dict(image_size=64, num_channels=128)

    def str2bool(v):
        return v.lower() in ("yes", "true", "t", "y", "1")

    def put_options(parser, default_dict):
        for k, v in default_dict.items():
            v_type = type(v)
            if isinstance(v, bool):
                v_type = str2bool
            parser.add_argument(f"--{k}", default=v, type=v_type)
    """

TRAIN = """\
    import argparse
    import torch
    from torch.utils.data import DataLoader
    from pkg.util import model_defaults, put_options

    def create_argparser():
        defaults = dict(data_dir="", lr=1e-4, batch_size=1)
        defaults.update(model_defaults())
        parser = argparse.ArgumentParser()
        put_options(parser, defaults)
        return parser

    def main():
        args = create_argparser().parse_args()
        data = DataLoader(torch.utils.data.TensorDataset(torch.zeros(8, 3)), batch_size=args.batch_size)
        model = torch.nn.Linear(3, 3)
        opt = torch.optim.AdamW(model.parameters(), lr=args.lr)
        for x, in data:
            model(x).sum().backward()
            opt.step()

    if __name__ == "__main__":
        main()
    """


def test_dict_keys_are_options_with_their_defaults(cli, tmp_path):
    write(tmp_path, {"pkg/__init__.py": "", "pkg/util.py": UTIL, "train.py": TRAIN})
    plan = plan_of(cli, "train.py", "--", "--batch_size", "32", cwd=tmp_path)
    assert winner(plan, "batch.micro") == 32  # --batch_size is a declared option of the dict
    plan = plan_of(cli, "train.py", "--", "--lr", "3e-4", cwd=tmp_path)
    assert winner(plan, "batch.micro") == 1  # the dict's default


def test_a_loop_that_declares_other_flags_is_not_the_helper(cli, tmp_path):
    # the loop adds fixed flags, not one per key with the value as default: no options from the dict
    util = UTIL.replace('parser.add_argument(f"--{k}", default=v, type=v_type)',
                        'parser.add_argument(f"--x-{len(k)}", type=v_type)')
    write(tmp_path, {"pkg/__init__.py": "", "pkg/util.py": util, "train.py": TRAIN})
    plan = plan_of(cli, "train.py", "--", "--batch_size", "32", cwd=tmp_path)
    assert winner(plan, "batch.micro") != 32


# openai/consistency_models @ e32b69e cm/script_util.py:26-52: ``res = dict(..., image_size=64, ...); return res``
def test_a_dict_returned_through_a_name_declares_its_keys(cli, tmp_path):
    util = UTIL.replace("        return dict(image_size=64, num_channels=128)\n",
                        "        res = dict(image_size=64, num_channels=128)\n        return res\n")
    assert util != UTIL
    write(tmp_path, {"pkg/__init__.py": "", "pkg/util.py": util, "train.py": TRAIN})
    plan = plan_of(cli, "train.py", "--", "--image_size", "32", cwd=tmp_path)
    assert winner(plan, "data.image_size") == 32


def test_twin_a_returned_name_changed_after_it_is_built_declares_nothing(cli, tmp_path):
    util = UTIL.replace("        return dict(image_size=64, num_channels=128)\n",
                        "        res = dict(image_size=64, num_channels=128)\n"
                        "        res.update(extra())\n        return res\n")
    assert util != UTIL
    write(tmp_path, {"pkg/__init__.py": "", "pkg/util.py": util, "train.py": TRAIN})
    plan = plan_of(cli, "train.py", "--", "--image_size", "32", cwd=tmp_path)
    assert winner(plan, "data.image_size") is None


# sail-sg/MDT @ 7d26c21 masked_diffusion/__init__.py:47-74 (jobs118): ``res = dict(image_size=256, ...)``,
# ``res.update(diffusion_defaults())``, ``return res``, in the package's ``__init__.py`` the script imports
# ``model_and_diffusion_defaults`` from; the same in openai/guided-diffusion guided_diffusion/script_util.py
def test_a_returned_name_merging_another_defaults_function_declares_both(cli, tmp_path):
    util = UTIL.replace("        return dict(image_size=64, num_channels=128)\n",
                        "        res = dict(image_size=64, num_channels=128)\n"
                        "        res.update(diffusion_defaults())\n        return res\n\n"
                        "    def diffusion_defaults():\n        return dict(diffusion_steps=1000, learn_sigma=True)\n")
    assert util != UTIL
    write(tmp_path, {"pkg/__init__.py": util, "pkg/util.py": util,
                     "train.py": TRAIN.replace("from pkg.util import", "from pkg import")})
    plan = plan_of(cli, "train.py", "--", "--image_size", "32", cwd=tmp_path)
    assert winner(plan, "data.image_size") == 32  # was None: ``res`` changed by update() was not read


def test_twin_a_merged_name_also_changed_by_item_declares_nothing(cli, tmp_path):
    util = UTIL.replace("        return dict(image_size=64, num_channels=128)\n",
                        "        res = dict(image_size=64, num_channels=128)\n"
                        "        res.update(diffusion_defaults())\n        res['image_size'] = 128\n        return res\n\n"
                        "    def diffusion_defaults():\n        return dict(diffusion_steps=1000, learn_sigma=True)\n")
    write(tmp_path, {"pkg/__init__.py": "", "pkg/util.py": util, "train.py": TRAIN})
    plan = plan_of(cli, "train.py", "--", "--image_size", "32", cwd=tmp_path)
    assert winner(plan, "data.image_size") is None
