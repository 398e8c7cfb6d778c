"""PF653 examples: executable documentation (bad ones must fire, good ones stay silent)."""

from __future__ import annotations

import textwrap

# run_clm_no_trainer.py under an accelerate ZeRO-3 config (accelerate issue on saving with zero_stage 3)
_SCRIPT = textwrap.dedent("""
    from accelerate import Accelerator


    def main(args, model, optimizer, train_dataloader):
        accelerator = Accelerator()
        model, optimizer, train_dataloader = accelerator.prepare(model, optimizer, train_dataloader)
        for batch in train_dataloader:
            loss = model(**batch).loss
            accelerator.backward(loss)
            optimizer.step()
            optimizer.zero_grad()
        accelerator.wait_for_everyone()
        unwrapped_model = accelerator.unwrap_model(model)
    {save}


    if __name__ == "__main__":
        main(parse_args(), None, None, None)
""")

PF653_BAD = [
    # the report: every rank saves and cleans the folder
    _SCRIPT.format(save="    unwrapped_model.save_pretrained(args.output_dir, save_function=accelerator.save,  # warning: PF653\n"
                        "                                    state_dict=accelerator.get_state_dict(model))"),
    # huggingface/peft examples/sequence_classification/peft_no_lora_accelerate.py: state_dict only
    _SCRIPT.format(save="    unwrapped_model.save_pretrained(args.output_dir, state_dict=accelerator.get_state_dict(model))"
                        "  # warning: PF653"),
    # a helper that saves, called from the training loop on every process
    textwrap.dedent("""
    from accelerate import Accelerator


    def save_checkpoint(accelerator, model, path):
        accelerator.unwrap_model(model).save_pretrained(path, save_function=accelerator.save)  # warning: PF653


    def train(model, optimizer, loader):
        accelerator = Accelerator()
        model, optimizer, loader = accelerator.prepare(model, optimizer, loader)
        for step, batch in enumerate(loader):
            accelerator.backward(model(**batch).loss)
            optimizer.step()
            optimizer.zero_grad()
            if step % 1000 == 0:
                save_checkpoint(accelerator, model, f"ckpt-{step}")
    """),
]

PF653_GOOD = [
    # the fix (transformers *_no_trainer.py examples)
    _SCRIPT.format(save="    unwrapped_model.save_pretrained(args.output_dir, is_main_process=accelerator.is_main_process,\n"
                        "                                    save_function=accelerator.save,\n"
                        "                                    state_dict=accelerator.get_state_dict(model))"),
    # tricky-correct (diffusers train_llada2.py): under the main-process test
    _SCRIPT.format(save="    if accelerator.is_main_process:\n"
                        "        unwrapped_model.save_pretrained(args.output_dir, save_function=accelerator.save)"),
    # tricky-correct: the helper is called only on the main process
    textwrap.dedent("""
    from accelerate import Accelerator


    def save_checkpoint(accelerator, model, path):
        accelerator.unwrap_model(model).save_pretrained(path, save_function=accelerator.save)


    def train(model, optimizer, loader):
        accelerator = Accelerator()
        model, optimizer, loader = accelerator.prepare(model, optimizer, loader)
        for step, batch in enumerate(loader):
            accelerator.backward(model(**batch).loss)
            optimizer.step()
            optimizer.zero_grad()
            if step % 1000 == 0 and accelerator.is_main_process:
                save_checkpoint(accelerator, model, f"ckpt-{step}")
    """),
    # tricky-correct: an early return on the other ranks
    textwrap.dedent("""
    def export(accelerator, model, out):
        if not accelerator.is_main_process:
            return
        accelerator.unwrap_model(model).save_pretrained(out, save_function=accelerator.save)


    export(accelerator, model, "final")
    """),
    # a plain save without accelerate's save function (single-process script)
    textwrap.dedent("""
    from transformers import AutoModelForCausalLM

    model = AutoModelForCausalLM.from_pretrained("gpt2")
    model.save_pretrained("out")
    """),
]
