"""Shared by the rules on the columns a Transformers Trainer keeps (PF454, PF494, PF495): the
TrainingArguments classes, the forward() columns Trainer keeps, transformers models, one-step values."""

from __future__ import annotations

import ast
from typing import Optional

from preflight.analysis.context import FileContext

TRAINING_ARGUMENTS = ("TrainingArguments", "Seq2SeqTrainingArguments")
# forward() arguments of transformers' models (the columns Trainer keeps), plus the label columns
# Trainer keeps itself (``label``, ``label_ids``)
FORWARD_COLUMNS = frozenset(["input_ids", "attention_mask", "token_type_ids", "position_ids", "head_mask", "inputs_embeds", "labels", "label", "label_ids", "output_attentions", "output_hidden_states", "return_dict", "pixel_values", "pixel_mask", "decoder_input_ids", "decoder_attention_mask", "decoder_inputs_embeds", "decoder_head_mask", "cross_attn_head_mask", "encoder_outputs", "past_key_values", "use_cache", "cache_position", "input_features", "input_values", "image_grid_thw", "pixel_values_videos", "video_grid_thw", "images", "image_sizes", "bbox", "start_positions", "end_positions", "num_items_in_batch", "global_attention_mask", "visual_embeds", "mc_token_ids", "mc_labels", "next_sentence_label", "logits_to_keep", "special_tokens_mask"])


def value_of(ctx: FileContext, expr: Optional[ast.AST]) -> Optional[ast.AST]:
    """``expr`` itself, or the value last assigned to its name in the file (one step)."""
    if not isinstance(expr, ast.Name):
        return expr
    found = None
    for node in ctx.nodes(ast.Assign):
        if any(isinstance(t, ast.Name) and t.id == expr.id for t in node.targets):
            found = node.value
    return found


def hf_model(ctx: FileContext, expr: Optional[ast.AST]) -> bool:
    """The model is a transformers model loaded with ``Auto*For*``/``*For*.from_pretrained``."""
    value = value_of(ctx, expr)
    for _ in range(3):  # model = get_peft_model(model, ...) and friends: follow the first argument
        if not isinstance(value, ast.Call):
            return False
        func = value.func
        if isinstance(func, ast.Attribute) and func.attr == "from_pretrained":
            owner = func.value
            name = owner.attr if isinstance(owner, ast.Attribute) else getattr(owner, "id", "")
            return "For" in name
        value = value_of(ctx, value.args[0]) if value.args else None
    return False
