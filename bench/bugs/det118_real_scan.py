"""det118: the code side of PF148 (a frozen model loaded after ``Accelerator()`` and never prepared) run over the Python files of the mirrored real repositories (read with ``git show``,
never executed). PF148 also needs a ZeRO-3 accelerate config with ``zero3_init_flag: true``, which these
repositories' files do not carry: every hit printed here is a script that WOULD be flagged under such a
config, to be read by hand.

    python bench/bugs/det118_real_scan.py /work/.mirror > bench/bugs/det118_real_scan.txt
    python bench/bugs/det118_real_scan.py /work/.mirror --audit > bench/bugs/det118_real_audit.txt
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

from preflight.rules.plan._zero3_frozen_loads import frozen_unprepared_loads


def _candidates(repo: Path) -> list[str]:
    """Python files of HEAD that name all three of the gate's words (git grep, no checkout)."""
    out = subprocess.run(["git", "-C", str(repo), "grep", "-l", "--all-match", "-e", "Accelerator", "-e",
                          "from_pretrained", "-e", "requires_grad_", "HEAD", "--", "*.py"],
                         capture_output=True, text=True, check=False).stdout
    return [line.split(":", 1)[1] for line in out.splitlines() if ":" in line]


def main(root: str) -> None:
    repos = with_gate = hits = 0
    for repo in sorted(Path(root).glob("*/repo")):
        repos += 1
        for path in _candidates(repo):
            text = subprocess.run(["git", "-C", str(repo), "show", f"HEAD:{path}"], capture_output=True,
                                  text=True, errors="replace", check=False).stdout
            with_gate += 1
            try:
                tree = ast.parse(text)
            except SyntaxError:
                continue
            name = f"{repo.parent.name}:{path}"
            for load, target, accel, freeze in frozen_unprepared_loads(tree):
                hits += 1
                print(f"PF148-code {name}:{load.lineno} `{target}` loaded after Accelerator() (line {accel.lineno}), "
                      f"frozen at {freeze.lineno}, never prepared")
    print(f"{repos} repositories; {with_gate} Python files hold Accelerator + from_pretrained + requires_grad_; "
          f"{hits} loads would be flagged under a ZeRO-3 zero3_init_flag config")


if __name__ == "__main__" and "--audit" not in sys.argv:
    main(sys.argv[1] if len(sys.argv) > 1 else "/work/.mirror")


# the repositories of the mirror that ship an accelerate config with ZeRO-3 and zero3_init_flag: true, and the
# scripts of theirs that build an Accelerator and load with from_pretrained: audited whole (PF148 alone) with
# that config, as `accelerate launch --config_file CFG SCRIPT` would run them
ZERO3_INIT_JOBS = {
    "FreedomIntelligence+HuatuoGPT-o1": "configs/deepspeed_zero3.yaml",
    "OpenLMLab+MOSS": "configs/sft.yaml",
    "RLHFlow+Online-RLHF": "configs/zero3.yaml",
    "huggingface+trl": "examples/accelerate_configs/deepspeed_zero3.yaml",
    "prometheus-eval+prometheus-eval": "train/recipes/accelerate_configs/deepspeed_zero3.yaml",
    "sahsaeedi+TPO": "accelerate_configs/deepspeed_zero3.yaml",
}


# controls: diffusers' text-to-image scripts under TRL's ZeRO-3 accelerate config (copied beside them): the
# full fine-tune loads its frozen models under deepspeed_zero_init_disabled_context_manager() (silent), the
# LoRA one does not (fires on the frozen text encoder and VAE)
CONTROLS = ("examples/text_to_image/train_text_to_image.py", "examples/text_to_image/train_text_to_image_lora.py")


def audit_zero3_jobs(root: str) -> None:
    import json
    import tempfile

    exe = [sys.executable, "-m", "preflight"]
    for name, cfg in ZERO3_INIT_JOBS.items():
        repo = Path(root) / name / "repo"
        if not repo.is_dir():
            continue
        out = subprocess.run(["git", "-C", str(repo), "grep", "-l", "--all-match", "-e", "Accelerator(", "-e",
                              "from_pretrained", "HEAD", "--", "*.py"], capture_output=True, text=True,
                             check=False).stdout
        scripts = [(repo, line.split(":", 1)[1]) for line in out.splitlines() if ":" in line]
        if name == "huggingface+trl":
            scripts += [(Path(root) / "huggingface+diffusers" / "repo", c) for c in CONTROLS]
        for source, script in scripts:
            with tempfile.TemporaryDirectory(prefix="det118-") as tmp:
                for where, rel in ((source, script), (repo, cfg)):
                    text = subprocess.run(["git", "-C", str(where), "show", f"HEAD:{rel}"], capture_output=True,
                                          text=True, errors="replace", check=False).stdout
                    dest = Path(tmp) / rel
                    dest.parent.mkdir(parents=True, exist_ok=True)
                    dest.write_text(text, encoding="utf-8")
                run = subprocess.run([*exe, "audit", script, "--config", cfg, "--select", "PF148", "--format", "json",
                                      "--no-cache", "--exit-zero", "--", "accelerate", "launch", "--config_file", cfg,
                                      script], cwd=tmp, capture_output=True, text=True, check=False)
                try:
                    found = [f"{f['path']}:{f['line']}" for f in json.loads(run.stdout).get("findings", [])]
                except ValueError:
                    found = ["(no JSON: " + run.stderr.strip().splitlines()[-1][:120] + ")"] if run.stderr else []
                print(f"audit {source.parent.name}:{script} with {name}:{cfg}: PF148 {found if found else 'silent'}")


if __name__ == "__main__" and len(sys.argv) > 2 and sys.argv[2] == "--audit":
    audit_zero3_jobs(sys.argv[1])
