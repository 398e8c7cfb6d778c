"""The state an adapter's pass over one script starts from (shared by the accelerate and
transformers adapters' passes)."""

from __future__ import annotations

from preflight.adapters_api import Adapter, Project, ScriptIndex
from preflight.plan import TrainingPlan


class ScriptPassState:
    """The adapter, the project, the plan it fills, the script's index and the calls that may run
    (a call under a guard decided false is left out)."""

    def __init__(self, adapter: Adapter, project: Project, plan: TrainingPlan, idx: ScriptIndex) -> None:
        self.adapter = adapter
        self.project = project
        self.plan = plan
        self.idx = idx
        self.script = idx.script
        self.calls = [s for s in idx.calls if idx.runs(s) is not False]
