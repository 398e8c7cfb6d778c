"""``@hydra.main(config_path=<expression>)`` whose directory is known statically (adapters/hydra_paths.py).
Fixtures of our own copying real shapes, each citing repository, path and commit; a silent twin for a
directory known only when the job runs."""

from __future__ import annotations

import json

from plan_helpers import write

# SWivid/F5-TTS @ 2ae2c9bd9b64dab2cb069c4b97e5e7673c521e01: src/f5_tts/train/train.py:4,17
# (from importlib.resources import files; @hydra.main(version_base="1.3",
# config_path=str(files("f5_tts").joinpath("configs")), config_name=None)), launched with
# --config-name F5TTS_v1_Base.yaml (src/f5_tts/train/README.md:53).
F5 = {
    "src/f5_tts/__init__.py": "",
    "src/f5_tts/train/train.py": """\
        import os
        from importlib.resources import files

        import hydra


        @hydra.main(version_base="1.3", config_path=str(files("f5_tts").joinpath("configs")), config_name=None)
        def main(model_cfg):
            seq = model_cfg.datasets.max_seq_len
            print(seq)


        if __name__ == "__main__":
            main()
    """,
    "src/f5_tts/configs/F5TTS_v1_Base.yaml": """\
        datasets:
          name: Emilia_ZH_EN
          max_seq_len: 4096
    """,
}


def test_importlib_resources_config_path_is_composed(cli, tmp_path):
    write(tmp_path, F5)
    res = cli("audit", "src/f5_tts/train/train.py", "--emit-plan", "json", "--", "--config-name",
              "F5TTS_v1_Base.yaml", cwd=tmp_path)
    assert res.code in (0, 1), res.err
    plan = json.loads(res.out)
    seq = plan["fields"]["data.seq_len"][0]
    assert seq["value"] == 4096 and seq["source"]["path"] == "src/f5_tts/configs/F5TTS_v1_Base.yaml"


def test_unknown_config_path_still_says_so(cli, tmp_path):
    """Silent twin: the directory comes from the working directory at run time (os.getcwd()): not
    guessed, the job is not composed (exit 3 with the message naming the decorator's line)."""
    files = dict(F5)
    files["src/f5_tts/train/train.py"] = files["src/f5_tts/train/train.py"].replace(
        'str(files("f5_tts").joinpath("configs"))', 'os.path.join(os.getcwd(), "configs")')
    write(tmp_path, files)
    res = cli("audit", "src/f5_tts/train/train.py", "--", "--config-name", "F5TTS_v1_Base.yaml", cwd=tmp_path)
    assert res.code == 3
    said = res.out + res.err
    assert "train.py:7" in said and "config_path" in said


# facebookresearch/fairseq @ d9a627082fd03ec72a27a31a4e56289bfcb2e4e4: fairseq_cli/hydra_train.py:27
# (@hydra.main(config_path=os.path.join("..", "fairseq", "config"), config_name="config")).
FAIRSEQ = {
    "fairseq_cli/hydra_train.py": """\
        import os
        import hydra


        @hydra.main(config_path=os.path.join("..", "fairseq", "config"), config_name="config")
        def hydra_main(cfg):
            return cfg.task.max_seq_len
    """,
    "fairseq/config/config.yaml": """\
        task:
          max_seq_len: 512
    """,
}


def test_os_path_join_config_path(cli, tmp_path):
    write(tmp_path, FAIRSEQ)
    res = cli("audit", "fairseq_cli/hydra_train.py", "--emit-plan", "json", cwd=tmp_path)
    assert res.code in (0, 1), res.err
    assert json.loads(res.out)["fields"]["data.seq_len"][0]["value"] == 512


# A module-level constant computed from __file__ (public shape, e.g. "main_dir =
# os.path.dirname(os.path.dirname(os.path.abspath(__file__)))" then
# "@hydra.main(config_path=os.path.join(main_dir, 'new_rl', 'config'), ...)"), and pathlib's spelling.
CONSTANT = {
    "scripts/train.py": """\
        import os
        from pathlib import Path
        import hydra

        main_dir = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


        @hydra.main(config_path=os.path.join(main_dir, "conf"), config_name="base.yaml", version_base=None)
        def main(config):
            return config.data.seq_len
    """,
    "conf/base.yaml": """\
        data:
          seq_len: 2048
    """,
}


def test_module_constant_from_file_config_path(cli, tmp_path):
    write(tmp_path, CONSTANT)
    res = cli("audit", "scripts/train.py", "--emit-plan", "json", cwd=tmp_path)
    assert res.code in (0, 1), res.err
    assert json.loads(res.out)["fields"]["data.seq_len"][0]["value"] == 2048


def test_pathlib_parent_config_path(cli, tmp_path):
    files = dict(CONSTANT)
    files["scripts/train.py"] = files["scripts/train.py"].replace(
        'os.path.join(main_dir, "conf")', 'str(Path(__file__).resolve().parent.parent / "conf")')
    write(tmp_path, files)
    res = cli("audit", "scripts/train.py", "--emit-plan", "json", cwd=tmp_path)
    assert res.code in (0, 1), res.err
    assert json.loads(res.out)["fields"]["data.seq_len"][0]["value"] == 2048


# atong01/conditional-flow-matching @ cacd4dc8a5b6f50de63780e8f73754c9371f15db: runner/src/train.py:1-8,126
# (the lightning-hydra-template: root = pyrootutils.setup_root(search_from=__file__, indicator=[".git",
# "pyproject.toml", "README.md"], pythonpath=True, dotenv=True); @hydra.main(version_base="1.2",
# config_path=root / "configs", config_name="train.yaml")), launched from runner/ as src/train.py.
ROOTUTILS = {
    "runner/.project-root": "",
    "runner/src/train.py": """\
        import pyrootutils

        root = pyrootutils.setup_root(search_from=__file__, indicator=".project-root", pythonpath=True)

        import hydra


        @hydra.main(version_base="1.2", config_path=root / "configs", config_name="train.yaml")
        def main(cfg):
            return cfg.data.seq_len
    """,
    "runner/configs/train.yaml": """\
        data:
          seq_len: 1024
    """,
}


def test_rootutils_setup_root_config_path(cli, tmp_path):
    write(tmp_path, ROOTUTILS)
    res = cli("audit", "src/train.py", "--emit-plan", "json", cwd=tmp_path / "runner")
    assert res.code in (0, 1), res.err
    seq = json.loads(res.out)["fields"]["data.seq_len"][0]
    assert seq["value"] == 1024 and seq["source"]["path"].endswith("configs/train.yaml")


def test_rootutils_list_indicator_and_bare_import(cli, tmp_path):
    files = {k: v for k, v in ROOTUTILS.items() if k != "runner/.project-root"}
    files["runner/README.md"] = "# runner\n"
    files["runner/src/train.py"] = files["runner/src/train.py"].replace(
        "import pyrootutils", "from rootutils import setup_root").replace(
        'pyrootutils.setup_root(search_from=__file__, indicator=".project-root"',
        'setup_root(__file__, indicator=[".git", "README.md"]')
    write(tmp_path, files)
    res = cli("audit", "src/train.py", "--emit-plan", "json", cwd=tmp_path / "runner")
    assert res.code in (0, 1), res.err
    assert json.loads(res.out)["fields"]["data.seq_len"][0]["value"] == 1024


def test_rootutils_without_indicator_file_stays_unknown(cli, tmp_path):
    """Silent twin: no folder of the project holds the indicator (setup_root would raise, or find a
    folder outside the project): the directory is not guessed, the job is not composed."""
    files = {k: v for k, v in ROOTUTILS.items() if k != "runner/.project-root"}
    write(tmp_path, files)
    res = cli("audit", "src/train.py", "--", cwd=tmp_path / "runner")
    assert res.code == 3
    assert "config_path" in res.out + res.err
