"""The seventeenth held-out set of the jobs benchmark (run.py --set held-out-17): expert truth
written by hand, one J(...) per job."""
from .core import J, T

H17="seventeenth held-out set"
MMD=("jingyaogong/minimind","d65ef2c00ebc6082f9df11541e1b191655eddb00")
mmp="train_pretrain.py"
J("minimind-64m-pretrain-torchrun-2gpu",*MMD,["trainer","model","dataset","README.md","README_en.md","requirements.txt"],"trainer",
 ["--","torchrun","--nproc_per_node","2",mmp],{
 "model.num_parameters":T(64000000,"model/model_minimind.py:12-26 MiniMindConfig defaults (hidden 768, 8 layers, 8 heads / 4 kv heads, intermediate ceil(768*pi/64)*64=2432, vocab 6400, tied embeddings) -> ~63.9M; README_en.md:103 minimind-3 64M",rel_tol=0.1),
 "dist.world_size":T(2,"invocation torchrun --nproc_per_node 2 (README_en.md:352 torchrun --nproc_per_node N train_xxx.py, :679 'set >=2')"),
 "dist.nodes":T(1,"torchrun without --nnodes"),
 "dist.sharding":T("ddp",mmp+":154 DistributedDataParallel when torchrun set RANK (trainer_utils.py:44-51)"),
 "batch.micro":T(32,mmp+":88 --batch_size default 32 -> :161-162 SkipBatchSampler(batch_size)"),
 "batch.grad_accum":T(8,mmp+":93 --accumulation_steps default 8 -> train loop step % accumulation_steps"),
 "data.seq_len":T(340,mmp+":99 --max_seq_len default 340 -> PretrainDataset(max_length)"),
 "precision.mode":T("amp_bf16",mmp+":91 --dtype default bfloat16 -> :121-122 torch.cuda.amp.autocast(dtype=bfloat16); :137 GradScaler disabled (only for float16); fp32 weights"),
 "optimizer.name":T("AdamW",mmp+":138 optim.AdamW",any_of=["AdamW","adamw","adamw_torch"]),
 "data.num_workers":T(8,mmp+":92 --num_workers default 8 -> :162"),
 "data.pin_memory":T(True,mmp+":162 pin_memory=True"),
 "compile.enabled":T(False,mmp+":106 --use_compile default 0 -> :150"),
 "memory.gradient_checkpointing":T(False,"no checkpointing in model/model_minimind.py or the trainer"),
 "peft.method":T("none","full pretraining from scratch (:102 --from_weight none)"),
},held_out=True,note=H17+"; README_en.md:670,679 cd trainer && torchrun --nproc_per_node 1 train_pretrain.py with N=2 as the comment asks (argparse defaults only, a custom Qwen3-like model class built from a config class with keyword defaults, raw DDP loop with bf16 autocast and a GradScaler that is off for bf16)")
BNG=("karpathy/build-nanogpt","6104ab1b53920f6e2159749676073ff7d815c1fa")
bn="train_gpt2.py"
J("build-nanogpt-124m-torchrun-8gpu",*BNG,["."],".",["--","torchrun","--standalone","--nproc_per_node=8",bn],{
 "model.num_parameters":T(124500000,bn+":339 GPT(GPTConfig(vocab_size=50304)) with :72-77 defaults n_layer 12 n_head 12 n_embd 768 block 1024, :94 lm_head tied to wte -> ~124.5M",rel_tol=0.1),
 "dist.world_size":T(8,bn+":281 torchrun --standalone --nproc_per_node=8"),
 "dist.nodes":T(1,"--standalone"),
 "dist.sharding":T("ddp",bn+":345-346 DDP(model) when RANK is set"),
 "batch.micro":T(64,bn+":325 B = 64"),
 "data.seq_len":T(1024,bn+":326 T = 1024"),
 "batch.grad_accum":T(1,bn+":324,328 grad_accum_steps = 524288 // (64 * 1024 * 8) = 1"),
 "batch.global":T(512,"64 sequences x 1 step x 8 ranks (524288 tokens / 1024)"),
 "precision.mode":T("amp_bf16",bn+":492 torch.autocast(bfloat16) around the forward; fp32 weights, no scaler"),
 "optimizer.name":T("AdamW",bn+":201 torch.optim.AdamW(fused=use_fused)",any_of=["AdamW","adamw","adamw_torch","adamw_torch_fused"]),
 "compile.enabled":T(False,bn+":342 use_compile = False"),
 "memory.gradient_checkpointing":T(False,"no checkpointing"),
 "model.attn_implementation":T("sdpa",bn+":36 F.scaled_dot_product_attention(is_causal=True)",any_of=["sdpa","flash_attention_2"]),
 "peft.method":T("none","pretraining from scratch"),
},held_out=True,note=H17+"; "+bn+":281 torchrun --standalone --nproc_per_node=8 train_gpt2.py (a single module-level script, no argparse: hyperparameters are module constants, the accumulation is derived from a token budget divided by B*T*world size; a custom DataLoaderLite, no torch DataLoader)")
LIN=("facebookresearch/lingua","437d680e521873bb5971067148a69587790da853")
lcd="apps/main/configs/debug.yaml"
J("lingua-debug-fsdp2-torchrun-8gpu",*LIN,["apps","lingua","setup","README.md","requirements.txt"],".",
 ["--","torchrun","--nproc-per-node","8","-m","apps.main.train","config="+lcd],{
 "model.num_parameters":T(103300000,lcd+":23-25 dim 1024, 8 layers, 8 heads; lingua/transformer.py:442-445 FFN hidden 2816; :38 tokenizer bytes -> lingua/tokenizer.py:52 258 words; apps/main/transformer.py:69 untied output -> ~103M",rel_tol=0.1),
 "dist.world_size":T(8,"README.md:43 torchrun --nproc-per-node 8"),
 "dist.nodes":T(1,"torchrun without --nnodes"),
 "dist.sharding":T("fsdp_full",lcd+":15 fsdp_type full_shard -> apps/main/train.py:147-159 dp_replicate = 8 (dp_shard 1) -> lingua/distributed.py:434-463 fully_shard on every layer and the root over the 8-rank 1-D mesh (FSDP2: parameters sharded over all 8 ranks)"),
 "precision.mode":T("amp_bf16",lcd+":17 model_dtype bf16 -> lingua/distributed.py:436-439 MixedPrecisionPolicy(param_dtype=bf16, reduce_dtype=fp32): fp32 sharded parameters, bf16 compute"),
 "batch.micro":T(32,lcd+":31 data.batch_size 32 (per rank)"),
 "batch.grad_accum":T(1,"apps/main/train.py:84 grad_acc_steps default 1, not set in "+lcd),
 "batch.global":T(256,"32 x 1 x 8 ranks"),
 "data.seq_len":T(2048,lcd+":33 seq_len 2048"),
 "compile.enabled":T(True,lcd+":16 compile: true -> lingua/distributed.py:476-480 model.compile()"),
 "memory.gradient_checkpointing":T(False,lcd+":19 selective_activation_checkpointing false"),
 "optimizer.name":T("AdamW","lingua/optim.py:151-157 torch AdamW(fused=True)",any_of=["AdamW","adamw","adamw_torch_fused"]),
 "peft.method":T("none","pretraining from scratch"),
},held_out=True,note=H17+"; README.md:42-43 torchrun --nproc-per-node 8 -m apps.main.train config=apps/main/configs/debug.yaml (OmegaConf dataclass config from a YAML named as key=value on the command line, python -m module launch, FSDP2 fully_shard with a mixed-precision policy and model.compile())")
QVL=("2U1/Qwen2-VL-Finetune","6695161adfbd1da24a2a12fb172f005b59e723e3")
qsh="scripts/finetune_lora.sh"
qts="src/train/train_sft.py"
J("qwen25-vl-3b-lora-deepspeed-zero3-offload",*QVL,["scripts","src","README.md","requirements.txt","environment.yaml"],".",[qsh],{
 "model.ref":T("Qwen/Qwen2.5-VL-3B-Instruct",qsh+":6 MODEL_NAME -> :28 --model_id -> "+qts+":136-142 Qwen2_5_VLForConditionalGeneration.from_pretrained"),
 "dist.world_size":T(8,qsh+":13 NUM_DEVICES=8 (the deepspeed launcher at :18 without --num_gpus uses every GPU of the node; the script sizes the accumulation for 8)"),
 "dist.nodes":T(1,"deepspeed launcher without a hostfile"),
 "batch.micro":T(4,qsh+":12 BATCH_PER_DEVICE=4 -> :40"),
 "batch.grad_accum":T(4,qsh+":11-14 GRAD_ACCUM_STEPS=$((128 / (4 * 8))) = 4 -> :41"),
 "batch.global":T(128,qsh+":11 GLOBAL_BATCH_SIZE=128"),
 "dist.sharding":T("zero3",qsh+":27 --deepspeed scripts/zero3_offload.json -> zero3_offload.json:23 stage 3"),
 "dist.offload_optimizer":T("cpu","scripts/zero3_offload.json:24-27"),
 "dist.offload_params":T("cpu","scripts/zero3_offload.json:28-31"),
 "dist.stage3_max_live_parameters":T(1000000000,"scripts/zero3_offload.json:38 1e9"),
 "dist.overlap_comm":T(True,"scripts/zero3_offload.json:32"),
 "dist.contiguous_gradients":T(True,"scripts/zero3_offload.json:33"),
 "dist.save_16bit_weights":T(True,"scripts/zero3_offload.json:40 gather_16bit_weights_on_model_save"),
 "precision.mode":T("bf16",qsh+":35 --bf16 True -> zero3_offload.json:10-12 bf16 auto (DeepSpeed bf16: 16-bit weights, fp32 master); "+qts+":118,139,184-186 model loaded and cast to bf16"),
 "optimizer.name":T("AdamW","scripts/zero3_offload.json:13-21 DeepSpeed optimizer AdamW (replaces TrainingArguments optim; with CPU offload DeepSpeed runs it as DeepSpeedCPUAdam)",any_of=["AdamW","adamw","cpu_adam","DeepSpeedCPUAdam"]),
 "memory.gradient_checkpointing":T(True,qsh+":52 --gradient_checkpointing True -> "+qts+":162-167"),
 "model.attn_implementation":T("flash_attention_2",qsh+":37 --disable_flash_attn2 False -> "+qts+":140"),
 "peft.method":T("lora",qsh+":20 --lora_enable True -> "+qts+":175-190 LoraConfig + get_peft_model"),
 "peft.rank":T(64,qsh+":23 --lora_rank 64"),
 "precision.weights_bits":T(16,"src/params.py:136-138 bits default 16 (no 4/8-bit): "+qts+":121 skips BitsAndBytesConfig"),
 "loss.implementation":T("fused",qsh+":19 --use_liger True -> "+qts+":86-87 apply_liger_kernel_to_qwen2_5_vl (fused linear cross-entropy by default)",any_of=["fused","chunked"]),
 "data.num_workers":T(4,qsh+":58 --dataloader_num_workers 4"),
},held_out=True,note=H17+"; README.md:296 bash scripts/finetune_lora.sh (shell variables with $(( )) arithmetic, a deepspeed launcher line, HfArgumentParser dataclasses subclassing TrainingArguments, a ZeRO-3 config with CPU offload and 'auto' values, Liger kernels, PEFT LoRA on the LLM while the vision tower is trained in full (:32 --freeze_vision_tower False), vision-language model). Not labelled: sequence length (src/params.py:120 max_seq_length 32768 but the truncation is commented out, src/dataset/sft_dataset.py:182), task.mode (LoRA LLM plus fully trained vision tower and merger)")
AIT=("ostris/ai-toolkit","27a03a91f23eb1b757d5ec2e80ee3e129cfcc350")
aiy="config/examples/train_lora_flux_24gb.yaml"
J("ai-toolkit-flux-dev-lora-24gb",*AIT,["run.py","config","jobs","toolkit","extensions_built_in","requirements.txt","README.md"],".",["run.py","--",aiy],{
 "model.ref":T("black-forest-labs/FLUX.1-dev",aiy+":66 model.name_or_path"),
 "dist.world_size":T(1,"python run.py: one process; "+aiy+":12 device cuda:0"),
 "batch.micro":T(1,aiy+":41 train.batch_size 1"),
 "batch.grad_accum":T(1,aiy+":43"),
 "memory.gradient_checkpointing":T(True,aiy+":46"),
 "optimizer.name":T("adamw8bit",aiy+":48 -> toolkit/optimizer.py:70-71 bitsandbytes AdamW8bit",any_of=["adamw8bit","AdamW8bit","adamw_bnb_8bit","paged_adamw_8bit"]),
 "peft.method":T("lora",aiy+":16-18 network type lora"),
 "peft.rank":T(16,aiy+":18 linear 16"),
 "task.mode":T("qlora",aiy+":68 quantize: true: LoRA over an 8-bit (qfloat8) quantized FLUX transformer",any_of=["qlora","lora"]),
 "precision.weights_bits":T(8,aiy+":68 quantize true -> toolkit/config_modules.py:687 qtype default qfloat8 -> toolkit/stable_diffusion_model.py:799 optimum.quanto quantize"),
 "precision.mode":T("bf16",aiy+":63 train dtype bf16: frozen base in bf16 (quantized), jobs/process/BaseSDTrainProcess.py:1983 LoRA network kept in fp32, no autocast for FLUX (toolkit/accelerator.py:10 Accelerator() without mixed precision)",any_of=["bf16","amp_bf16"]),
},held_out=True,note=H17+"; README.md:196-198 python run.py config/whatever_you_want.yml with the example config/examples/train_lora_flux_24gb.yaml (a YAML job file read by a job runner, config -> process list -> train/model/network sections; diffusion LoRA on FLUX.1-dev with an 8-bit quanto base). Not labelled: image size (buckets 512/768/1024, :39), model size (hub model)")
FAT=("Dao-AILab/flash-attention","0251105a2fb19d2957484b7f023cd8c115286ced")
fab="configs/experiment/owt/base.yaml"
fas="configs/experiment/owt/gpt2s-flash.yaml"
J("flash-attn-training-gpt2s-hydra-lightning-8gpu",*FAT,["training"],"training",["run.py","--","experiment=owt/gpt2s-flash","trainer.devices=8"],{
 "model.num_parameters":T(124400000,"configs/model/gpt2model/gpt2-small.yaml n_layer 12 n_embd 768 + "+fas+":15 vocab padded to 50264, tied embeddings (flash_attn GPTLMHeadModel) -> ~124M (README.md:139 '# 125M')",rel_tol=0.1),
 "dist.world_size":T(8,"README.md:139 trainer.devices=8, "+fab+":26 num_nodes 1"),
 "dist.nodes":T(1,fab+":26 num_nodes 1"),
 "dist.devices_per_node":T(8,"trainer.devices=8"),
 "dist.sharding":T("ddp",fab+":33 strategy null -> src/train.py:97-101 DDPStrategy for more than one device"),
 "batch.micro":T(64,fas+":19 batch_size = 64 when train.gpu_mem >= 40 (GB of GPU 0 read with nvidia-smi, "+fab+":43); the benchmark's a100-80gb gives 64 (README.md:144 defaults set for 8 x A100 80GB)"),
 "batch.grad_accum":T(1,fab+":27 accumulate_grad_batches = div_up(512, 8 * 64 * 1) = 1"),
 "batch.global":T(512,fab+":44 global_batch_size 512"),
 "data.seq_len":T(1024,fab+":38 datamodule.max_length 1024"),
 "precision.mode":T("amp_fp16",fab+":31 trainer.precision 16 (Lightning native AMP fp16)"),
 "optimizer.name":T("FusedAdam",fab+":9 optimizer adamw-apex -> configs/optimizer/adamw-apex.yaml apex.optimizers.FusedAdam(adam_w_mode=True)",any_of=["FusedAdam","apex_fused_adam","adamw_apex_fused","AdamW","adamw"]),
 "data.num_workers":T(1,"src/datamodules/language_modeling_hf.py:285 num_workers=1 in the DataLoader (the config's num_workers 32 is for preprocessing)"),
 "data.pin_memory":T(True,"configs/datamodule/openwebtext.yaml pin_memory True -> language_modeling_hf.py:289"),
 "memory.gradient_checkpointing":T(False,"configs/experiment/owt/gpt2m-flash.yaml:6-9 mlp_checkpoint_lvl only in a comment; none set for gpt2s"),
 "peft.method":T("none","pretraining from scratch"),
},held_out=True,note=H17+"; training/README.md:139 python run.py experiment=owt/gpt2s-flash trainer.devices=8 (Hydra with experiment configs that override defaults lists, OmegaConf ${eval:} resolvers (batch size chosen from the GPU memory read at run time), instantiated PyTorch Lightning Trainer and LightningModule, apex FusedAdam, flash-attn's own GPT model)")
FEM=("FlagOpen/FlagEmbedding","7ed43d67ec03fbe5c31c0992dbfa941fb1860549")
fer="examples/finetune/embedder/README.md"
J("flagembedding-bge-large-embedder-torchrun-ds0",*FEM,["examples/finetune","FlagEmbedding","setup.py","README.md"],"examples/finetune/embedder",
 ["--","torchrun","--nproc_per_node","2","-m","FlagEmbedding.finetune.embedder.encoder_only.base","--model_name_or_path","BAAI/bge-large-en-v1.5",
  "--cache_dir","./cache/model","--train_data","./example_data/retrieval","./example_data/sts/sts.jsonl","./example_data/classification-no_in_batch_neg",
  "./example_data/clustering-no_in_batch_neg","--cache_path","./cache/data","--train_group_size","8","--query_max_len","512","--passage_max_len","512",
  "--pad_to_multiple_of","8","--query_instruction_for_retrieval","Represent this sentence for searching relevant passages: ","--query_instruction_format","{}{}",
  "--knowledge_distillation","False","--output_dir","./test_encoder_only_base_bge-large-en-v1.5","--overwrite_output_dir","--learning_rate","1e-5","--fp16",
  "--num_train_epochs","2","--per_device_train_batch_size","2","--dataloader_drop_last","True","--warmup_ratio","0.1","--gradient_checkpointing",
  "--deepspeed","../ds_stage0.json","--logging_steps","1","--save_steps","1000","--negatives_cross_device","--temperature","0.02",
  "--sentence_pooling_method","cls","--normalize_embeddings","True","--kd_loss_type","kl_div"],{
 "model.ref":T("BAAI/bge-large-en-v1.5",fer+":172 --model_name_or_path -> FlagEmbedding/finetune/embedder/encoder_only/base/runner.py:32 AutoModel.from_pretrained"),
 "dist.world_size":T(2,fer+":170 torchrun --nproc_per_node 2"),
 "dist.nodes":T(1,"torchrun without --nnodes"),
 "dist.sharding":T("ddp",fer+":195 --deepspeed ../ds_stage0.json -> examples/finetune/ds_stage0.json:2-4 stage 0 (data parallel)"),
 "batch.micro":T(2,fer+":191 --per_device_train_batch_size 2 (queries; each with 8 passages, :179)"),
 "batch.grad_accum":T(1,"TrainingArguments default 1, not given (ds_stage0.json gradient_accumulation_steps auto)"),
 "data.seq_len":T(512,fer+":180-181 --query_max_len 512 --passage_max_len 512"),
 "precision.mode":T("fp16",fer+":189 --fp16 -> ds_stage0.json:6-13 fp16 enabled auto: DeepSpeed fp16 (16-bit weights, fp32 master, dynamic loss scale)"),
 "optimizer.name":T("AdamW","examples/finetune/ds_stage0.json:19-27 DeepSpeed optimizer AdamW (replaces TrainingArguments optim)",any_of=["AdamW","adamw","FusedAdam"]),
 "memory.gradient_checkpointing":T(True,fer+":194 --gradient_checkpointing -> encoder_only/base/modeling.py:183 gradient_checkpointing_enable"),
 "peft.method":T("none","encoder_only.base trains the full model (no LoRA arguments)"),
 "data.num_workers":T(0,"TrainingArguments dataloader_num_workers default 0, not given"),
},held_out=True,note=H17+"; examples/finetune/embedder/README.md:170-202 torchrun --nproc_per_node 2 -m FlagEmbedding.finetune.embedder.encoder_only.base ... run from examples/finetune/embedder (python -m launch of a package module at the repository root, HfArgumentParser dataclasses subclassing TrainingArguments, DeepSpeed stage-0 config with 'auto' values; contrastive embedding fine-tune with train_group_size passages per query)")
PXS=("PixArt-alpha/PixArt-sigma","1ce521afddcc2fab329b35b7374aa86d654e12f7")
pxc="configs/pixart_sigma_config/PixArt_sigma_xl2_img512_internalms.py"
pxt="train_scripts/train.py"
J("pixart-sigma-512-ms-distlaunch",*PXS,["train_scripts","configs","diffusion","tools","README.md","requirements.txt"],".",
 ["--","python","-m","torch.distributed.launch","--nproc_per_node=1","--master_port=12345",pxt,pxc,
  "--load-from","output/pretrained_models/PixArt-Sigma-XL-2-512-MS.pth","--work-dir","output/your_first_pixart-exp","--debug"],{
 "model.num_parameters":T(611000000,pxc+":12 PixArtMS_XL_2 -> diffusion/model/nets/PixArtMS.py:292-293 depth 28 hidden 1152 (README.md:260 PixArt-Σ-512 0.6B)",rel_tol=0.1),
 "dist.world_size":T(1,"README.md:163 --nproc_per_node=1"),
 "dist.nodes":T(1,"torch.distributed.launch without --nnodes"),
 "dist.sharding":T("ddp",pxt+":304-311 use_fsdp False (configs/PixArt_xl2_internal.py:6) -> Accelerator DDP (one process)",any_of=["ddp","none"]),
 "batch.micro":T(2,pxc+":24 train_batch_size 2 (and --debug sets 2, "+pxt+":294-296) -> :440-441 AspectRatioBatchSampler(batch_size)"),
 "batch.grad_accum":T(1,pxc+":26 -> "+pxt+":318-320 Accelerator(gradient_accumulation_steps)"),
 "precision.mode":T("amp_fp16",pxc+":13 mixed_precision fp16 -> "+pxt+":318-319 Accelerator(mixed_precision='fp16')"),
 "memory.gradient_checkpointing":T(True,pxc+":27 grad_checkpointing True -> "+pxt+":410-412 build_model"),
 "optimizer.name":T("CAMEWrapper",pxc+":29 optimizer type CAMEWrapper (CAME)",any_of=["CAMEWrapper","CAME","came"]),
 "data.num_workers":T(10,pxc+":23 num_workers 10 -> "+pxt+":443"),
 "data.pin_memory":T(True,"diffusion/data/builder.py:49 pin_memory=True"),
 "data.image_size":T(512,pxc+":9 image_size 512"),
 "peft.method":T("none","full fine-tune of the DiT from the pretrained checkpoint (--load-from)"),
},held_out=True,note=H17+"; README.md:163-168 python -m torch.distributed.launch --nproc_per_node=1 --master_port=12345 train_scripts/train.py configs/pixart_sigma_config/PixArt_sigma_xl2_img512_internalms.py --load-from ... --work-dir ... --debug (an mmcv-style Python config file with _base_ inheritance, Accelerate mixed precision, CAME optimizer; T5-XXL text encoder and SDXL VAE loaded frozen for on-the-fly features; diffusion transformer fine-tune)")
VRF=("willccbb/verifiers","39f0675a858fb803f4d910466580cb87f60892fb")
vtw="examples/grpo/train_wordle.py"
J("verifiers-grpo-wordle-qwen3-1.7b-zero3",*VRF,["examples","configs","verifiers","README.md","pyproject.toml"],".",
 ["--","accelerate","launch","--num-processes","2","--config-file","configs/zero3.yaml",vtw,"--size","1.7B"],{
 "model.ref":T("willcb/Qwen3-1.7B-Wordle","README.md:266 --size 1.7B -> "+vtw+":31-33 f'willcb/Qwen3-{size}-Wordle' -> verifiers/utils/model_utils.py:75-94 from_pretrained"),
 "dist.world_size":T(2,"README.md:265 --num-processes 2 (overrides configs/zero3.yaml:16 num_processes 8)"),
 "dist.nodes":T(1,"configs/zero3.yaml:15 num_machines 1"),
 "dist.sharding":T("zero3","configs/zero3.yaml:9-10 zero_stage 3, DEEPSPEED"),
 "dist.offload_optimizer":T("none","configs/zero3.yaml:5"),
 "dist.offload_params":T("none","configs/zero3.yaml:6"),
 "dist.save_16bit_weights":T(True,"configs/zero3.yaml:8 zero3_save_16bit_model"),
 "precision.mode":T("bf16","configs/zero3.yaml:14 mixed_precision bf16 under DeepSpeed (bf16 weights, fp32 master); verifiers/utils/model_utils.py:82 torch_dtype bfloat16; verifiers/trainers/__init__.py:22 bf16=True"),
 "batch.micro":T(8,vtw+":37 per_device_train_batch_size 8"),
 "batch.grad_accum":T(8,vtw+":39 gradient_accumulation_steps 8"),
 "data.seq_len":T(4096,vtw+":41 max_seq_len 4096 (verifiers/trainers/__init__.py:25 the same)"),
 "memory.gradient_checkpointing":T(True,"verifiers/trainers/__init__.py:29 grpo_defaults gradient_checkpointing=True"),
 "model.attn_implementation":T("flash_attention_2","verifiers/utils/model_utils.py:83"),
 "optimizer.name":T("adamw_torch","TrainingArguments optim default (GRPOConfig subclasses TrainingArguments, verifiers/trainers/grpo_config.py:12; no optimizer in the DeepSpeed config)",any_of=["adamw_torch","adamw_torch_fused","AdamW","adamw"]),
 "peft.method":T("none",vtw+":54 lora_config commented out"),
},held_out=True,note=H17+"; README.md:265-266 CUDA_VISIBLE_DEVICES=6,7 accelerate launch --num-processes 2 --config-file configs/zero3.yaml examples/grpo/train_wordle.py --size 1.7B (an env-var prefix, an accelerate DeepSpeed ZeRO-3 YAML, the model id built with an f-string from argparse, a config object from a defaults function then attribute assignments; GRPO with a separate vLLM server). Not labelled: the generation length per turn (max_tokens 1024) and num_generations 16 (GRPO group size)")
XTU=("InternLM/xtuner","b934f462095c1e750229de35367c50ae36caa786")
xhr="examples/huggingface_trainer/README.md"
xqm="xtuner/apis/model.py"
J("xtuner-hf-trainer-qlora-internlm-7b",*XTU,["examples/huggingface_trainer","xtuner/apis","xtuner/model","xtuner/dataset","xtuner/utils","xtuner/__init__.py","xtuner/registry.py","pyproject.toml","requirements"],
 "examples/huggingface_trainer",["train_qlora_hf.py","--","--model_name_or_path","internlm/internlm-7b","--dataset_name_or_path","tatsu-lab/alpaca"],{
 "model.ref":T("internlm/internlm-7b",xhr+":15 --model_name_or_path -> train_qlora_hf.py:15-17 build_qlora_model -> "+xqm+":32-37 AutoModelForCausalLM.from_pretrained"),
 "dist.world_size":T(1,"python launch: one process"),
 "batch.micro":T(1,"xtuner/apis/training_args.py:26,44-47 per_device_train_batch_size default 1 (HfArgumentParser DefaultTrainingArguments, train_qlora_hf.py:11-12)"),
 "batch.grad_accum":T(1,"TrainingArguments default 1, not given"),
 "data.seq_len":T(2048,"train_qlora_hf.py:18-20 alpaca_dataset -> xtuner/apis/datasets/alpaca.py:83,86 max_length 2048, pack_to_max_length True"),
 "peft.method":T("lora",xqm+":27-30 LoraConfig -> xtuner/model/sft.py:128-130,161-169 get_peft_model"),
 "peft.rank":T(64,xqm+":29 r=64"),
 "task.mode":T("qlora",xqm+":18-26 4-bit base + LoRA"),
 "precision.weights_bits":T(4,xqm+":19 load_in_4bit=True"),
 "precision.quant_type":T("nf4",xqm+":25 bnb_4bit_quant_type nf4"),
 "precision.double_quant":T(True,xqm+":24 bnb_4bit_use_double_quant=True"),
 "memory.gradient_checkpointing":T(True,"xtuner/model/sft.py:90,107-117 use_activation_checkpointing default True -> gradient_checkpointing_enable(); :162-163 prepare_model_for_kbit_training(use_gradient_checkpointing)"),
 "optimizer.name":T("adamw_torch","TrainingArguments optim default, not given",any_of=["adamw_torch","adamw_torch_fused","AdamW","adamw"]),
 "data.num_workers":T(0,"TrainingArguments dataloader_num_workers default 0"),
 "dist.sharding":T("none","one process, no DeepSpeed/FSDP",any_of=["none","ddp"]),
},held_out=True,note=H17+"; examples/huggingface_trainer/README.md:8-15 cd ./examples (the huggingface_trainer folder) && python train_qlora_hf.py --model_name_or_path internlm/internlm-7b --dataset_name_or_path tatsu-lab/alpaca (a TrainingArguments subclass whose defaults are class attributes, a library helper build_qlora_model that holds the BitsAndBytesConfig and LoraConfig, gradient checkpointing switched on inside the library's model wrapper). Not labelled: precision mode (fp16 4-bit compute dtype and fp16 torch_dtype, no --fp16/--bf16 given so the Trainer runs no autocast; LoRA weights fp32 after prepare_model_for_kbit_training)")
VMA=("MCG-NJU/VideoMAE","14ef8d856287c94ef1f985fe30f958eb4ec2c55d")
vsh="scripts/kinetics/videomae_vit_base_patch16_224_tubemasking_ratio_0.9_epoch_800/finetune.sh"
vrf="run_class_finetuning.py"
J("videomae-vitb-k400-finetune-8x8-deepspeed",*VMA,["."],".",[vsh,"--","0","10.0.0.1"],{
 "model.num_parameters":T(87000000,vsh+":13 --model vit_base_patch16_224 -> modeling_finetune.py:298-301 ViT-B/16 (depth 12, dim 768) with a 2x16x16 tubelet Conv3d patch embedding and a 400-class head (:15) -> ~87M",rel_tol=0.1),
 "dist.world_size":T(64,vsh+":9-11 --nproc_per_node=8 --nnodes=8 (8 nodes x 8 GPUs)"),
 "dist.nodes":T(8,vsh+":11 --nnodes=8"),
 "dist.devices_per_node":T(8,vsh+":10 --nproc_per_node=8"),
 "dist.sharding":T("ddp",vsh+":35 --enable_deepspeed -> utils.py:482-509 generated DeepSpeed config without zero_optimization (stage 0: data parallel)"),
 "batch.micro":T(8,vsh+":20 --batch_size 8 -> utils.py:487 train_micro_batch_size_per_gpu"),
 "batch.grad_accum":T(1,vrf+":31 --update_freq default 1"),
 "batch.global":T(512,"utils.py:486 train_batch_size = 8 x 1 x 64"),
 "precision.mode":T("fp16","utils.py:503-508 DeepSpeed fp16 enabled (16-bit weights, fp32 master, dynamic loss scale)"),
 "optimizer.name":T("AdamW","utils.py:489-491 DeepSpeed optimizer Adam with adam_w_mode True (FusedAdam in AdamW mode)",any_of=["AdamW","adamw","Adam","FusedAdam"]),
 "data.num_workers":T(10,vrf+":175 --num_workers default 10"),
 "data.pin_memory":T(True,vrf+":176-179 pin_mem default True -> :267"),
 "data.image_size":T(224,vsh+":22 --input_size 224"),
 "memory.gradient_checkpointing":T(False,vrf+":133-134 --use_checkpoint not given"),
 "peft.method":T("none","full fine-tune from the pretrained checkpoint (--finetune)"),
},held_out=True,note=H17+"; FINETUNE.md:44-80 / "+vsh+" run on node 0 of 8 with $1=0 (node rank) and $2 the master address (OMP_NUM_THREADS=1 python -m torch.distributed.launch --nproc_per_node=8 --nnodes=8 --node_rank=$1 --master_addr=$2 run_class_finetuning.py ... --enable_deepspeed; the DeepSpeed config is a dict written to a JSON file in code from argparse values; timm-registered video ViT; video classification). Not labelled: frames per clip 16 (video input, not a plan field)")
