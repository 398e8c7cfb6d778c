"""The nineteenth held-out set of the jobs benchmark (run.py --set held-out-19): expert truth
written by hand, one J(...) per job."""
from .core import J, T

H19="nineteenth held-out set"
GZ=("policy-gradient/GRPO-Zero","d41bb486cfe4d58bf8dbb0b8f62b3c3102af9e74")
gzc="config_24GB.yaml"
J("grpo-zero-qwen25-3b-24gb-1gpu",*GZ,["."],".",["train.py","--","--config",gzc],{
 "model.ref":T("Qwen/Qwen2.5-3B-Instruct",gzc+":2 pretrained_model_path 'Qwen2.5-3B-Instruct' (README.md:80 git clone https://huggingface.co/Qwen/Qwen2.5-3B-Instruct) -> train.py:91 Transformer.from_pretrained",any_of=["Qwen/Qwen2.5-3B-Instruct","Qwen2.5-3B-Instruct"]),
 "dist.world_size":T(1,"README.md:84 uv run train.py: one process, no torch.distributed anywhere"),
 "dist.nodes":T(1,"one process"),
 "dist.sharding":T("none","no DDP/FSDP/DeepSpeed",any_of=["none"]),
 "batch.micro":T(2,gzc+":15 micro_batch_size -> grpo.py:158-164 update_policy slices episodes in micro batches"),
 "batch.grad_accum":T(128,gzc+":12 batch_size 256 episodes per step / micro 2 -> grpo.py:154-211 one backward per micro batch, one optimizer.step at :217"),
 "batch.global":T(256,gzc+":12 batch_size (32 questions x 8 answers, :13, train.py:70)"),
 "precision.mode":T("bf16","qwen2_model.py:307-346 weights loaded from the bf16 safetensors with load_state_dict(assign=True) (no fp32 copy) + grpo.py:190 autocast bf16 ("+gzc+":4); the AdamW states follow the bf16 params"),
 "optimizer.name":T("AdamW","train.py:93 MemoryEfficientAdamW (optimizer.py:7 subclass of torch AdamW)",any_of=["AdamW","adamw","MemoryEfficientAdamW"]),
 "dist.offload_optimizer":T("cpu",gzc+":26 memory_efficient_adamw true -> optimizer.py:7-10 optimizer states kept on CPU"),
 "memory.gradient_checkpointing":T(True,"qwen2_model.py:263 forward runs checkpoint_sequential over every layer"),
 "model.attn_implementation":T("sdpa","qwen2_model.py:139,148 F.scaled_dot_product_attention"),
 "data.num_workers":T(0,"train.py:83-89 DataLoader without num_workers"),
 "compile.enabled":T(False,"no torch.compile"),
 "peft.method":T("none","full-parameter GRPO"),
},held_out=True,note=H19+"; README.md:82-84 uv run train.py --config config_24GB.yaml (written as train.py with its arguments; uv run runs it with the project's Python): a YAML config read with yaml.safe_load into a dict, a hand-written Qwen2 with checkpoint_sequential, an AdamW subclass that keeps its states on CPU, a GRPO loop whose accumulation is the episode batch split in micro batches. Not labelled: sequence length (prompt up to 256 plus up to 1024 generated tokens, :10-11, no fixed length)")
NAM=("McGill-NLP/nano-aha-moment","6cd0306dd994674f98ec2f0b07732c00c0bfe125")
nas="nano_r1_script.py"
J("nano-aha-moment-qwen25-3b-grpo-zero2-4gpu",*NAM,["."],".",[nas,"--","--nproc","4"],{
 "model.ref":T("Qwen/Qwen2.5-3B",nas+":49 --model_name default -> :792-796 AutoModelForCausalLM.from_pretrained"),
 "dist.world_size":T(4,"README.md:64 --nproc 4 -> "+nas+":1161 torch.multiprocessing.spawn(main, nprocs=4)"),
 "dist.nodes":T(1,"mp.spawn on one machine"),
 "dist.sharding":T("zero2",nas+":700 zero_optimization stage 2 -> :809-813 deepspeed.initialize(config=...)"),
 "dist.offload_optimizer":T("none","no offload_optimizer in the dict at "+nas+":698-716"),
 "dist.overlap_comm":T(False,nas+":700"),
 "batch.micro":T(8,nas+":50 --per_device_batch_size default 8 -> :702"),
 "batch.grad_accum":T(2,nas+":673-674 64 episodes // 4 ranks = 16 per rank -> :703 16 // 8"),
 "batch.global":T(64,nas+":701 train_batch_size = EPISODES_PER_ITERATION 64"),
 "precision.mode":T("bf16",nas+":699 DeepSpeed bf16 enabled (16-bit weights, fp32 master) and :795 torch_dtype bf16"),
 "optimizer.name":T("AdamW",nas+":705-714 DeepSpeed optimizer AdamW (torch_adam, fused)",any_of=["AdamW","adamw","adamw_torch_fused","adamw_torch"]),
 "model.attn_implementation":T("flash_attention_2",nas+":794"),
 "memory.gradient_checkpointing":T(True,nas+":804 gradient_checkpointing_enable"),
 "compile.enabled":T(False,"no torch.compile"),
 "peft.method":T("none","full-parameter GRPO"),
},held_out=True,note=H19+"; README.md:62-65 python nano_r1_script.py --nproc 4 (argparse, a script that spawns its own processes with torch.multiprocessing.spawn, a DeepSpeed config dict built from module constants and argparse values, a frozen reference model in a second DeepSpeed engine moved to CPU, vLLM generation on every rank). Not labelled: sequence length (prompt plus up to 1024 generated tokens, :51)")
SVC=("Plachtaa/seed-vc","d334fb72407ca4abfb929f50f9067ff6ccd13bb0")
svy="configs/presets/config_dit_mel_seed_uvit_whisper_small_wavenet.yml"
J("seed-vc-v1-whisper-small-wavenet-finetune-1gpu",*SVC,["."],".",["train.py","--","--config","./"+svy,"--dataset-dir","/data/my_voice",
 "--run-name","my_run","--batch-size","2","--max-steps","1000","--max-epochs","1000","--save-every","500","--num-workers","0"],{
 "dist.world_size":T(1,"README.md:179 python train.py; train.py:431-436 one --gpu device, no torch.distributed"),
 "dist.nodes":T(1,"one process"),
 "dist.sharding":T("none","no DDP (train.py:113 is_distributed=False)",any_of=["none"]),
 "batch.micro":T(2,"README.md:183 --batch-size 2 -> train.py:40,57 -> data/ft_dataset.py:74-76 DataLoader batch_size"),
 "batch.grad_accum":T(1,"train.py:333-338 zero_grad/backward/step every batch"),
 "precision.mode":T("fp32","no autocast or half in train.py or the DiT/length-regulator modules; fp32 weights"),
 "optimizer.name":T("AdamW","train.py:80 build_optimizer -> optimizers.py:70-80 torch AdamW per sub-model",any_of=["AdamW","adamw"]),
 "data.num_workers":T(0,"README.md:187 --num-workers 0 -> data/ft_dataset.py:78"),
 "data.pin_memory":T(False,"data/ft_dataset.py:74-80 DataLoader without pin_memory"),
 "memory.gradient_checkpointing":T(False,"no checkpointing in the trained cfm/length_regulator modules"),
 "compile.enabled":T(False,"no torch.compile in train.py"),
 "peft.method":T("none","full fine-tune of the DiT and length regulator (train.py:80)"),
},held_out=True,note=H19+"; README.md:177-188 python train.py --config <preset> --dataset-dir ... --batch-size 2 ... --num-workers 0 with the offline voice-conversion preset of README.md:174 and the placeholders filled (argparse with dashed flags, a YAML model config, a DiT built from the YAML plus frozen Whisper-small, CAMPPlus, RMVPE, OpenVoice and BigVGAN helpers loaded from the hub; speech/voice conversion). Not labelled: model size (DiT 512 x 13 plus a WaveNet and a length regulator from the YAML, weights from Plachta/Seed-VC), audio length (1-30 s clips)")
PVL=("TRI-ML/prismatic-vlms","874c5bbff52b248294a3ab97006491a7faa698e6")
pcm="prismatic/conf/models.py"
pfs="prismatic/training/strategies/fsdp.py"
pbs="prismatic/training/strategies/base_strategy.py"
J("prismatic-dinosiglip-vicuna7b-fsdp-8gpu",*PVL,["."],".",["--","torchrun","--standalone","--nnodes","1","--nproc-per-node","8","scripts/pretrain.py",
 "--model.type","one-stage+7b","--model.model_id","prism-dinosiglip+7b","--model.vision_backbone_id","dinosiglip-vit-so-384px",
 "--model.image_resize_strategy","letterbox","--model.llm_backbone_id","vicuna-v15-7b"],{
 "model.ref":T("lmsys/vicuna-7b-v1.5","README.md:185 --model.llm_backbone_id vicuna-v15-7b -> prismatic/models/backbones/llm/llama2.py:44-45 hf_hub_path (the trained LLM; the vision backbone is frozen in the finetune stage)"),
 "dist.world_size":T(8,"README.md:180 --nproc-per-node 8"),
 "dist.nodes":T(1,"README.md:180 --standalone --nnodes 1"),
 "dist.sharding":T("fsdp_full","scripts/pretrain.py:65 stage finetune -> "+pcm+":114 fsdp-full-shard -> prismatic/training/materialize.py:18 -> "+pfs+":85-86 HYBRID_SHARD, which is a full shard within the one node",any_of=["fsdp_full","fsdp_hybrid"]),
 "batch.micro":T(16,pcm+":106 finetune_per_device_batch_size (one-stage+7b inherits LLaVa_v15_Reproduction_7B)"),
 "batch.global":T(128,pcm+":105 finetune_global_batch_size"),
 "batch.grad_accum":T(1,pbs+":83 128 // 16 // 8"),
 "data.seq_len":T(2048,pcm+":86 llm_max_length -> prismatic/models/backbones/llm/base_llm.py:150 tokenizer model_max_length"),
 "data.image_size":T(384,"README.md:183 dinosiglip-vit-so-384px -> prismatic/models/materialize.py:49 default_image_size 384"),
 "precision.mode":T("amp_bf16",pcm+":70 enable_mixed_precision_training -> "+pfs+":137-142 FSDP MixedPrecision(param_dtype bf16) over fp32 params + "+pbs+":177 autocast bf16"),
 "optimizer.name":T("AdamW",pfs+":30,210 torch AdamW",any_of=["AdamW","adamw"]),
 "memory.gradient_checkpointing":T(True,pcm+":67 enable_gradient_checkpointing True -> "+pfs+":167-179 apply_activation_checkpointing on the LLM layers"),
 "model.attn_implementation":T("flash_attention_2","prismatic/models/backbones/llm/llama2.py:62 use_flash_attention_2 True",any_of=["flash_attention_2","flash_attn"]),
 "data.num_workers":T(2,pbs+":144"),
 "compile.enabled":T(False,"no torch.compile"),
 "peft.method":T("none","finetune stage: projector + full LLM trained, vision backbone frozen"),
},held_out=True,note=H19+"; README.md:178-186 torchrun --standalone --nnodes 1 --nproc-per-node 8 scripts/pretrain.py --model.type one-stage+7b ... with the model_id placeholder filled (draccus dataclass configs chosen by a registry key and overridden with dotted flags, a training stage that picks the batch sizes and strategy, FSDP with a bf16 MixedPrecision policy and activation checkpointing; vision-language model)")
MRF=("cloneofsimo/minRF","4fc10e0cc8ba976152c7936a1af9717209f03e18")
J("minrf-dit-llama-cifar10-1gpu",*MRF,["."],".",["rf.py","--","--cifar"],{
 "model.num_parameters":T(13300000,"rf.py:78-80 DiT_Llama(3, 32, dim=256, n_layers=10, n_heads=8) -> dit.py: 10 blocks x 1.25M (attention 4x256^2, SwiGLU 3x256x768, adaLN 256x1536) + conv stem, embedders and final layer ~0.8M",rel_tol=0.1),
 "dist.world_size":T(1,"README.md:34 python rf.py --cifar: one process"),
 "dist.nodes":T(1,"one process"),
 "dist.sharding":T("none","no DDP",any_of=["none"]),
 "batch.micro":T(256,"rf.py:105 DataLoader batch_size=256"),
 "batch.grad_accum":T(1,"rf.py:114-117 zero_grad/backward/step every batch"),
 "data.image_size":T(32,"rf.py:72 RandomCrop(32) on CIFAR-10"),
 "precision.mode":T("fp32","no autocast or half in rf.py/dit.py"),
 "optimizer.name":T("Adam","rf.py:101 optim.Adam",any_of=["Adam","adam"]),
 "data.num_workers":T(0,"rf.py:105 DataLoader without num_workers"),
 "data.pin_memory":T(False,"rf.py:105"),
 "memory.gradient_checkpointing":T(False,"no checkpointing in dit.py"),
 "compile.enabled":T(False,"no torch.compile"),
 "peft.method":T("none","training from scratch"),
},held_out=True,note=H19+"; README.md:33-35 python rf.py --cifar (a single-file rectified-flow trainer with a store_true flag choosing the dataset and the model size in code, a Llama-style DiT; image generation)")
CSV=("FunAudioLLM/CosyVoice","ace7c47f41bbd303aa6bf1ea80e6f9fbd595cd40")
cvy="conf/cosyvoice2.yaml"
cvt="cosyvoice/utils/train_utils.py"
pmd="../../../pretrained_models/CosyVoice2-0.5B"
J("cosyvoice2-llm-torchrun-ddp-4gpu",*CSV,["cosyvoice","examples/libritts/cosyvoice2","README.md","requirements.txt"],"examples/libritts/cosyvoice2",
 ["--","torchrun","--nnodes=1","--nproc_per_node=4","--rdzv_id=1986","--rdzv_backend=c10d","--rdzv_endpoint=localhost:1234",
  "../../../cosyvoice/bin/train.py","--train_engine","torch_ddp","--config",cvy,"--train_data","data/train.data.list",
  "--cv_data","data/dev.data.list","--qwen_pretrain_path",pmd+"/CosyVoice-BlankEN","--onnx_path",pmd,"--model","llm",
  "--checkpoint",pmd+"/llm.pt","--model_dir","exp/cosyvoice2/llm/torch_ddp","--tensorboard_dir","tensorboard/cosyvoice2/llm/torch_ddp",
  "--ddp.dist_backend","nccl","--num_workers","2","--prefetch","100","--pin_memory","--use_amp",
  "--deepspeed_config","./conf/ds_stage2.json","--deepspeed.save_states","model+optimizer"],{
 "model.num_parameters":T(506000000,cvy+":23-31 Qwen2LM around a Qwen2 encoder from --qwen_pretrain_path CosyVoice-BlankEN (Qwen2.5-0.5B size, hidden 896, :9) ~494M + speech embedding and decoder over 6561 speech tokens (:26, cosyvoice/llm/llm.py) ~12M",rel_tol=0.1),
 "dist.world_size":T(4,"run.sh:56-57,71 CUDA_VISIBLE_DEVICES=0,1,2,3 -> num_gpus 4 -> --nproc_per_node=$num_gpus"),
 "dist.nodes":T(1,"run.sh:71 --nnodes=1"),
 "dist.sharding":T("ddp","run.sh:62 train_engine=torch_ddp -> "+cvt+":100 DistributedDataParallel (ds_stage2.json is passed but only read for the deepspeed engine)"),
 "batch.grad_accum":T(2,cvy+":219 accum_grad 2 -> cosyvoice/utils/executor.py:64,79"),
 "precision.mode":T("amp_bf16","run.sh:88 --use_amp -> "+cvt+":74 dtype bf16 for torch_ddp -> :250 autocast(bf16); fp32 weights (a GradScaler is also made, cosyvoice/bin/train.py:177)"),
 "optimizer.name":T("Adam",cvy+":211 optim adam -> "+cvt+":114 optim.Adam",any_of=["Adam","adam"]),
 "data.num_workers":T(2,"run.sh:60,85 -> "+cvt+":62"),
 "data.pin_memory":T(True,"run.sh:87 --pin_memory -> "+cvt+":61"),
 "memory.gradient_checkpointing":T(False,"no gradient checkpointing in cosyvoice/llm"),
 "compile.enabled":T(False,"no torch.compile"),
 "peft.method":T("none","full fine-tune of the LLM stage from llm.pt"),
},held_out=True,note=H19+"; examples/libritts/cosyvoice2/run.sh:55-91 stage 5, the torchrun line for --model llm with the shell variables expanded (run.sh as committed stops at stage 3, so the training line is named instead; argparse with dotted flags, a HyperPyYAML config with !new: constructors, a train engine chosen by a flag so that the DeepSpeed JSON given on the line is not used, dynamic batches by frame count; speech LLM of a TTS system). Not labelled: micro batch (dynamic, max_frames_in_batch 2000, "+cvy+":174-175), sequence length (text plus speech tokens, variable)")
LGN=("FoundationVision/LlamaGen","ce98ec41803a74a90ce68c40ababa9eaeffeb4ec")
lgt="autoregressive/train/train_c2i_fsdp.py"
J("llamagen-gpt-xxl-c2i-384-fsdp-8gpu",*LGN,["."],".",["--","torchrun","--nnodes=1","--nproc_per_node=8","--node_rank=0","--master_addr=127.0.0.1",
 "--master_port=12345",lgt,"--cloud-save-path","/ckpt/cloud","--code-path","/data/imagenet_code_c2i_flip_ten_crop","--image-size","384","--gpt-model","GPT-XXL"],{
 "model.num_parameters":T(1400000000,"GETTING_STARTED.md:37 --gpt-model GPT-XXL -> autoregressive/models/gpt.py:451-452 n_layer 48, n_head 24, dim 1536 ('# 1.4B'): 48 x 28.3M + 16384-token embedding and head",rel_tol=0.1),
 "dist.world_size":T(8,"scripts/autoregressive/train_c2i_fsdp.sh:4-7 torchrun with $nproc_per_node, which GETTING_STARTED.md:35 asks the user to set: 8 here"),
 "dist.nodes":T(1,"--nnodes=1 as set by the user"),
 "dist.sharding":T("fsdp_full",lgt+":385 --data-parallel default fsdp -> :41-45 ShardingStrategy.FULL_SHARD"),
 "batch.global":T(256,lgt+":378 --global-batch-size default 256"),
 "batch.micro":T(32,lgt+":224 global 256 // world size 8"),
 "batch.grad_accum":T(1,lgt+":383 --gradient-accumulation-steps is parsed but never used; :270-284 one optimizer step per batch"),
 "data.seq_len":T(576,lgt+":164-167 block_size (384 // 16)^2 = 576 image tokens; input = 1 class token + 575 tokens (:277)",any_of=[576,577]),
 "data.image_size":T(384,"GETTING_STARTED.md:37 --image-size 384 (the model sees precomputed VQ codes, --code-path)"),
 "precision.mode":T("amp_bf16",lgt+":384 --mixed-precision default bf16 -> :46-55 FSDP MixedPrecision(param_dtype bf16) over fp32 params + :272 autocast bf16"),
 "optimizer.name":T("AdamW",lgt+":94-96 torch.optim.AdamW (fused when available)",any_of=["AdamW","adamw","adamw_torch_fused"]),
 "model.attn_implementation":T("sdpa","autoregressive/models/gpt.py:232 F.scaled_dot_product_attention"),
 "data.num_workers":T(24,lgt+":380 --num-workers default 24 -> :227"),
 "data.pin_memory":T(True,lgt+":228"),
 "memory.gradient_checkpointing":T(False,"no checkpointing in gpt.py or the FSDP setup"),
 "compile.enabled":T(False,"no torch.compile in "+lgt),
 "peft.method":T("none","training from scratch"),
},held_out=True,note=H19+"; GETTING_STARTED.md:34-38 bash scripts/autoregressive/train_c2i_fsdp.sh --cloud-save-path ... --code-path ... --image-size 384 --gpt-model GPT-XXL, written as the torchrun line of that script with the $nnodes/$nproc_per_node/$node_rank/$master_addr/$master_port the user must set (1 node, 8 GPUs) and the path placeholders filled (argparse, a model size chosen from a dict of constructors, FSDP with a MixedPrecision policy chosen by a string, an accumulation flag that is never used; class-conditional autoregressive image generation)")
VCR=("jasonppy/VoiceCraft","a702dfd2ced6d4fd6b04bdc160c832c6efc8f6c5")
vcs="e830M.sh"
J("voicecraft-830m-gigaspeech-torchrun-4gpu",*VCR,["."],"z_scripts",[vcs],{
 "model.num_parameters":T(830000000,vcs+":34-37 d_model 2048, 16 decoder layers, nhead 16 -> models/voicecraft.py:166-177 TransformerEncoderLayer with dim_feedforward 4 x d_model: 16 x 50.3M + 4 codebook embeddings and prediction heads ~34M (the script is named e830M)",rel_tol=0.1),
 "dist.world_size":T(4,vcs+":4-5 CUDA_VISIBLE_DEVICES=0,1,2,3, WORLD_SIZE=4 -> :17 --nproc_per_node=${WORLD_SIZE}"),
 "dist.nodes":T(1,vcs+":17 --nnodes=1"),
 "dist.sharding":T("ddp","steps/trainer.py:46 DistributedDataParallel"),
 "batch.grad_accum":T(26,vcs+":39 --gradient_accumulation_steps 26 -> steps/trainer.py:87-88 each loader batch split into 26 slices, one backward each, one step"),
 "precision.mode":T("amp_fp16","config.py:8 --precision default float16 -> steps/trainer.py:90 autocast(float16) + :45 GradScaler; fp32 weights"),
 "optimizer.name":T("ScaledAdam",vcs+":29 --optimizer_name ScaledAdam -> steps/trainer.py:421-424 (steps/optim.py, from icefall)",any_of=["ScaledAdam","scaledadam","scaled_adam"]),
 "data.num_workers":T(2,vcs+":66 --num_workers 8 -> steps/trainer.py:349 8 // world size 4 per process"),
 "data.pin_memory":T(False,"steps/trainer.py:347-350 DataLoader without pin_memory"),
 "memory.gradient_checkpointing":T(False,"no checkpointing in models/voicecraft.py"),
 "compile.enabled":T(False,"no torch.compile"),
 "peft.method":T("none","training from scratch"),
},held_out=True,note=H19+"; README.md:205-209 cd ./z_scripts && bash e830M.sh (conda activate, exported CUDA_VISIBLE_DEVICES and WORLD_SIZE used on the torchrun line, ../main.py relative to the script folder, argparse with ~60 flags, dynamic batching by token count split into accumulation slices in the trainer, the ScaledAdam optimizer with an Eden scheduler; speech editing/TTS codec language model). Not labelled: micro batch (dynamic: --max_num_tokens 100000 per loader batch, :38, divided into 26 slices), sequence length (audio up to 20 s at 50 Hz plus up to 400 phonemes, variable)")
OLC=("allenai/OLMo-core","fa6c5014c9f6e9ee789da2d9c20d5126fee8df0d")
olt="src/examples/llm/train.py"
J("olmo-core-llama2-271m-c4-fsdp-torchrun-4gpu",*OLC,["src","README.md","pyproject.toml"],".",["--","torchrun","--nproc-per-node=4",olt,"run01"],{
 "model.num_parameters":T(271000000,olt+":284 --model-factory default llama2_271M -> src/olmo_core/nn/transformer/config.py:1129-1140 d_model 1024, 16 layers, 8 heads, vocab padded from GPT-2 ('A 271M Llama2-like model'; my count 257M with a tied head, 309M untied)",rel_tol=0.15),
 "dist.world_size":T(4,olt+":6 torchrun --nproc-per-node=4 (the launch line in the module docstring)"),
 "dist.nodes":T(1,"torchrun without --nnodes"),
 "dist.sharding":T("fsdp_full",olt+":188-190 TransformerDataParallelConfig(name=DataParallelType.fsdp) (full sharding)"),
 "data.seq_len":T(2048,olt+":289-291 --sequence-length default 2048 -> :167,180"),
 "batch.global":T(128,olt+":173 global_batch_size 256*1024 tokens / 2048 = 128 sequences"),
 "batch.micro":T(8,olt+":179 rank_microbatch_size 16*1024 tokens / 2048 = 8 sequences"),
 "batch.grad_accum":T(4,"128 sequences / (8 per micro batch x 4 ranks)"),
 "precision.mode":T("amp_bf16",olt+":189 FSDP param_dtype bfloat16, reduce_dtype float32 over fp32 params"),
 "optimizer.name":T("AdamW",olt+":181 AdamWConfig",any_of=["AdamW","adamw"]),
 "compile.enabled":T(True,olt+":187 compile_model=True"),
 "data.num_workers":T(4,olt+":175"),
 "memory.gradient_checkpointing":T(False,"no ac_config in the train module config ("+olt+":178-193)"),
 "peft.method":T("none","pretraining from scratch"),
},held_out=True,note=H19+"; src/examples/llm/train.py:4-6 torchrun --nproc-per-node=4 src/examples/llm/train.py run_name (a library's own config dataclasses built in code, a model chosen by a factory-method name, batch sizes given in tokens, FSDP2 with a bf16 param dtype, compiled model; LLM pretraining on C4 streamed over HTTP)")
DHS=("pacman100/DHS-LLM-Workshop","0ba41561ce6ea16d3993069c03ec1dca3ab6769d")
dds="run_dpo.sh"
J("dhs-workshop-mistral-dpo-qlora-1gpu",*DHS,["chat_assistant/dpo"],"chat_assistant/dpo",[dds],{
 "model.ref":T("smangrul/mistral-sft",dds+":3 --model_name_or_path -> utils.py:181-201 (a PEFT adapter repo is resolved to its base at run time)",any_of=["smangrul/mistral-sft","mistralai/Mistral-7B-v0.1"]),
 "dist.world_size":T(1,dds+":1 CUDA_VISIBLE_DEVICES=0 python train.py"),
 "dist.nodes":T(1,"one process"),
 "dist.sharding":T("none","one process, no DeepSpeed/FSDP",any_of=["none"]),
 "batch.micro":T(2,dds+":31"),
 "batch.grad_accum":T(8,dds+":33"),
 "batch.global":T(16,"2 x 8 x 1"),
 "data.seq_len":T(1024,dds+":11 --max_seq_len 1024: argparse prefix of the max_seq_length field (train.py:113; HfArgumentParser keeps allow_abbrev) -> train.py:187 DPOTrainer max_length"),
 "precision.mode":T("amp_bf16",dds+":22 --bf16 True (Trainer autocast bf16) with a 4-bit base computing in bf16 (:44); LoRA weights fp32",any_of=["amp_bf16","bf16"]),
 "precision.weights_bits":T(4,dds+":42 --use_4bit_quantization True -> utils.py:141-146 BitsAndBytesConfig(load_in_4bit)"),
 "precision.quant_type":T("nf4","train.py:64-66 bnb_4bit_quant_type default nf4 -> utils.py:143"),
 "precision.double_quant":T(True,dds+":43 --use_nested_quant True -> utils.py:145"),
 "peft.method":T("lora",dds+":37 --use_peft_lora True -> utils.py:202-212 LoraConfig passed to DPOTrainer"),
 "task.mode":T("qlora","4-bit base + LoRA",any_of=["qlora","lora"]),
 "memory.gradient_checkpointing":T(True,dds+":34 --gradient_checkpointing True"),
 "optimizer.name":T("paged_adamw_32bit",dds+":26 --optim"),
 "model.attn_implementation":T("flash_attention_2",dds+":45 --use_flash_attn True -> utils.py:177"),
 "data.num_workers":T(0,"TrainingArguments dataloader_num_workers default 0"),
 "compile.enabled":T(False,"torch_compile not set"),
},held_out=True,note=H19+"; chat_assistant/dpo/run_dpo.sh (CUDA_VISIBLE_DEVICES=0 WANDB_PROJECT=rlhf python train.py with ~45 flags: HfArgumentParser over two dataclasses and TrainingArguments, a flag abbreviated by the script (--max_seq_len for max_seq_length), the model passed to TRL's DPOTrainer as a string with model_init_kwargs holding the BitsAndBytesConfig, PEFT LoRA on all linear layers; DPO on a chat model). Not labelled: LoRA rank (--lora_r 8, :38, applies only when the SFT checkpoint is not itself an adapter, utils.py:181-199, which is known only from the hub at run time)")
DAV=("DepthAnything/Depth-Anything-V2","a561b849ebae10a6f5ef49e26c83cbbcd36c71bf")
dat="train.py"
J("depth-anything-v2-metric-vitl-hypersim-8gpu",*DAV,["metric_depth","README.md"],"metric_depth",["dist_train.sh"],{
 "model.num_parameters":T(335300000,"dist_train.sh:8 encoder=vitl -> train.py:85,88 DepthAnythingV2(vitl, features 256) (README.md:41 Depth-Anything-V2-Large 335.3M)",rel_tol=0.1),
 "dist.world_size":T(8,"dist_train.sh:6,19 --nproc_per_node=$gpus with gpus=8"),
 "dist.nodes":T(1,"dist_train.sh:20 --nnodes 1"),
 "dist.sharding":T("ddp",dat+":95 DistributedDataParallel (SyncBatchNorm, :93)"),
 "batch.micro":T(4,"dist_train.sh:5 bs=4 -> --bs -> "+dat+":69 DataLoader batch_size per rank"),
 "batch.grad_accum":T(1,dat+":121-136 zero_grad/backward/step every batch"),
 "batch.global":T(32,"4 x 8 ranks"),
 "data.image_size":T(518,"dist_train.sh:10 img_size=518 -> "+dat+":61 crop size"),
 "precision.mode":T("fp32","no autocast or half in "+dat+" or depth_anything_v2/"),
 "optimizer.name":T("AdamW",dat+":100-102 torch AdamW (two groups, head lr x10)",any_of=["AdamW","adamw"]),
 "data.num_workers":T(4,dat+":69"),
 "data.pin_memory":T(True,dat+":69"),
 "memory.gradient_checkpointing":T(False,"torch.utils.checkpoint imported in depth_anything_v2/dinov2.py:17 but never called"),
 "compile.enabled":T(False,"no torch.compile"),
 "peft.method":T("none","full fine-tune from the relative-depth checkpoint (--pretrained-from, encoder weights only)"),
},held_out=True,note=H19+"; metric_depth/README.md:89-93 bash dist_train.sh (shell variables, python3 -m torch.distributed.launch, a --epoch flag that argparse completes to --epochs, a DINOv2 ViT-L encoder with a DPT head, SyncBatchNorm, DDP; metric depth estimation, vision)")
