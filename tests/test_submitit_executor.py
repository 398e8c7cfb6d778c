"""adapters/submitit_executor.py: a submitit executor's counts from its update_parameters call."""

from __future__ import annotations

import ast
import textwrap
from typing import Any

from preflight.adapters.submitit_executor import executor_counts

# the Omnivision / SAM 2 shape (facebookresearch/omnivore train_app_submitit.py), rewritten
HYDRA = """
import hydra
import submitit

@hydra.main(config_path="config", config_name=None)
def main(cfg) -> None:
    sub = cfg.get("submitit", None)
    if sub.use_cluster:
        executor = submitit.AutoExecutor(folder="logs")
        params = {
            "timeout_min": 60,
            "gpus_per_node": cfg.launcher.gpus_per_node,
            "tasks_per_node": cfg.launcher.gpus_per_node,
            "nodes": cfg.launcher.num_nodes,
        }
        if sub.get("mem_gb", None) is not None:
            params["mem_gb"] = sub.mem_gb
        executor.update_parameters(**{k: v for k, v in params.items() if v is not None})
        executor.submit(print)
"""

CFG = {"submitit": {"use_cluster": True}, "launcher": {"gpus_per_node": 8, "num_nodes": 4}}


def _run(src: str, cfg: Any = None) -> dict[str, tuple[int, Any, str]]:
    def known(path: tuple[str, ...]) -> Any:
        node = cfg or {}
        for p in path:
            if not isinstance(node, dict) or p not in node:
                return None
            node = node[p]
        return node

    out: dict[str, tuple[int, Any, str]] = {}

    def emit(field: str, value: int, where: Any, detail: str, confidence: str) -> None:
        out[field] = (value, where, confidence)

    executor_counts(ast.parse(textwrap.dedent(src)), ("cfg",), known, emit)
    return out


def test_hydra_section_splatted_dict() -> None:
    got = _run(HYDRA, CFG)
    assert got["dist.world_size"] == (32, ("launcher", "gpus_per_node"), "medium")
    assert got["dist.nodes"] == (4, ("launcher", "num_nodes"), "medium")
    assert got["dist.devices_per_node"][0] == 8


def test_branch_that_does_not_run_stays_unknown() -> None:
    cfg = {**CFG, "submitit": {"use_cluster": False}}
    assert _run(HYDRA, cfg) == {}


def test_unknown_guard_is_low() -> None:
    cfg = {"launcher": CFG["launcher"]}
    assert _run(HYDRA, cfg)["dist.world_size"] == (32, ("launcher", "gpus_per_node"), "low")


def test_literals_and_local_names() -> None:
    src = """
    import submitit
    num_gpus = 4
    executor = submitit.AutoExecutor(folder="log_test")
    executor.update_parameters(timeout_min=60, gpus_per_node=num_gpus, tasks_per_node=num_gpus, nodes=2)
    """
    got = _run(src)
    assert got["dist.world_size"][0] == 8 and got["dist.nodes"] == (2, 5, "medium")


def test_one_task_driving_several_gpus_stays_unknown() -> None:
    # tricky twin: one task per node holding 8 GPUs (the task spawns its own workers): the process count is not
    # the executor's
    src = """
    import submitit
    executor = submitit.AutoExecutor(folder="log")
    executor.update_parameters(gpus_per_node=8, tasks_per_node=1, nodes=2)
    """
    assert _run(src) == {}


def test_rewritten_count_key_stays_unknown() -> None:
    src = HYDRA.replace('params["mem_gb"] = sub.mem_gb', 'params["nodes"] = sub.nodes')
    assert _run(src, CFG) == {}


def test_without_submitit_nothing() -> None:
    src = """
    class Executor:
        def update_parameters(self, **kw): pass
    Executor().update_parameters(gpus_per_node=8, tasks_per_node=8, nodes=2)
    """
    assert _run(src) == {}
