"""PF675 examples (executable documentation, see tests/test_rules_meta.py)."""

from __future__ import annotations

from textwrap import dedent

_SCRIPT = dedent("""
    import torch
    from accelerate import Accelerator
    from diffusers import FluxPipeline
    from diffusers.training_utils import cast_training_params

    from setup import args, load_components, train_step


    def log_validation(pipeline, accelerator, torch_dtype):
        pipeline = pipeline.to(accelerator.device{move})
        images = [pipeline(args.validation_prompt).images[0] for _ in range(4)]
        del pipeline
        return images


    accelerator = Accelerator(mixed_precision="fp16")
    weight_dtype = torch.float16
    vae, text_encoder, transformer = load_components(args)
    transformer.requires_grad_(False)
    transformer.to(accelerator.device, dtype=weight_dtype)
    transformer.add_adapter(args.lora_config)
    models = [transformer]
    if args.mixed_precision == "fp16":
        cast_training_params(models, dtype=torch.float32)
    optimizer = torch.optim.AdamW([p for p in transformer.parameters() if p.requires_grad], lr=1e-4)
    transformer, optimizer = accelerator.prepare(transformer, optimizer)
    for epoch in range(args.num_train_epochs):
        train_step(transformer, optimizer)
        if accelerator.is_main_process:
            pipeline = FluxPipeline.from_pretrained(  {pin}
                args.pretrained_model_name_or_path,
                vae=vae,
                text_encoder=text_encoder,
                transformer=accelerator.unwrap_model(transformer),
                torch_dtype=weight_dtype,
            )
            log_validation(pipeline, accelerator, torch_dtype=weight_dtype)
            {after}
""")

BAD = [
    # the DreamBooth LoRA scripts' shape (diffusers issue 13124, PRs 13895/13899): log_validation casts the pipeline
    _SCRIPT.format(move=", dtype=torch_dtype", pin="# warning: PF675", after="pass"),
    # the cast in the same function, the unet handed over without unwrapping
    dedent("""
    import torch
    from diffusers import DiffusionPipeline
    from diffusers.training_utils import cast_training_params

    def train(args, accelerator, unet, vae, weight_dtype, loader, optimizer):
        cast_training_params([unet], dtype=torch.float32)
        for step, batch in enumerate(loader):
            optimizer.step()
            if step % args.validation_steps == 0:
                pipeline = DiffusionPipeline.from_pretrained(args.model, unet=unet, vae=vae)  # warning: PF675
                pipeline = pipeline.to(accelerator.device, weight_dtype)
                pipeline(args.prompt)
    """),
]

GOOD = [
    # PR 13895's fix: the pipeline is only moved to the device
    _SCRIPT.format(move="", pin="", after="pass"),
    # PR 13510's fix: the trainable parameters upcast again after validation
    _SCRIPT.format(move=", dtype=torch_dtype", pin="",
                   after="cast_training_params([transformer], dtype=torch.float32)"),
    # tricky: the final validation loads the saved LoRA weights into a fresh pipeline, not the live module
    dedent("""
    import torch
    from diffusers import StableDiffusionPipeline
    from diffusers.training_utils import cast_training_params

    def finish(args, accelerator, unet, weight_dtype):
        cast_training_params([unet], dtype=torch.float32)
        pipeline = StableDiffusionPipeline.from_pretrained(args.model, torch_dtype=weight_dtype)
        pipeline.load_lora_weights(args.output_dir)
        pipeline = pipeline.to(accelerator.device, dtype=weight_dtype)
        return pipeline(args.prompt)
    """),
    # tricky: the module handed to the pipeline is a frozen one that is not upcast
    dedent("""
    import torch
    from diffusers import StableDiffusionPipeline
    from diffusers.training_utils import cast_training_params

    def validate(args, accelerator, unet, text_encoder, vae, weight_dtype):
        cast_training_params([text_encoder], dtype=torch.float32)
        pipeline = StableDiffusionPipeline.from_pretrained(args.model, vae=vae, unet=unet)
        pipeline = pipeline.to(accelerator.device, dtype=weight_dtype)
        cast_training_params([text_encoder], dtype=torch.float32)
        return pipeline(args.prompt)
    """),
    # tricky: the final inference reloads the transformer under the same name before building the pipeline
    dedent("""
    import torch
    from diffusers import FluxPipeline, FluxTransformer2DModel
    from diffusers.training_utils import cast_training_params

    def final_inference(args, accelerator, transformer, weight_dtype):
        cast_training_params([transformer], dtype=torch.float32)
        transformer = FluxTransformer2DModel.from_pretrained(args.model, subfolder="transformer")
        pipeline = FluxPipeline.from_pretrained(args.model, transformer=transformer, torch_dtype=weight_dtype)
        pipeline.load_lora_weights(args.output_dir)
        pipeline = pipeline.to(accelerator.device, dtype=weight_dtype)
        return pipeline(args.prompt)
    """),
]
