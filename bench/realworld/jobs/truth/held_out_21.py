"""The twenty-first held-out set of the jobs benchmark (run.py --set held-out-21): expert truth
written by hand, one J(...) per job."""
from .core import J, T

H21="twenty-first held-out set"
E2M=("NVlabs/edm2","4bf8162f601bcc09472ce8a32dd0cbe8889dc8fc")
e2t="train_edm2.py"
e2l="training/training_loop.py"
J("edm2-img512-xs-diffusion-torchrun-8gpu",*E2M,["."],".",["--","torchrun","--standalone","--nproc_per_node=8",e2t,
 "--outdir=training-runs/00000-edm2-img512-xs","--data=datasets/img512-sd.zip","--preset=edm2-img512-xs","--batch-gpu=32"],{
 "model.num_parameters":T(125000000,e2t+":27 preset edm2-img512-xs channels=128 -> :75 network_kwargs class_name training.networks_edm2.Precond(model_channels=128) built by dnnlib.util.construct_class_by_name ("+e2l+":112); the EDM2 paper's XS model has 125M parameters",rel_tol=0.1),
 "dist.world_size":T(8,"README.md:197 torchrun --standalone --nproc_per_node=8"),
 "dist.nodes":T(1,"--standalone"),
 "dist.sharding":T("ddp",e2l+":126 DistributedDataParallel"),
 "batch.micro":T(32,"README.md:201 --batch-gpu=32 -> "+e2t+":80 -> "+e2l+":93-94,145 DataLoader batch_size=batch_gpu"),
 "batch.grad_accum":T(8,e2t+":27 batch 2048 -> "+e2l+":92 2048 // 8 = 256 per GPU, :95 num_accumulation_rounds 256 // 32 = 8, :219"),
 "batch.global":T(2048,e2t+":27 batch=2048 ("+e2l+":96 asserts 32 x 8 x 8)"),
 "data.image_size":T(512,"--data=datasets/img512-sd.zip (ImageNet 512x512 encoded by the SD VAE: the network sees 64x64x4 latents, README.md:169-186)"),
 "precision.mode":T("amp_fp16",e2t+":162 --fp16 default True -> :81 use_fp16 -> training/networks_edm2.py:299 the UNet runs in float16 (inputs cast, fp32 weights cast in each layer); the optimizer updates fp32 weights (loss scaling 1, no GradScaler)"),
 "optimizer.name":T("Adam",e2l+":64 torch.optim.Adam (betas 0.9, 0.99)",any_of=["Adam","adam"]),
 "data.num_workers":T(2,e2l+":61"),
 "data.pin_memory":T(True,e2l+":61"),
 "memory.gradient_checkpointing":T(False,"no checkpointing in training/networks_edm2.py"),
 "compile.enabled":T(False,"no torch.compile"),
 "peft.method":T("none","training from scratch"),
},held_out=True,note=H21+"; README.md:196-201 torchrun --standalone --nproc_per_node=8 train_edm2.py --outdir=... --data=datasets/img512-sd.zip --preset=edm2-img512-xs --batch-gpu=32 (click options, a preset dict sizing the model, the network, loss, optimizer and loader built by dnnlib.util.construct_class_by_name from class-name strings, a total batch divided by world size and the per-GPU limit into accumulation rounds, fp16 by explicit casts; latent diffusion, image generation)")
VIM=("hustvl/Vim","dd0358ad1e42701f22afbefa0717cc8825cf9f45")
vms="vim/scripts/pt-vim-t.sh"
vmm="vim/main.py"
J("vim-tiny-imagenet-ddp-script-8gpu",*VIM,["vim","README.md"],".",[vms],{
 "model.ref":T("vim_tiny_patch16_224_bimambav2_final_pool_mean_abs_pos_embed_with_midclstok_div2",vms+":5 --model -> "+vmm+":301 timm create_model -> vim/models_mamba.py:555-558 @register_model (VisionMamba embed_dim 192, depth 24)"),
 "model.num_parameters":T(7000000,"README.md:77 Vim-tiny 7M (vim/models_mamba.py:557-558 embed_dim 192 x 24 bidirectional Mamba blocks)",rel_tol=0.15),
 "dist.world_size":T(8,vms+":5 CUDA_VISIBLE_DEVICES=0..7 python -m torch.distributed.launch --nproc_per_node=8 --use_env"),
 "dist.nodes":T(1,"torch.distributed.launch on one machine"),
 "dist.devices_per_node":T(8,vms+":5"),
 "dist.sharding":T("ddp",vmm+":383 DistributedDataParallel"),
 "batch.micro":T(128,vms+":5 --batch-size 128 (per process: "+vmm+":274-279 DataLoader batch_size=args.batch_size with a DistributedSampler)"),
 "batch.grad_accum":T(1,"no accumulation in vim/engine.py"),
 "batch.global":T(1024,"128 x 8"),
 "data.image_size":T(224,vmm+":46 --input-size default 224"),
 "precision.mode":T("fp32",vms+":5 --no_amp -> "+vmm+":194-196 if_amp False -> :394 amp_autocast = suppress (no autocast)"),
 "optimizer.name":T("adamw",vmm+":60 --opt default adamw -> :391 timm create_optimizer",any_of=["adamw","AdamW"]),
 "data.num_workers":T(25,vms+":5 --num_workers 25"),
 "data.pin_memory":T(True,vmm+":185 set_defaults(pin_mem=True) -> :278"),
 "memory.gradient_checkpointing":T(False,"no checkpointing in vim/models_mamba.py"),
 "compile.enabled":T(False,"no torch.compile"),
 "peft.method":T("none","training from scratch"),
},held_out=True,note=H21+"; README.md:68 bash vim/scripts/pt-vim-t.sh (a launch script with conda activate and cd to placeholder paths, then CUDA_VISIBLE_DEVICES=0..7 python -m torch.distributed.launch --nproc_per_node=8 --use_env main.py ... --no_amp; a DeiT-derived main.py, the model a timm registry key registered by the project's models_mamba.py, a store_false flag turning AMP off; Vision Mamba image classification, vision)")
BVG=("NVIDIA/BigVGAN","7d2b454564a6c7d014227f635b7423881f14bdac")
bvc="configs/bigvgan_v2_24khz_100band_256x.json"
J("bigvgan-v2-24khz-vocoder-json-config",*BVG,["."],".",["train.py","--","--config",bvc,
 "--input_wavs_dir","filelists/LibriTTS","--input_training_file","filelists/LibriTTS/train-full.txt",
 "--input_validation_file","filelists/LibriTTS/val-full.txt",
 "--list_input_unseen_wavs_dir","filelists/LibriTTS","filelists/LibriTTS",
 "--list_input_unseen_validation_file","filelists/LibriTTS/dev-clean.txt","filelists/LibriTTS/dev-other.txt",
 "--checkpoint_path","exp/bigvgan_v2_24khz_100band_256x"],{
 "model.num_parameters":T(112000000,"README.md:193 bigvgan_v2_24khz_100band_256x 112M: train.py:72 BigVGAN(h) sized by "+bvc+":11-15 (upsample_initial_channel 1536, rates [4,4,2,2,2,2], resblocks [3,7,11]); the generator only, the discriminators (train.py:75,89) not counted",rel_tol=0.1),
 "batch.global":T(4,bvc+":4 batch_size 4 -> train.py:758 divided by the number of visible GPUs into the per-GPU batch (so 4 images in all whatever the GPU count)"),
 "batch.grad_accum":T(1,"train.py: one optimizer step per batch for the generator and for the discriminators, no accumulation"),
 "precision.mode":T("fp32","no autocast, half or GradScaler in train.py"),
 "optimizer.name":T("AdamW","train.py:146-151 torch.optim.AdamW for generator and discriminators",any_of=["AdamW","adamw"]),
 "data.num_workers":T(4,bvc+":54 -> train.py:199"),
 "data.pin_memory":T(True,"train.py:203"),
 "memory.gradient_checkpointing":T(False,"no checkpointing in bigvgan.py"),
 "compile.enabled":T(False,"no torch.compile"),
 "peft.method":T("none","training from scratch"),
},held_out=True,note=H21+"; README.md:110-118 python train.py --config configs/bigvgan_v2_24khz_100band_256x.json --input_wavs_dir ... --checkpoint_path ... (argparse; a JSON config read into an AttrDict that sizes the generator and the discriminators, a total batch divided by torch.cuda.device_count() in code, torch.multiprocessing.spawn over all visible GPUs; a GAN neural vocoder, speech). Not labelled: world size and per-GPU batch (the number of visible GPUs, train.py:757-758), audio segment length (segment_size 65536 samples, "+bvc+":41)")
MLM=("facebookresearch/MobileLLM","8b9769db377dc1f67ab967cfc11b08cb06feeffc")
J("mobilellm-125m-pretrain-torchrun-script-8gpu",*MLM,["."],".",["pretrain.sh"],{
 "model.num_parameters":T(124640000,"pretrain.sh:9 --input_model_filename ./configs/125M/ -> pretrain.py:166-171 AutoConfig.from_pretrained + the project's LlamaForCausalLM(config) from scratch; configs/125M/config.json hidden 576, 30 layers, 9 heads, 3 KV heads, intermediate 1536, vocab 32000, with --share_embedding True (pretrain.sh:40, utils/modeling_llama.py:1134,1235 lm_head tied to the embedding): my count 30 x 3.54M + 18.4M = 124.6M",rel_tol=0.1),
 "dist.world_size":T(8,"pretrain.sh:8 torchrun --nnodes=1 --nproc_per_node=8"),
 "dist.nodes":T(1,"pretrain.sh:8 --nnodes=1"),
 "dist.devices_per_node":T(8,"pretrain.sh:8"),
 "dist.sharding":T("ddp","HF Trainer under torchrun without --fsdp or --deepspeed: DistributedDataParallel"),
 "batch.micro":T(32,"pretrain.sh:20 --per_device_train_batch_size 32 -> pretrain.py:206 get_iterable_dataloader(batch_size)"),
 "batch.grad_accum":T(1,"pretrain.sh:22"),
 "batch.global":T(256,"32 x 1 x 8"),
 "precision.mode":T("amp_bf16","pretrain.sh:15-16 --fp16 False --bf16 True (HF Trainer autocast bf16 over fp32 weights)"),
 "optimizer.name":T("adamw_torch","utils/process_args.py:48 optim default adamw_torch",any_of=["adamw_torch","AdamW","adamw"]),
 "memory.gradient_checkpointing":T(False,"pretrain.sh:36 --gradient_checkpointing False"),
 "data.num_workers":T(0,"pretrain.py:103 DataLoader without num_workers, returned as is by utils/pretrain_trainer.py:116-127"),
 "data.pin_memory":T(False,"pretrain.py:103 DataLoader default"),
 "compile.enabled":T(False,"no torch_compile flag, no torch.compile"),
 "peft.method":T("none","pretraining from scratch"),
},held_out=True,note=H21+"; README.md:48-52 bash pretrain.sh (a torchrun script with ~35 HfArgumentParser flags over three dataclasses, one a TrainingArguments subclass; the model a local config directory read with AutoConfig into the project's own LlamaForCausalLM with a tied-embedding flag, so its size is in configs/125M/config.json; a Trainer subclass whose train loader is a plain DataLoader over pre-tokenised JSONL; LLM pretraining). Not labelled: sequence length (the pre-tokenised JSONL lines' length; --model_max_length 2048 only sets the tokenizer's limit)")
ARI=("rhymes-ai/Aria","9b25fecb02553a24832c26617d4e034517f71260")
arc="recipes/config_full.yaml"
arz="recipes/accelerate_configs/zero2.yaml"
J("aria-moe-vlm-full-sft-trl-zero2",*ARI,["aria","recipes","pyproject.toml","README.md"],".",["--","accelerate","launch","--config_file",arz,"aria/train.py","--config",arc],{
 "model.ref":T("rhymes-ai/Aria",arc+":1 model_name_or_path -> aria/train.py:61 AriaForConditionalGeneration.from_pretrained"),
 "dist.world_size":T(2,arz+":17 num_processes 2 (README.md:175 gives no --num_processes; README.md:172 says it was tested on 8 GPUs)"),
 "dist.nodes":T(1,arz+":16 num_machines 1"),
 "dist.sharding":T("zero2",arz+":9-10 DEEPSPEED zero_stage 2"),
 "dist.offload_optimizer":T("none",arz+":6"),
 "dist.offload_params":T("none",arz+":7"),
 "batch.micro":T(8,arc+":12 per_device_train_batch_size (TrlParser YAML config, aria/train.py:213-214)"),
 "batch.grad_accum":T(2,arc+":13"),
 "batch.global":T(32,"8 x 2 x 2"),
 "data.seq_len":T(2048,arc+":32 max_seq_length -> aria/train.py:239 collate_fn truncation max_length"),
 "precision.mode":T("bf16",arc+":15-16 bf16 true, torch_dtype bfloat16 (aria/train.py:47-56 weights loaded in bf16) under DeepSpeed with "+arz+":15 mixed_precision bf16: DeepSpeed bf16 (16-bit weights, fp32 master copies)"),
 "optimizer.name":T("adamw_torch","SFTConfig (transformers 4.46.3, pyproject.toml:16) optim default adamw_torch; the DeepSpeed config names no optimizer",any_of=["adamw_torch","AdamW","adamw"]),
 "memory.gradient_checkpointing":T(True,arc+":17 -> aria/train.py:215 use_reentrant False"),
 "data.num_workers":T(8,arc+":9 dataloader_num_workers"),
 "peft.method":T("none",arc+" sets no use_peft (trl ModelConfig default False) -> aria/train.py:77"),
 "compile.enabled":T(False,"no torch_compile in the config"),
},held_out=True,note=H21+"; README.md:174-176 accelerate launch --config_file recipes/accelerate_configs/zero2.yaml aria/train.py --config recipes/config_full.yaml (TrlParser over three dataclasses filled from a YAML given by --config, TRL 0.9.6 SFTTrainer with a custom collator, an accelerate DeepSpeed ZeRO-2 config, a Hub-only 25B mixture-of-experts vision-language model with its vision tower frozen; multimodal SFT). Not labelled: model size (the Hub checkpoint's config; MoE, about 25B parameters, 3.9B active), image size (max_image_size 980, split into 490 crops by the processor)")
OSR=("hpcaitech/Open-Sora","7ad6a96a135feb81f755c84fb391818718f6beb2")
osc="configs/vae/train/video_dc_ae.py"
ost="scripts/vae/train.py"
J("opensora-video-dc-ae-colossalai-zero2-8gpu",*OSR,["."],".",["--","torchrun","--nproc_per_node","8",ost,osc],{
 "model.ref":T("dc-ae-f32t4c128",osc+":4-9 model type dc_ae, model_name dc-ae-f32t4c128, from_scratch -> "+ost+":146 build_module(cfg.model, MODELS) -> opensora/models/dc_ae/ae_model_zoo.py:51-70 the registered DC_AE builds DCAE_HF from the named config (opensora/models/dc_ae/models/dc_ae.py:790-803)",any_of=["dc-ae-f32t4c128","dc_ae"]),
 "dist.world_size":T(8,"docs/ae.md:18 torchrun --nproc_per_node 8"),
 "dist.nodes":T(1,"torchrun without --nnodes"),
 "dist.sharding":T("zero2",osc+":46 plugin zero2 -> opensora/utils/train.py:100-106 ColossalAI LowLevelZeroPlugin(stage=2)"),
 "batch.micro":T(1,osc+":21-23 bucket_config 256px_ar1:1 {32 frames: (1.0, batch 1)} -> "+ost+":134-135 prepare_dataloader(bucket_config) (one 32-frame clip per rank; some ranks use a single frame, :381-385)"),
 "batch.grad_accum":T(1,ost+":322 accumulation_steps default 1, not in the config"),
 "batch.global":T(8,"1 x 1 x 8"),
 "data.image_size":T(256,osc+":22 256px bucket"),
 "precision.mode":T("bf16",osc+":45 dtype bf16 -> "+ost+":146 model built in bf16 + opensora/utils/train.py:91 LowLevelZeroPlugin(precision=bf16) keeps fp32 master weights"),
 "optimizer.name":T("HybridAdam",osc+":32-38 cls HybridAdam, adamw_mode True -> opensora/utils/optimizer.py:21-26 (ColossalAI HybridAdam)",any_of=["HybridAdam","AdamW","adamw"]),
 "data.num_workers":T(12,osc+":26 -> "+ost+":124"),
 "data.pin_memory":T(True,ost+":128"),
 "memory.gradient_checkpointing":T(False,osc+":53 grad_checkpoint False -> "+ost+":149"),
 "compile.enabled":T(False,"no torch.compile in "+ost),
 "peft.method":T("none","training from scratch ("+osc+":7)"),
},held_out=True,note=H21+"; docs/ae.md:17-19 torchrun --nproc_per_node 8 scripts/vae/train.py configs/vae/train/video_dc_ae.py (an mmengine-style Python config of dicts, the model, dataset and optimizer built from a registry by type name, ColossalAI Booster with a ZeRO-2 plugin in bf16, bucketed video batches; a video autoencoder for a text-to-video model, vision/video generation). Not labelled: model size (a DC-AE config string of widths and depths, opensora/models/dc_ae/models/dc_ae.py:791-803, not counted), frames per clip (32, a video dimension the plan has no field for)")
FOURM=("apple/ml-4m","cda590faa3b9f022c28537193d3e1650527646a3")
fmc="cfgs/default/4m/models/main/4m-l_mod7_500b.yaml"
fmt="run_training_4m_fsdp.py"
J("4m-l-multimodal-fsdp-yaml-8gpu",*FOURM,["."],".",["--","torchrun","--nproc_per_node=8",fmt,"--config",fmc],{
 "model.ref":T("fm_large_24e_24d_swiglu_nobias",fmc+":14 model -> "+fmt+":384 fourm.utils.create_model (timm-style registry) -> fourm/models/fm.py:1011-1023 FourM encoder 24 + decoder 24, dim 1024"),
 "model.num_parameters":T(705000000,"README_TRAINING.md:61 4M-L 705M (the config of that row is "+fmc+")",rel_tol=0.1),
 "dist.world_size":T(8,"README_TRAINING.md:51 torchrun --nproc_per_node=8 (with <config> filled by the 4M-L row of README_TRAINING.md:61)"),
 "dist.nodes":T(1,"torchrun without --nnodes"),
 "dist.sharding":T("fsdp_grad_op",fmt+":524 ShardingStrategy.SHARD_GRAD_OP -> :533-539 FSDP"),
 "batch.micro":T(64,fmc+":28 batch_size 64 (YAML read into argparse defaults, "+fmt+":233-236) -> :315-318 per-GPU loader batch"),
 "batch.grad_accum":T(1,fmt+":66 --accum_iter default 1"),
 "batch.global":T(512,"64 x 1 x 8 ("+fmt+":501; the YAML's 8192 assumes 128 GPUs, "+fmc+":5)"),
 "data.image_size":T(224,fmc+":16 input_size"),
 "precision.mode":T("amp_bf16",fmc+":17 dtype bfloat16 -> "+fmt+":758 torch.cuda.amp.autocast(bf16) over fp32 params, :526-528 FSDP MixedPrecision(reduce_dtype bf16) only"),
 "optimizer.name":T("adamw",fmc+":23 opt adamw -> "+fmt+":541 create_optimizer",any_of=["adamw","AdamW"]),
 "memory.gradient_checkpointing":T(False,fmt+":70-72 use_act_checkpoint default False, not in the YAML"),
 "compile.enabled":T(False,"no torch.compile in "+fmt),
 "peft.method":T("none","training from scratch"),
},held_out=True,note=H21+"; README_TRAINING.md:50-53 OMP_NUM_THREADS=1 torchrun --nproc_per_node=8 run_training_4m_fsdp.py --config cfgs/default/4m/models/<config>.yaml with <config> filled by the 4M-L row of the table at :61 (a YAML that sets argparse defaults, the model a name in a timm-style registry built with modality embeddings, FSDP SHARD_GRAD_OP with autocast bf16; a multimodal any-to-any masked model, vision). Not labelled: data workers (min of the dataset's shard count and --num_workers 10, :310), token budgets (128 input + 128 target tokens per sample, not a sequence length)")
BSD=("HazyResearch/based","32c1bd4e09c8f7f718b0ed3f2e0a333908297879")
bse="configs/experiment/example/based-360m.yaml"
bsb="configs/experiment/pile/base.yaml"
J("based-360m-wikitext-hydra-lightning-8gpu",*BSD,["train","based","setup.py","README.md"],"train",["run.py","--","experiment=example/based-360m","trainer.devices=8"],{
 "model.num_parameters":T(362000000,bse+":44-111 model _target_ based.models.gpt.GPTLMHeadModel with GPT2MixerConfig n_embd 1024, n_layer 27 (17 BaseConv expand 4, 5 Taylor linear-attention, 5 sliding-window layers), SwiGLU n_inner 2048, GPT-2 vocab padded to 50264, tied embedding, instantiated by hydra (training.py:121 -> train/tasks/seq.py); my count 107M + 13M + 21M mixers + 170M MLP + 51.5M embedding = 362M (the name says 360m)",rel_tol=0.1),
 "dist.world_size":T(8,"train/README.md:31 trainer.devices=8 on the command line ("+bsb+":22-23 num_nodes 1)"),
 "dist.nodes":T(1,bsb+":23 num_nodes 1"),
 "dist.devices_per_node":T(8,"trainer.devices=8"),
 "dist.sharding":T("ddp",bsb+":30 strategy null + devices 8 -> training.py:170-175 DDPStrategy"),
 "batch.micro":T(8,bse+":31 datamodule.batch_size 8 per GPU (overrides gpt3m-flash.yaml:12's GPU-memory formula and wikitext103.yaml's 4)"),
 "batch.grad_accum":T(4,bsb+":24 accumulate_grad_batches = div_up(global_batch_size 256 (:41), devices 8 x batch 8 x nodes 1) = 4"),
 "batch.global":T(256,bsb+":41 train.global_batch_size"),
 "data.seq_len":T(2048,"configs/datamodule/wikitext103.yaml:7 max_length 2048 (also "+bsb+":35)"),
 "precision.mode":T("amp_bf16",bsb+":28 trainer.precision bf16 (pytorch-lightning 1.8.6, setup.py:46: bf16 autocast over fp32 weights)"),
 "optimizer.name":T("FusedAdam",bse+":10-11 apex.optimizers.FusedAdam with adam_w_mode true (AdamW)",any_of=["FusedAdam","AdamW","adamw"]),
 "data.num_workers":T(1,"train/datamodules/language_modeling_hf.py:285 num_workers=1 (the datamodule's num_workers 64 is for preprocessing only)"),
 "data.pin_memory":T(True,"configs/datamodule/wikitext103.yaml:14 -> train/datamodules/language_modeling_hf.py:289"),
 "memory.gradient_checkpointing":T(False,"no mlp_checkpoint_lvl in the config (configs/experiment/pile/gpt3m-flash.yaml:6-9 comments it out); based/models/gpt.py:299 default 0"),
 "compile.enabled":T(False,"no torch.compile"),
 "peft.method":T("none","pretraining from scratch"),
},held_out=True,note=H21+"; train/README.md:29-32 cd train/; python run.py experiment=example/based-360m trainer.devices=8 (Hydra with a four-deep chain of experiment defaults, values from ${eval:...} and ${div_up:...} resolvers, the model, task, optimizer and trainer built by hydra.utils.instantiate from _target_ strings, PyTorch Lightning 1.8 DDP; a linear-attention LLM pretrained on WikiText-103)")
RAR=("bytedance/1d-tokenizer","942a96fbdd873780179d1b78d5462911528bf8c8")
rry="configs/training/generator/rar.yaml"
J("rar-l-imagenet-ar-accelerate-4nodes",*RAR,["."],".",["--","accelerate","launch","--num_machines=4","--num_processes=32","--machine_rank=0",
 "--main_process_ip=10.0.0.1","--main_process_port=9999","--same_network","scripts/train_rar.py","config="+rry,
 "experiment.project=rar","experiment.name=rar_l","experiment.output_dir=rar_l","model.generator.hidden_size=1024",
 "model.generator.num_hidden_layers=24","model.generator.num_attention_heads=16","model.generator.intermediate_size=4096"],{
 "model.num_parameters":T(461000000,"README_RAR.md:179-186 overrides model.generator.hidden_size=1024, num_hidden_layers=24, intermediate_size=4096 on "+rry+":20-29 -> modeling/rar.py:186 RAR(config): 24 blocks of attention + MLP (12.6M) + adaLN modulation (6.3M, :173-180); my count about 455M plus embeddings, the RAR paper's RAR-L is 461M",rel_tol=0.1),
 "dist.world_size":T(32,"README_RAR.md:179 accelerate launch --num_processes=32"),
 "dist.nodes":T(4,"--num_machines=4"),
 "dist.devices_per_node":T(8,"32 processes / 4 machines"),
 "dist.sharding":T("ddp","scripts/train_rar.py:56-60,105 plain Accelerator (no DeepSpeed/FSDP plugin): DDP over 32 processes"),
 "batch.micro":T(64,rry+":71 per_gpu_batch_size 64 (OmegaConf CLI config=, utils/train_utils.py:328)"),
 "batch.grad_accum":T(1,rry+":70 -> scripts/train_rar.py:57"),
 "batch.global":T(2048,"64 x 1 x 32 ("+rry+":71 comment: total batch size 2048)"),
 "data.image_size":T(256,rry+":48-49 resize 256, crop 256 (the generator sees 256 VQ tokens of a 16x16 grid)"),
 "precision.mode":T("amp_bf16",rry+":72 mixed_precision bf16 -> scripts/train_rar.py:58 Accelerator(mixed_precision) autocast over fp32 weights"),
 "optimizer.name":T("AdamW",rry+":54 name adamw -> utils/train_utils.py:224-242 torch.optim.AdamW",any_of=["AdamW","adamw"]),
 "memory.gradient_checkpointing":T(False,rry+":35 use_checkpoint False -> modeling/rar.py:244"),
 "compile.enabled":T(False,"no torch.compile"),
 "peft.method":T("none","training from scratch"),
},held_out=True,note=H21+"; README_RAR.md:178-186 WANDB_MODE=offline accelerate launch --num_machines=4 --num_processes=32 --machine_rank=${MACHINE_RANK} --main_process_ip=${ROOT_IP} --main_process_port=${ROOT_PORT} --same_network scripts/train_rar.py config=configs/training/generator/rar.yaml ... (RAR-L), written with the environment variable removed and the three shell variables filled for the first machine (OmegaConf YAML given as config= and overridden by dotted key=value arguments that size the model, a frozen MaskGIT VQ tokenizer downloaded from the Hub, webdataset loaders; class-conditional autoregressive image generation, vision). Not labelled: data workers (num_workers_per_gpu 12 inside a webdataset loader, "+rry+":46)")
TGR=("open-thought/tiny-grpo","eafedd78ff86dbb724a3dd21bb04ab6523ac8f3c")
J("tiny-grpo-llama32-1b-single-gpu",*TGR,["."],".",["train.py"],{
 "model.ref":T("meta-llama/Llama-3.2-1B-Instruct","train.py:198 model_name (a local in main) -> :221 load_model -> :31-36 LlamaForCausalLM.from_pretrained"),
 "dist.world_size":T(1,"README.md:24 python train.py: one process, train.py:197,216 cuda device 0"),
 "dist.nodes":T(1,"one process"),
 "dist.sharding":T("none","no DDP/FSDP/DeepSpeed",any_of=["none"]),
 "batch.micro":T(16,"train.py:201 train_batch_size 16 -> :317-323 DataLoader over the replay buffer (16 sampled completions per optimizer step)"),
 "batch.grad_accum":T(1,"train.py:333-351 zero_grad, backward and step on every batch"),
 "batch.global":T(16,"16 x 1 x 1"),
 "precision.mode":T("bf16","train.py:26,35 bf16 True -> torch_dtype bfloat16 weights; :222 Adam directly on the bf16 parameters (no autocast, no fp32 copy)"),
 "optimizer.name":T("Adam","train.py:222 optim.Adam",any_of=["Adam","adam"]),
 "model.attn_implementation":T("flash_attention_2","train.py:34"),
 "memory.gradient_checkpointing":T(True,"train.py:225-227 gradient_checkpointing_enable"),
 "data.num_workers":T(0,"train.py:317-323 DataLoader without num_workers"),
 "data.pin_memory":T(False,"train.py:317-323 DataLoader default (the prompt loader, :239-245, sets pin_memory=False too)"),
 "compile.enabled":T(False,"no torch.compile"),
 "peft.method":T("none","full-parameter GRPO"),
},held_out=True,note=H21+"; README.md:24 python train.py (no command-line arguments: every hyperparameter a local variable of main(), a frozen reference copy of the policy on the same GPU, rollouts with HF generate, a hand-written GRPO loss over a replay buffer; RL post-training). Not labelled: sequence length (prompt plus up to max_length 1024 tokens, train.py:212, variable)")
R1S=("RUCAIBox/R1-Searcher","631167cbb3c2464f805730e3e364a690f5b136d4")
r1s="scripts/qwen_reinforce_plus_train.sh"
r1o="OpenRLHF-RAG/openrlhf"
J("r1-searcher-qwen25-7b-reinforce-openrlhf-ray",*R1S,["scripts","OpenRLHF-RAG/openrlhf","OpenRLHF-RAG/setup.py","README.md"],".",[r1s],{
 "model.ref":T("/opt/aps/workdir/model/Qwen2.5-7B",r1s+":19 TOKENIZER_PATH -> :52 --pretrain (a local copy of Qwen2.5-7B)",any_of=["/opt/aps/workdir/model/Qwen2.5-7B","Qwen/Qwen2.5-7B","Qwen2.5-7B"]),
 "dist.world_size":T(4,r1s+":47-48 actor_num_nodes 1 x actor_num_gpus_per_node 4 (the reference model colocated on the same 4 GPUs, :51; vLLM on 2 more, :49-50): the DeepSpeed training group is 4 ranks"),
 "dist.nodes":T(1,r1s+":47"),
 "dist.sharding":T("zero2",r1s+":68 --zero_stage 2 -> "+r1o+"/utils/deepspeed/deepspeed_utils.py get_train_ds_config stage"),
 "dist.offload_optimizer":T("none","--adam_offload absent ("+r1o+"/cli/train_ppo_ray.py:236)"),
 "dist.overlap_comm":T(True,r1s+":82 --overlap_comm"),
 "batch.micro":T(1,r1s+":56 --micro_train_batch_size 1"),
 "batch.grad_accum":T(64,r1s+":24,57 train_batch_size 256 -> "+r1o+"/utils/deepspeed/deepspeed.py:86-88 256 // 1 // 4 ranks = 64"),
 "batch.global":T(256,r1s+":24 TBS=256 --train_batch_size (samples per actor optimizer step)"),
 "precision.mode":T("bf16",r1s+":69 --bf16 -> "+r1o+"/models/actor.py:78 bf16 weights + DeepSpeed bf16 (fp32 master copies)"),
 "optimizer.name":T("FusedAdam",r1o+"/utils/deepspeed/deepspeed.py:121 FusedAdam when not --adam_offload",any_of=["FusedAdam","AdamW","adamw"]),
 "model.attn_implementation":T("flash_attention_2",r1s+":76 --flash_attn -> "+r1o+"/models/actor.py:53"),
 "memory.gradient_checkpointing":T(True,r1s+":77 --gradient_checkpointing"),
 "peft.method":T("none","--lora_rank absent, default 0 ("+r1o+"/cli/train_ppo_ray.py:249)"),
},held_out=True,note=H21+"; README.md:158 bash scripts/qwen_reinforce_plus_train.sh (shell variables, exported CUDA_VISIBLE_DEVICES, then ray job submit --address=... -- python3 -m openrlhf.cli.train_ppo_ray with ~40 flags into a vendored OpenRLHF fork installed from OpenRLHF-RAG/, REINFORCE++ with a remote reward server and vLLM rollouts over a retrieval tool; RL post-training of a 7B model). Not labelled: sequence length (prompt up to 1024 plus up to 29000 generated tokens, packed, :28,66-67)")
PRL=("PrimeIntellect-ai/prime-rl","559b44772e471d1538537b8805cc77f3824a5e64")
prt="examples/basic/reverse-text/sft.toml"
prc="packages/prime-rl-configs/src/prime_rl/configs/trainer.py"
J("prime-rl-sft-qwen3-0.6b-toml-torchrun-2gpu",*PRL,["."],".",["--","torchrun","--local-ranks-filter","0","--nproc-per-node","2",
 "src/prime_rl/trainer/sft/train.py","@",prt],{
 "model.ref":T("PrimeIntellect/Qwen3-0.6B",prt+":5-6 [model] name (TOML read by pydantic-settings from the @ argument)"),
 "dist.world_size":T(2,"examples/basic/reverse-text/README.md:55-58 torchrun --nproc-per-node ... with the placeholder filled as 2"),
 "dist.nodes":T(1,"torchrun without --nnodes"),
 "dist.sharding":T("fsdp_full","src/prime_rl/trainer/model.py:824-871 FSDP2 fully_shard over all ranks (dp_replicate 1, reshard_after_forward True, "+prc+":206-209)"),
 "dist.offload_optimizer":T("cpu",prc+":200 optim_cpu_offload default True -> src/prime_rl/trainer/sft/train.py:191-195 optimizer states on CPU, weights on GPU"),
 "batch.micro":T(1,"packages/prime-rl-configs/src/prime_rl/configs/sft.py:46 data.micro_batch_size default 1 (one packed sequence)"),
 "batch.grad_accum":T(16,"src/prime_rl/trainer/sft/train.py:113-119 batch_size 32 x cp 1 // (world 2 x micro 1) = 16"),
 "batch.global":T(32,prt+":11 [data] batch_size 32 (global, packages/prime-rl-configs/src/prime_rl/configs/sft.py:40-41)"),
 "data.seq_len":T(4096,prt+":10 [data] seq_len 4096 (samples packed to this length)"),
 "precision.mode":T("amp_bf16",prc+":233 optimization_dtype default float32 (src/prime_rl/trainer/model.py:1332 fp32 weights) + model.py:824 MixedPrecisionPolicy(param_dtype bf16, reduce fp32)"),
 "optimizer.name":T("AdamW",prc+":607 optim default AdamWConfig (type adamw)",any_of=["AdamW","adamw"]),
 "memory.gradient_checkpointing":T(True,prc+":191 ac default ActivationCheckpointConfig() (mode full, every layer)"),
 "compile.enabled":T(True,prc+":188 compile default CompileConfig()"),
 "data.num_workers":T(1,"packages/prime-rl-configs/src/prime_rl/configs/sft.py:49 data.num_workers default 1"),
 "peft.method":T("none","no [model.lora] section ("+prc+":256 lora default None)"),
},held_out=True,note=H21+"; examples/basic/reverse-text/README.md:52-60 uv run torchrun --local-ranks-filter 0 --nproc-per-node ... src/prime_rl/trainer/sft/train.py @ examples/basic/reverse-text/sft.toml, written without uv run and the wandb flags, with 2 processes (pydantic-settings configs read from a TOML given after @, defaults in a separate configs package that turn on compile, activation checkpointing and CPU optimizer-state offload, FSDP2 with a bf16 param dtype, packed SFT; LLM post-training)")
