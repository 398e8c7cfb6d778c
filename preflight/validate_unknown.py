"""What ``preflight validate`` says about a key its schema does not know: what the library does
with it (rejects it, ignores it, drops it), whether it was renamed or removed in a release the
config's project still pins, and which release of GPT-NeoX, Lightning or axolotl's plugins declares
it. Split from :mod:`preflight.validate` (the schema walk); each function takes the running
``_Validation``.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any, Optional

from preflight.validate_schema import _close, _describe, _dotted, _show, _suggest
from preflight.validate_schema_files import _lightning_removed

if TYPE_CHECKING:
    from preflight.validate import _Validation


def _axolotl_unknown(v: _Validation, key: str, hint: Optional[str], lib: str) -> None:
    """An axolotl key no config model declares: axolotl's ``validate_config`` returns only the
    declared fields (pydantic's default ``extra='ignore'``), so the key does nothing; the
    fields of the plugins the config lists (``plugins:``) are declared too."""
    plugins = v.target.data.get("plugins") if isinstance(v.target.data, dict) else None
    listed = [p for p in plugins if isinstance(p, str)] if isinstance(plugins, list) else []
    known: dict[str, list[str]] = v.schema.get("x-plugins", {})

    def package(plugin: str) -> Optional[str]:
        return next((pkg for pkg in known if plugin.startswith(pkg + ".")), None)

    mine = {package(p) for p in listed}
    if any(key in known[pkg] for pkg in mine if pkg):
        return
    if None in mine:
        outside = next(p for p in listed if package(p) is None)
        v.add((key,), "note", "unknown-key",
              f"unknown key {key!r}: not a field of axolotl's config models; the plugin {outside!r}, "
              f"whose arguments preflight does not know, may declare it ({lib})")
        return
    owner = next((pkg for pkg, fields in sorted(known.items()) if key in fields), None)
    if owner is not None:
        v.add((key,), "warning", "unknown-key",
              f"unknown key {key!r}: an argument of the {owner} plugin, which `plugins:` does not list; "
              f"without the plugin axolotl's validate_config drops the key, so this setting does "
              f"nothing ({lib})")
        return
    extra = f" (did you mean {hint!r}?)" if hint else ""
    v.add((key,), "warning", "unknown-key",
          f"unknown key {key!r}{extra}: not a field of axolotl's config models; validate_config keeps "
          f"only the fields they declare (pydantic ignores other keys), so this setting does nothing ({lib})")

def _lightning_release_arg(v: _Validation, key: str, label: str, extra: str, lib: str) -> None:
    """A Trainer argument an older Lightning release took (``gpus`` up to 1.9): a note when the
    config's project pins such a release (``pytorch-lightning==1.8.6``), else an error saying
    which release still took it."""
    from preflight.validate_project import pinned_at_most

    info = _lightning_removed()[key]
    last, gone = info.get("last") or "", info.get("gone_by") or ""
    pinned = pinned_at_most(Path(v.config.path), ("pytorch-lightning", "lightning"), last, gone)
    if pinned:
        v.add((key,), "note", "unknown-key",
              f"{label!r}: a Trainer() argument up to Lightning {last} (gone by {gone}); the project pins "
              f"{pinned}, whose Trainer() takes it: rename or drop it before upgrading")
        return
    if _nemo_config(v):
        v.add((key,), "note", "unknown-key",
              f"{label!r}: a Trainer() argument up to Lightning {last} (gone by {gone}); this is a NeMo config "
              f"(`exp_manager:` beside `trainer:`), and NeMo builds pl.Trainer(**cfg.trainer) with the Lightning "
              f"it pins: NeMo 1.x before NVIDIA/NeMo#6433 (Lightning 2.0) takes it, later NeMo rejects it; "
              f"check which NeMo release runs it")
        return
    v.add((key,), "error", "unknown-key",
          f"unknown key {label!r}{extra}; {v.kind.owner} rejects it ({lib}); Lightning {last} still "
          f"took it (gone by {gone})")

def legacy_deepspeed_section(v: _Validation, error: Any, rel: tuple[Any, ...]) -> bool:
    """A problem inside a DeepSpeed section (``fp16``, ``bf16``) that DeepSpeed checks only since
    the release that made it a strict pydantic model (0.17.1), in a project that pins an older
    DeepSpeed (trlx: ``deepspeed==0.10.1``): that release reads the section key by key, so an
    unknown key does nothing (a warning) and a value of another type is taken as given (a
    note). Returns whether the problem was reported here."""
    from preflight.validate_project import DEEPSPEED_STRICT_SINCE, pinned_older_than

    section = str(rel[0])
    since = DEEPSPEED_STRICT_SINCE.get(section)
    if since is None:
        return False
    pinned = pinned_older_than(Path(v.config.path), "deepspeed", since)
    if not pinned:
        return False
    if error.validator == "additionalProperties" and isinstance(error.instance, dict):
        if len(rel) != 1:
            return False
        known = error.schema.get("properties", {})
        for key in error.instance:
            if key in known:
                continue
            hint = _suggest(str(key), known)
            extra = f" (did you mean {hint!r}?)" if hint else ""
            v.add((*rel, key), "warning", "unknown-key",
                  f"unknown key '{section}.{key}'{extra}: the project pins {pinned}, whose DeepSpeed reads "
                  f"{section} key by key and ignores other keys, so this setting does nothing (DeepSpeed "
                  f"{since} and later reject it)")
        return True
    if len(rel) < 2:
        return False
    sub = error.schema if isinstance(error.schema, dict) else {}
    v.add(rel, "note", "wrong-type",
          f"{_dotted(rel)} is {_show(error.instance)}, and DeepSpeed {since} and later expect {_describe(sub)}; "
          f"the project pins {pinned}, which reads the value as given: change it before upgrading")
    return True

def _nemo_config(v: _Validation) -> bool:
    """A NeMo experiment config: the Trainer node is ``trainer:`` at the top of a file that also has
    NeMo's ``exp_manager:`` mapping (NeMo's scripts build the Trainer themselves, with the Lightning
    release their NeMo pins)."""
    data = v.config.data
    return (v.target.prefix == ("trainer",) and isinstance(data, dict)
            and isinstance(data.get("exp_manager"), dict))

def _neox_release_field(v: _Validation, key: str) -> bool:
    """Whether a tagged GPT-NeoX release (``gas`` until v2.0) or a public fork's branch
    (Stability AI's ``attention_head_type``) declared ``key`` and the config lives outside a
    GPT-NeoX checkout: a config written for that release or fork (Pythia's README trains with
    ``git checkout v1.0``; StableLM's configs use the fork's fields). Inside GPT-NeoX's own tree
    the config goes with that tree's code, where the key fails."""
    if key not in v.schema.get("x-removed", {}):
        return False
    from preflight.validate_project import project_root

    root = project_root(Path(v.config.path))
    return root is None or not (root / "megatron" / "neox_arguments").is_dir()

def unknown_keys(v: _Validation, error: Any, rel: tuple[Any, ...]) -> None:
    schema = error.schema
    known = schema.get("properties", {})
    policy = schema.get("x-unknown-keys", "error")
    meta = v.schema.get("x-preflight", {})
    lib = f"{meta.get('library', '')} {meta.get('version', '')}".strip()
    for key in error.instance:
        if key in known:
            continue
        hint = _suggest(str(key), known)
        where = _dotted((*v.target.prefix, *rel))
        label = f"{where}.{key}" if where else str(key)
        renamed = RENAMED.get((v.target.kind, label))
        if renamed is not None and key not in v.known_extra:
            from preflight.validate_project import pinned_before_removal

            pinned = pinned_before_removal(Path(v.config.path), v.target.kind, label)
            if pinned:
                v.add((*rel, key), "note", "unknown-key",
                      f"{label!r}: {renamed}; the project pins {pinned}, which still accepts it: "
                      "rename it before upgrading")
                continue
            if policy == "ignored":
                new_name = RENAMED_TO.get((v.target.kind, label))
                if new_name is not None and new_name in error.instance \
                        and error.instance[new_name] == error.instance[key]:
                    # kept beside the new name with the same value, for the older releases that read only
                    # the old one: this release reads the new key, so the file does the same under both
                    v.add((*rel, key), "note", "unknown-key",
                          f"{label!r}: {renamed}; {v.kind.owner} ignores it ({lib}), and `{new_name}` beside it "
                          "holds the same value, so this only serves older releases")
                    continue
                v.add((*rel, key), "warning", "unknown-key",
                      f"unknown key {label!r}: {renamed}; {v.kind.owner} ignores it ({lib})")
                continue
            v.add((*rel, key), "warning" if policy == "other-dataclass" else "error", "unknown-key",
                  f"unknown key {key!r}: {renamed}; HfArgumentParser/TrlParser reject keys no dataclass "
                  f"of the script declares ({lib})")
            continue
        if policy == "other-dataclass":
            if key in v.known_extra or hint is None or not _close(str(key), hint):
                continue
            v.add((*rel, key), "warning", "unknown-key",
                  f"unknown key {key!r}: not a {v.kind.owner} field "
                  f"(did you mean {hint!r}?); HfArgumentParser rejects keys no dataclass of the "
                  f"script declares ({lib})")
            continue
        extra = f" (did you mean {hint!r}?)" if hint else ""
        if v.target.kind == "deepspeed" and not rel and _comment_key(str(key)):
            continue  # `"_comment": "..."`: a note for readers, which DeepSpeed ignores as intended
        if v.target.kind == "axolotl" and not rel:
            _axolotl_unknown(v, str(key), hint, lib)
            continue
        if policy == "ignored" and v.target.kind == "deepspeed" and not rel:
            v.add((*rel, key), "warning", "unknown-key",
                  f"unknown key {label!r}{extra}: DeepSpeed ignores top-level keys it does not know, "
                  f"so this setting does nothing ({lib})")
        elif policy == "ignored":
            v.add((*rel, key), "warning", "unknown-key",
                  f"unknown key {label!r}{extra}; {v.kind.owner} ignores it ({lib})")
        elif v.target.kind == "gpt-neox" and not rel and _neox_release_field(v, str(key)):
            owners = v.schema["x-removed"][str(key)]
            tags = [r for r in owners if "/" not in r]
            # tagged releases (`gpt-neox v1.0`) first; else the public fork's branch that declared it
            # (`Stability-AI/gpt-neox@stable`)
            releases = (f"gpt-neox {', '.join(tags)}" if tags
                        else " and ".join(f"the fork {r}" for r in owners))
            v.add((*rel, key), "note", "unknown-key",
                  f"{label!r} is not a NeoXArgs field at gpt-neox {meta.get('version', '')}, where "
                  f"NeoXArgs(**config) raises TypeError; {releases} declared it, so this config "
                  f"runs there: drop or rename the key before moving to upstream's current GPT-NeoX")
        elif v.target.kind == "gpt-neox" and not rel:
            v.add((*rel, key), "error", "unknown-key",
                  f"unknown key {label!r}{extra}: not a NeoXArgs field; GPT-NeoX fails at start-up "
                  f"(NeoXArgs(**config) raises TypeError) ({lib})")
        elif v.target.kind == "lightning-trainer" and not rel and str(key) in _lightning_removed():
            _lightning_release_arg(v, str(key), label, extra, lib)
        elif (v.target.kind, label) in REMOVED:
            _removed_key(v, (*rel, key), label, lib)
        else:
            v.add((*rel, key), "error", "unknown-key",
                  f"unknown key {label!r}{extra}; {v.kind.owner} rejects it ({lib})")


def _removed_key(v: _Validation, rel: tuple[Any, ...], label: str, lib: str) -> None:
    """A key the library removed in a release (``validate_project.REMOVED_IN``): a note when the
    config's project pins a release that still has it, else an error naming the removal."""
    from preflight.validate_project import REMOVED_IN, pinned_before_removal

    what = REMOVED[(v.target.kind, label)]
    pinned = pinned_before_removal(Path(v.config.path), v.target.kind, label)
    if pinned:
        v.add(rel, "note", "unknown-key",
              f"{label!r}: {what}; the project pins {pinned}, which still accepts it: drop it before upgrading")
        return
    removed = REMOVED_IN[(v.target.kind, label, None)]
    v.add(rel, "error", "unknown-key",
          f"unknown key {label!r}; {v.kind.owner} rejects it ({lib}): {what}, and the project pins no "
          f"{removed[0]} older than {removed[1]}")


def _comment_key(key: str) -> bool:
    return key.startswith("_") or "comment" in key.lower()


# fields a library renamed: what the old name does now
RENAMED = {
    ("sft-config", "max_seq_length"): "SFTConfig renamed it to `max_length` (TRL 0.20 removed the old name)",
    ("training-args", "evaluation_strategy"): "TrainingArguments renamed it to `eval_strategy` (transformers 4.51 "
                                              "removed the old name)",
    ("sft-config", "evaluation_strategy"): "TrainingArguments renamed it to `eval_strategy` (transformers 4.51 "
                                           "removed the old name)",
    ("training-args", "include_inputs_for_metrics"): "TrainingArguments replaced it with `include_for_metrics` "
                                                     "(transformers 5.0 removed the old name)",
    ("sft-config", "include_inputs_for_metrics"): "TrainingArguments replaced it with `include_for_metrics` "
                                                  "(transformers 5.0 removed the old name)",
    ("accelerate", "fsdp_config.fsdp_backward_prefetch_policy"): "accelerate renamed it to "
                                                                 "`fsdp_backward_prefetch` (1.0.0 removed the old "
                                                                 "name)",
}

# the new name of a renamed field (RENAMED), where the library ignores the old one: an old key kept beside
# the new one with the same value is a compatibility copy, not a setting that does nothing
RENAMED_TO = {
    ("accelerate", "fsdp_config.fsdp_backward_prefetch_policy"): "fsdp_backward_prefetch",
}

# values a library removed from a choice: what happened to them (the release is in validate_project.REMOVED_IN)
REMOVED_VALUES = {
    (kind, "optim", "adamw_hf"): "transformers 4.50 removed its own AdamW (`adamw_hf`); `adamw_torch` is the "
                                 "same optimizer from PyTorch"
    for kind in ("training-args", "sft-config")
}

# keys a library removed (the release is in validate_project.REMOVED_IN): what happened to them
REMOVED = {
    ("deepspeed", "zero_optimization.mics_shard_size"): "DeepSpeed removed MiCS (its ZeRO-3 sub-group sharding)",
    ("deepspeed", "zero_optimization.mics_hierarchical_params_gather"): "DeepSpeed removed MiCS (its ZeRO-3 "
                                                                        "sub-group sharding)",
}
