"""A launch-line override that gives an existing Hydra config node a mapping (``optimizer={...}``).

Hydra does not replace the node: ``_apply_overrides_to_config`` (hydra/_internal/config_loader_impl.py)
calls ``OmegaConf.update(cfg, key, value, merge=True)`` for ``key=value`` and ``++key=value``, so the
mapping is merged into the node key by key. In struct mode a key the node lacks is refused ("Could not
override 'key'", PF526); the keys the mapping leaves out stay (PF262). Deleting then adding the node
(``'~key' '+key={...}'``) replaces it (facebookresearch/optimizers PR 257).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Optional

if TYPE_CHECKING:
    from preflight.adapters.hydra import Composed

# Hydra's instantiate flags: not arguments of the target
HYDRA_FLAGS = frozenset({"_target_", "_partial_", "_recursive_", "_convert_", "_args_"})


@dataclass
class NodeMerge:
    key: str
    text: str  # the override as written
    value: dict[str, Any]  # the mapping it gives
    node: dict[str, Any]  # the node as the config files compose it, before the launch's overrides
    where: Optional[tuple[str, Optional[int]]]  # the node's file and line

    @property
    def lacking(self) -> list[str]:
        """Keys of the mapping the node does not have (struct mode refuses them)."""
        return [k for k in self.value if k not in self.node]

    @property
    def stale(self) -> list[str]:
        """Keys of the node the mapping leaves out: they stay in the merged node."""
        return [k for k in self.node if k not in self.value and k not in HYDRA_FLAGS]

    @property
    def replacement(self) -> str:
        """The delete-then-add form that replaces the node."""
        value = self.text.partition("=")[2]
        return f"'~{self.key}' '+{self.key}={value}'"


def files_node(comp: Composed, key: str) -> Any:
    """The node at ``key`` as the defaults list's files compose it (no launch overrides), else None."""
    from preflight.adapters.hydra_compose import merge

    data: dict[str, Any] = {}
    for item, loaded in comp.item_configs:
        body: Any = loaded.data if isinstance(loaded.data, dict) else {}
        for part in reversed([p for p in item.package.split(".") if p]):
            body = {part: body}
        data = merge(data, body)
    node: Any = data
    for part in key.split("."):
        if not isinstance(node, dict) or part not in node:
            return None
        node = node[part]
    return node


def node_merge(comp: Composed, text: str) -> Optional[NodeMerge]:
    """The merge ``text`` (``key={...}`` or ``++key={...}``) makes into an existing mapping node of
    ``comp``'s config files, else None (no such node, not a mapping, another kind of override)."""
    from preflight.adapters.hydra_values import parse_value

    head, eq, raw = text.partition("=")
    if not eq or (head.startswith(("~", "+")) and not head.startswith("++")):
        return None
    key = head[2:] if head.startswith("++") else head
    if not key or "/" in key or "@" in key:
        return None
    value = parse_value(raw)
    node = files_node(comp, key)
    if not (isinstance(value, dict) and isinstance(node, dict) and node):
        return None
    origin = comp.origins.get(tuple(key.split(".")))
    where = (origin[0], origin[1]) if origin is not None else None
    return NodeMerge(key, text, {str(k): v for k, v in value.items()}, {str(k): v for k, v in node.items()}, where)


def listed(keys: list[str]) -> str:
    return ", ".join(f"`{k}`" for k in keys)
