"""PF243 examples: executable documentation. A bad example marks each line it must be reported on
with a trailing ``# warning: PF243`` comment; the meta-test asserts exactly those findings. Good
examples must stay silent."""

from __future__ import annotations

from textwrap import dedent

_TOOLS = dedent("""\
    import torch
    from peft import LoraConfig, get_peft_model
    from transformers import AutoModelForCausalLM, AutoTokenizer, Trainer, TrainingArguments

    tokenizer = AutoTokenizer.from_pretrained("meta-llama/Llama-3.1-8B-Instruct")
    model = AutoModelForCausalLM.from_pretrained("meta-llama/Llama-3.1-8B-Instruct", torch_dtype=torch.bfloat16)
    tokenizer.add_special_tokens({{"additional_special_tokens": ["<tool_call>", "</tool_call>"]}})
    model.resize_token_embeddings(len(tokenizer))
    lora = LoraConfig(r=16, lora_alpha=32, target_modules={targets}, task_type="CAUSAL_LM"{extra}){pin}
    model = get_peft_model(model, lora)
    args = TrainingArguments(output_dir="out", per_device_train_batch_size=4, bf16=True)
    Trainer(model=model, args=args, train_dataset=data, data_collator=collator).train()
    """)

_ATTN = '["q_proj", "k_proj", "v_proj", "o_proj"]'

PF243_BAD = [
    # unsloth issue 237's shape: two tool-call tokens, LoRA on the attention only
    _TOOLS.format(targets=_ATTN, extra="", pin="  # warning: PF243"),
    # trl's setup_chat_format adds <|im_start|>/<|im_end|> and resizes; "all-linear" leaves out lm_head
    dedent("""\
        from peft import LoraConfig
        from transformers import AutoModelForCausalLM, AutoTokenizer
        from trl import SFTConfig, SFTTrainer, setup_chat_format

        model = AutoModelForCausalLM.from_pretrained("mistralai/Mistral-7B-v0.1")
        tokenizer = AutoTokenizer.from_pretrained("mistralai/Mistral-7B-v0.1")
        model, tokenizer = setup_chat_format(model, tokenizer)
        peft_config = LoraConfig(r=8, target_modules="all-linear", task_type="CAUSAL_LM")  # warning: PF243
        trainer = SFTTrainer(model=model, args=SFTConfig(output_dir="out"), train_dataset=chats,
                             processing_class=tokenizer, peft_config=peft_config)
        trainer.train()
        """),
]

PF243_GOOD = [
    # the fix: the embedding and head are trained and saved with the adapter
    _TOOLS.format(targets=_ATTN, extra=', modules_to_save=["embed_tokens", "lm_head"]', pin=""),
    # PEFT 0.15+: only the new rows are trained
    _TOOLS.format(targets=_ATTN, extra=", trainable_token_indices=new_ids", pin=""),
    # tricky: LoRA on the embedding and the head themselves
    _TOOLS.format(targets='["q_proj", "v_proj", "embed_tokens", "lm_head"]', extra="", pin=""),
    # tricky: only a pad token is added; its positions are masked out of loss and attention
    dedent("""\
        from peft import LoraConfig, get_peft_model
        from transformers import AutoModelForCausalLM, AutoTokenizer

        tokenizer = AutoTokenizer.from_pretrained("huggyllama/llama-7b")
        model = AutoModelForCausalLM.from_pretrained("huggyllama/llama-7b")
        tokenizer.add_special_tokens({"pad_token": "[PAD]"})
        model.resize_token_embeddings(len(tokenizer))
        model = get_peft_model(model, LoraConfig(r=8, target_modules=["q_proj", "v_proj"], task_type="CAUSAL_LM"))
        """),
    # tricky: the script unfreezes the embedding rows itself
    dedent("""\
        from peft import LoraConfig, get_peft_model
        from transformers import AutoModelForCausalLM, AutoTokenizer

        tokenizer = AutoTokenizer.from_pretrained("Qwen/Qwen2.5-1.5B")
        model = AutoModelForCausalLM.from_pretrained("Qwen/Qwen2.5-1.5B")
        tokenizer.add_tokens(["<think>", "</think>"])
        model.resize_token_embeddings(len(tokenizer))
        model = get_peft_model(model, LoraConfig(r=8, target_modules=["q_proj", "v_proj"], task_type="CAUSAL_LM"))
        model.get_input_embeddings().weight.requires_grad_(True)
        """),
]

# tricky: Stanford Alpaca's recipe, a special-tokens dict filled elsewhere (a pad token when missing)
PF243_GOOD.append(dedent("""\
    from peft import LoraConfig, get_peft_model
    from transformers import AutoModelForCausalLM, AutoTokenizer


    def smart_tokenizer_and_embedding_resize(special_tokens_dict, tokenizer, model):
        num_new_tokens = tokenizer.add_special_tokens(special_tokens_dict)
        model.resize_token_embeddings(len(tokenizer))
        return num_new_tokens


    tokenizer = AutoTokenizer.from_pretrained("huggyllama/llama-7b")
    model = AutoModelForCausalLM.from_pretrained("huggyllama/llama-7b")
    special_tokens_dict = {}
    if tokenizer.pad_token is None:
        special_tokens_dict["pad_token"] = "[PAD]"
    smart_tokenizer_and_embedding_resize(special_tokens_dict, tokenizer, model)
    model = get_peft_model(model, LoraConfig(r=8, target_modules=["q_proj", "v_proj"], task_type="CAUSAL_LM"))
    """))
