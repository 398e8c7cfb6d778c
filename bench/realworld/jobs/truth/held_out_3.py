"""The third held-out set of the jobs benchmark (run.py --set held-out-3): expert truth
written by hand, one J(...) per job."""
from .core import J, T

# --- held out, third set (issue 15, jobs3): ten jobs from nine repositories none of whose jobs
# were in the benchmark before (PEFT, SimPO, OpenRLHF, open-instruct, LLaMA-Factory, torchtune,
# Liger-Kernel, nanotron, Lightning Fabric). Truth written from the code and committed before
# preflight was first run on them; their first scoring is kept verbatim (first_scoring_held_out_3.json).
H3="third held-out set"
PEFT=("huggingface/peft","5d602fdbff04c33c1c4de55cda9d4ae1d7cb7e40")
peft_t="examples/sft/train.py"
J("peft-sft-lora-zero3",*PEFT,["examples/sft"],"examples/sft",["run_peft_deepspeed.sh"],{
 "model.ref":T("meta-llama/Llama-2-70b-hf","run_peft_deepspeed.sh:3 --model_name_or_path"),
 "dist.world_size":T(8,"configs/deepspeed_config.yaml:17 num_processes 8 (num_machines 1)"),
 "dist.sharding":T("zero3","configs/deepspeed_config.yaml:10 zero_stage 3"),
 "dist.offload_optimizer":T("none","configs/deepspeed_config.yaml:6 offload_optimizer_device none"),
 "dist.offload_params":T("none","configs/deepspeed_config.yaml:7 offload_param_device none"),
 "precision.mode":T("bf16","configs/deepspeed_config.yaml:15 mixed_precision bf16 under DeepSpeed (+ --bf16 True :19): bf16 weights, fp32 master"),
 "batch.micro":T(8,"run_peft_deepspeed.sh:27"),
 "batch.grad_accum":T(4,"run_peft_deepspeed.sh:29 (= deepspeed_config.yaml:5)"),
 "data.seq_len":T(2048,"run_peft_deepspeed.sh:9 --max_length (SFTConfig)"),
 "memory.gradient_checkpointing":T(True,"run_peft_deepspeed.sh:30"),
 "model.attn_implementation":T("flash_attention_2","run_peft_deepspeed.sh:33 --use_flash_attn True -> utils.py:141-146"),
 "peft.method":T("lora","run_peft_deepspeed.sh:34 --use_peft_lora True -> utils.py:156-157 LoraConfig"),
 "peft.rank":T(8,"run_peft_deepspeed.sh:35 --lora_r 8"),
 "task.mode":T("lora","run_peft_deepspeed.sh:39 --use_4bit_quantization False; use_8bit default False ("+peft_t+":58-61)"),
 "dist.save_16bit_weights":T(True,"configs/deepspeed_config.yaml:9 zero3_save_16bit_model true"),
},held_out=True,note=H3)
J("peft-sft-qlora-fsdp",*PEFT,["examples/sft"],"examples/sft",["run_peft_qlora_fsdp.sh"],{
 "model.ref":T("meta-llama/Llama-2-70b-hf","run_peft_qlora_fsdp.sh:3"),
 "dist.world_size":T(2,"configs/fsdp_config_qlora.yaml:19 num_processes 2"),
 "dist.sharding":T("fsdp_full","configs/fsdp_config_qlora.yaml:11 FULL_SHARD"),
 "dist.offload_params":T("cpu","configs/fsdp_config_qlora.yaml:10 fsdp_offload_params true"),
 "precision.mode":T("amp_bf16","run_peft_qlora_fsdp.sh:19 --bf16 True (Trainer autocast; accelerate mixed_precision 'no' is overridden by TrainingArguments); trainable LoRA weights fp32"),
 "batch.micro":T(2,"run_peft_qlora_fsdp.sh:27"),
 "batch.grad_accum":T(2,"run_peft_qlora_fsdp.sh:29"),
 "data.seq_len":T(2048,"run_peft_qlora_fsdp.sh:9"),
 "memory.gradient_checkpointing":T(True,"run_peft_qlora_fsdp.sh:30"),
 "model.attn_implementation":T("flash_attention_2","run_peft_qlora_fsdp.sh:33 -> utils.py:146"),
 "peft.method":T("lora","run_peft_qlora_fsdp.sh:34 -> utils.py:156"),
 "peft.rank":T(8,"run_peft_qlora_fsdp.sh:35"),
 "precision.weights_bits":T(4,"run_peft_qlora_fsdp.sh:39 --use_4bit_quantization True -> utils.py:102-107 BitsAndBytesConfig(load_in_4bit)"),
 "task.mode":T("qlora","4-bit base + LoRA"),
 "precision.quant_type":T("nf4",peft_t+":46-47 bnb_4bit_quant_type default nf4 -> utils.py:108"),
 "precision.double_quant":T(True,"run_peft_qlora_fsdp.sh:40 --use_nested_quant True -> utils.py:110"),
},held_out=True,note=H3)
SIMPO=("princeton-nlp/SimPO","1b3e8f3528a23bce3da514a2dce8ea7490d4bc75")
sy="training_configs/llama-3-8b-instruct-simpo-v2.yaml"
J("simpo-llama3-8b-instruct-v2",*SIMPO,["."],".",["--","accelerate","launch","--config_file","accelerate_configs/deepspeed_zero3.yaml",
 "scripts/run_simpo.py",sy],{
 "model.ref":T("meta-llama/Meta-Llama-3-8B-Instruct",sy+":2"),
 "dist.world_size":T(4,"accelerate_configs/deepspeed_zero3.yaml:16 num_processes 4"),
 "dist.sharding":T("zero3","accelerate_configs/deepspeed_zero3.yaml:9"),
 "dist.offload_optimizer":T("none","accelerate_configs/deepspeed_zero3.yaml:5"),
 "precision.mode":T("bf16","deepspeed_zero3.yaml:14 mixed_precision bf16 under DeepSpeed + "+sy+":15 bf16 true"),
 "batch.micro":T(2,sy+":36"),
 "batch.grad_accum":T(16,sy+":21"),
 "data.seq_len":T(2048,sy+":30 max_length (SimPOConfig)"),
 "memory.gradient_checkpointing":T(True,sy+":22"),
 "model.attn_implementation":T("flash_attention_2",sy+":4"),
 "optimizer.name":T("adamw_torch",sy+":33 optim"),
 "peft.method":T("none","alignment/configs.py:158-159 use_peft default False, not set"),
 "dist.save_16bit_weights":T(True,"accelerate_configs/deepspeed_zero3.yaml:8 zero3_save_16bit_model"),
},held_out=True,note=H3+"; README.md:204")
ORL=("OpenRLHF/OpenRLHF","3c3be6234e0cb353e76bb8019947db9dfe99fca7")
ocli="openrlhf/cli/train_sft.py"
J("openrlhf-sft-llama3-8b",*ORL,["examples/scripts","openrlhf"],".",["examples/scripts/train_sft.sh"],{
 "model.ref":T("meta-llama/Meta-Llama-3-8B","examples/scripts/train_sft.sh:12 --model.model_name_or_path (heredoc, deepspeed --module :30)"),
 "batch.micro":T(2,"train_sft.sh:10 --train.micro_batch_size"),
 "batch.global":T(256,"train_sft.sh:9 --train.batch_size (global)"),
 "data.seq_len":T(2048,"train_sft.sh:5 --data.max_len"),
 "dist.sharding":T("zero2","train_sft.sh:17 --ds.zero_stage 2 -> deepspeed_utils.py:23"),
 "precision.mode":T("bf16","train_sft.sh:19 --ds.param_dtype bf16 -> openrlhf/utils/deepspeed/deepspeed_utils.py:49-50 DeepSpeed bf16"),
 "dist.offload_optimizer":T("none",ocli+":187 --ds.adam_offload absent -> deepspeed_utils.py:26"),
 "memory.gradient_checkpointing":T(True,"train_sft.sh:24 -> "+ocli+":41-42"),
 "model.attn_implementation":T("flash_attention_2","train_sft.sh:20"),
 "peft.method":T("none",ocli+":258 --ds.lora.rank default 0 -> openrlhf/models/actor.py:177"),
},held_out=True,note=H3+"; world size is every GPU of the node (deepspeed without --num_gpus): not knowable")
OI=("allenai/open-instruct","e6c3044aa6201c8bfa4573c1b03142af599e730d")
oi="open_instruct/finetune.py"
J("open-instruct-sft-qwen3-0.6b",*OI,["scripts/train/dgx-spark","open_instruct"],".",["scripts/train/dgx-spark/sft_no_robots.sh"],{
 "model.ref":T("Qwen/Qwen3-0.6B","scripts/train/dgx-spark/sft_no_robots.sh:21"),
 "dist.world_size":T(1,"sft_no_robots.sh:18 --num_processes 1"),
 "batch.micro":T(32,"sft_no_robots.sh:24"),
 "batch.grad_accum":T(4,"sft_no_robots.sh:25"),
 "data.seq_len":T(1024,"sft_no_robots.sh:23 --max_seq_length"),
 "memory.gradient_checkpointing":T(True,"sft_no_robots.sh:37 -> "+oi+":636-637"),
 "precision.mode":T("bf16",oi+":589-596 from_pretrained(dtype=torch.bfloat16) and torch AdamW on those weights (:680), no DeepSpeed: pure bf16 weights (--mixed_precision bf16 :17 only adds autocast)"),
 "peft.method":T("none",oi+":204-205 use_lora default False, not given"),
 "optimizer.name":T("AdamW",oi+":680 torch.optim.AdamW(fused=True)",any_of=["AdamW","adamw_torch","adamw_torch_fused","torch.optim.AdamW"]),
},held_out=True,note=H3+"; the script cds to the repo root (:10) and runs python -m accelerate.commands.launch")
LF=("hiyouga/LLaMA-Factory","ff6d4d12eeb035d6ce06805a5733dd7b29f2ac30")
lfy="examples/train_qlora/qwen3_lora_sft_otfq.yaml"
lfm="src/llamafactory/hparams/model_args.py"
J("llamafactory-qlora-qwen3-4b",*LF,["examples/train_qlora","src/llamafactory/hparams"],".",["--","llamafactory-cli","train",lfy],{
 "model.ref":T("Qwen/Qwen3-4B-Instruct-2507",lfy+":2"),
 "peft.method":T("lora",lfy+":10 finetuning_type lora"),
 "peft.rank":T(8,lfy+":11"),
 "precision.weights_bits":T(4,lfy+":3-4 quantization_bit 4, bnb"),
 "task.mode":T("qlora","4-bit base + LoRA"),
 "precision.quant_type":T("nf4",lfm+":287-288 quantization_type default nf4"),
 "precision.double_quant":T(True,lfm+":291-292 double_quantization default True"),
 "data.seq_len":T(2048,lfy+":17 cutoff_len"),
 "batch.micro":T(1,lfy+":32"),
 "batch.grad_accum":T(8,lfy+":33"),
 "data.num_workers":T(4,lfy+":20 dataloader_num_workers"),
 "memory.gradient_checkpointing":T(True,lfm+":145-146 disable_gradient_checkpointing default False -> model_utils/checkpointing.py:184"),
 "precision.mode":T("amp_bf16",lfy+":38 bf16 true (Trainer autocast); trainable params upcast to fp32 (model/adapter.py:348-349)"),
},held_out=True,note=H3+"; examples/README.md:114; world size = visible GPUs: not knowable")
TT=("pytorch/torchtune","bd2a0fc7c31430972728494fa01aaeeb0ebf1ba1")
tty="recipes/configs/llama3_2/1B_lora_single_device.yaml"
J("torchtune-lora-llama3.2-1b",*TT,["recipes"],".",["--","tune","run","lora_finetune_single_device","--config","llama3_2/1B_lora_single_device"],{
 "model.num_parameters":T(1236000000,tty+":22 lora_llama3_2_1b (Llama-3.2-1B: 16 layers x 2048, tied 128256 vocab = 1.24B)",rel_tol=0.1),
 "peft.method":T("lora",tty+":22 lora_llama3_2_1b"),
 "peft.rank":T(64,tty+":25"),
 "task.mode":T("lora","bf16 base + LoRA"),
 "batch.micro":T(4,tty+":53"),
 "batch.grad_accum":T(8,tty+":71"),
 "precision.mode":T("bf16",tty+":85 dtype bf16 (recipes/lora_finetune_single_device.py:140,410 model built in bf16)"),
 "memory.gradient_checkpointing":T(False,tty+":88 enable_activation_checkpointing False"),
 "compile.enabled":T(False,tty+":73"),
 "optimizer.name":T("AdamW",tty+":57 torch.optim.AdamW",any_of=["AdamW","torch.optim.AdamW","adamw"]),
 "dist.world_size":T(1,"single-device recipe"),
 "loss.implementation":T("chunked",tty+":66 LinearCrossEntropyLoss (torchtune/modules/loss/cross_entropy_loss.py:19-22: logits in 8 chunks)",any_of=["chunked","fused"]),
},held_out=True,note=H3+"; "+tty+":9")
LIG=("linkedin/Liger-Kernel","ead96b618e5c67bddc6a6e9bcb99bfe6b5ab661c")
J("liger-hf-llama3-8b-fsdp",*LIG,["examples/huggingface"],"examples/huggingface",["run_llama.sh"],{
 "model.ref":T("meta-llama/Meta-Llama-3-8B","training.py:16 model_name default, not given"),
 "dist.world_size":T(4,"run_llama.sh:3 --nnodes=1 --nproc-per-node=4"),
 "dist.sharding":T("fsdp_full","run_llama.sh:17 --fsdp full_shard auto_wrap"),
 "batch.micro":T(64,"run_llama.sh:6"),
 "batch.grad_accum":T(1,"TrainingArguments default, not given"),
 "data.seq_len":T(512,"training.py:18 max_seq_length default 512 -> :69"),
 "precision.mode":T("amp_bf16","run_llama.sh:4 --bf16 with FSDP: bf16-loaded params (training.py:51) upcast to fp32 by accelerate under FSDP mixed precision (accelerate accelerator.py:1983-2038)"),
 "memory.gradient_checkpointing":T(True,"config/fsdp_config.json:4 activation_checkpointing true (run_llama.sh:18)"),
 "loss.implementation":T("fused","run_llama.sh:20 --use_liger True -> training.py:46-47 AutoLigerKernelForCausalLM (fused linear cross-entropy by default)"),
},held_out=True,note=H3)
NT=("huggingface/nanotron","2411b022a75fb7f7561a1bb4166706da5e1b76de")
nty="examples/config_tiny_llama.yaml"
J("nanotron-tiny-llama",*NT,["run_train.py","examples","src/nanotron/config"],".",["--","torchrun","--nproc_per_node=8","run_train.py","--config-file",nty],{
 "model.num_parameters":T(2420754432,nty+":37-51 28 layers x 2048, intermediate 11008, 16 heads / 2 kv heads, tied 128256 vocab",rel_tol=0.1),
 "batch.micro":T(3,nty+":89 micro_batch_size"),
 "batch.grad_accum":T(1,nty+":86 batch_accumulation_per_replica"),
 "data.seq_len":T(4096,nty+":90 sequence_length"),
 "dist.sharding":T("ddp",nty+":70 zero_stage 0 with dp 4 (:72)"),
 "precision.mode":T("bf16",nty+":29 dtype bfloat16 with accumulate_grad_in_fp32 (:53): bf16 weights, fp32 master copies"),
 "optimizer.name":T("adamW",nty+":67"),
 "data.num_workers":T(1,nty+":10 num_loading_workers"),
},held_out=True,note=H3+"; README.md:97; 8 processes = dp 4 x tp 2: world size left out (the plan's world size is data-parallel)")
PL=("Lightning-AI/pytorch-lightning","7f0c3436cd3f6ad3753125672024fc415cbcb414")
J("fabric-mnist-4gpu",*PL,["examples/fabric/image_classifier"],"examples/fabric/image_classifier",["--","fabric","run","train_fabric.py","--accelerator=gpu","--devices=4"],{
 "dist.world_size":T(4,"README.md:36 --devices=4"),
 "dist.sharding":T("ddp","fabric run --devices=4, strategy auto -> DDP"),
 "batch.micro":T(64,"train_fabric.py:170 --batch-size default 64 -> :89"),
 "precision.mode":T("fp32","train_fabric.py:76 Fabric() and no --precision: 32-true (src/lightning/fabric/connector.py:125)"),
 "model.num_parameters":T(1199882,"train_fabric.py:51-56 Conv2d(1,32,3), Conv2d(32,64,3), Linear(9216,128), Linear(128,10)",rel_tol=0.1),
 "optimizer.name":T("Adadelta","train_fabric.py:97 optim.Adadelta"),
 "data.image_size":T(28,"MNIST images, no resize (train_fabric.py:80)"),
 "data.num_workers":T(0,"train_fabric.py:87-90 DataLoader without num_workers"),
},held_out=True,note=H3)
