"""PF653 examples: small projects (``# --- <path>`` sections, ``# --- launch`` holds the launch
command); bad ones must fire at the pinned line, good ones stay silent."""

from __future__ import annotations

import textwrap

# run_clm_no_trainer.py under an accelerate ZeRO-3 config (accelerate issue on saving with zero_stage 3)
_ZERO3 = """\
# --- zero3.yaml
compute_environment: LOCAL_MACHINE
deepspeed_config:
  zero3_save_16bit_model: true
  zero_stage: {stage}
distributed_type: DEEPSPEED
mixed_precision: bf16
num_machines: 1
num_processes: 8
# --- launch
accelerate launch --config_file zero3.yaml train.py
"""
Z3 = _ZERO3.format(stage=3)

_SCRIPT = textwrap.dedent("""
    # --- train.py
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
        accelerator.unwrap_model(model).save_pretrained(  # warning: PF653
            path, save_function=accelerator.save, state_dict=accelerator.get_state_dict(model))


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
    _SCRIPT.format(save="    state_dict = accelerator.get_state_dict(model)\n"
                        "    if accelerator.is_main_process:\n"
                        "        unwrapped_model.save_pretrained(args.output_dir, save_function=accelerator.save,\n"
                        "                                        state_dict=state_dict)"),
    # tricky-correct: the helper is called only on the main process
    textwrap.dedent("""
    from accelerate import Accelerator


    def save_checkpoint(accelerator, model, path, state_dict):
        accelerator.unwrap_model(model).save_pretrained(path, save_function=accelerator.save, state_dict=state_dict)


    def train(model, optimizer, loader):
        accelerator = Accelerator()
        model, optimizer, loader = accelerator.prepare(model, optimizer, loader)
        for step, batch in enumerate(loader):
            accelerator.backward(model(**batch).loss)
            optimizer.step()
            optimizer.zero_grad()
            if step % 1000 == 0:
                state_dict = accelerator.get_state_dict(model)
                if accelerator.is_main_process:
                    save_checkpoint(accelerator, model, f"ckpt-{step}", state_dict)
    """),
    # tricky-correct: an early return on the other ranks
    textwrap.dedent("""
    def export(accelerator, model, out):
        state_dict = accelerator.get_state_dict(model)
        if not accelerator.is_main_process:
            return
        accelerator.unwrap_model(model).save_pretrained(out, save_function=accelerator.save, state_dict=state_dict)


    export(accelerator, model, "final")
    """),
    # a plain save without accelerate's save function (single-process script)
    textwrap.dedent("""
    from transformers import AutoModelForCausalLM

    model = AutoModelForCausalLM.from_pretrained("gpt2")
    model.save_pretrained("out")
    """),
]


def _project(script: str, config: str = Z3) -> str:
    """The script as train.py of a job launched with the ZeRO-3 accelerate config."""
    return (script if "# --- train.py" in script else "\n# --- train.py" + script).rstrip("\n") + "\n" + config


PF653_BAD = [_project(ex) for ex in PF653_BAD]
PF653_GOOD = [_project(ex) for ex in PF653_GOOD] + [
    # tricky-correct (held-out-33's run_mlm_no_trainer twin shape): the same save under ZeRO-2 / DDP, where every
    # rank holds the same state dict and writes nothing another deletes
    _project(_SCRIPT.format(save="    unwrapped_model.save_pretrained(args.output_dir, save_function=accelerator.save)"),
             _ZERO3.format(stage=2)),
]
