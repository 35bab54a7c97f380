"""What readers type into the search box, and the section each query must bring into the first three
results: glossary terms, synonyms, abbreviations, questions a student would type, and mixed Chinese +
English with and without a space. The expected section is the one that explains the idea, not merely
the first mention; where two sections both explain it (the chapter and the tutorial page on the same
technique), either counts, and the query names both.

The set was written from the sections' subjects before it was measured, and is not tuned to the
results: a query the search misses stays in the set and is reported as a miss."""

ZH = [
    # terms and section subjects
    ("首 token 延迟", "ch14#q1"),
    ("首token延迟", "ch14#q1"),
    ("达标吞吐", "ch14#q1"),
    ("KV 缓存", "ch14#q3"),
    ("KV缓存", "ch14#q3"),
    ("键值缓存", "ch14#q3"),
    ("权重显存", "ch14#q2"),
    ("预填充", "ch14#q5"),
    ("分页", "ch14#q4"),
    ("写时复制", "ch14#q4"),
    ("连续批处理", ("ch14#q7", "tf-cluster#continuous-batching")),
    ("队头阻塞", "ch14#q7"),
    ("分块预填充", ("ch14#q8", "tf-cluster#chunked-prefill")),
    ("算子融合", ("ch14#q9", "tf-kernels#fusion-graphs")),
    ("前缀缓存", ("ch14#q10", "tf-kernels#kv-prefix")),
    ("基数树", "ch14#q10-prefix"),
    ("PD 分离", ("ch14#q11", "tf-cluster#pd-disaggregation")),
    ("PD分离", ("ch14#q11", "tf-cluster#pd-disaggregation")),
    ("推测解码", ("ch14#q12", "tf-model#speculative")),
    ("接受率", "ch14#q12"),
    ("量化", ("ch14#q13", "tf-model#quantization")),
    ("权重量化", "ch14#q13-weight"),
    ("KV 量化", ("ch14#q13-kv", "tf-model#kv-quant")),
    ("张量并行", ("ch14#q14", "tf-boundaries#parallelism")),
    ("混合专家", ("ch14#q15", "tf-model#moe")),
    ("缓存亲和", ("ch14#q16", "tf-cluster#cache-aware-routing")),
    ("准入控制", "ch14#q17"),
    ("剪枝", "tf-boundaries#pruning"),
    ("上下文并行", "tf-kernels#context-parallel"),
    ("扩散式并行解码", "tf-model#diffusion"),
    ("多 token 预测", "tf-model#mtp"),
    ("最小实验协议", "tf-overview#protocol"),
    ("功耗控制", "tf-overview#power"),
    ("模型路由", "tf-overview#routing"),
    ("六条路线", "tf-map#map"),
    ("成本曲线", "tf-overview#cost-curves"),
    ("缓存感知路由", "tf-cluster#cache-aware-routing"),
    ("分层缓存", "tf-cluster#kv-tiers"),
    ("专家并行", "tf-cluster#moe-ep"),
    ("结构化生成", "tf-boundaries#structured-generation"),
    ("内存碎片", "ch14#q4"),
    # abbreviations and names, as a Chinese reader types them
    ("TTFT", "ch14#q1"),
    ("MLA", ("tf-model#mla", "ch14#q18-deepseek")),
    ("GQA", "tf-model#gqa"),
    ("AWQ", "tf-model#awq"),
    ("FlashAttention", "tf-kernels#flashattention"),
    ("Mooncake", "tf-cluster#mooncake"),
    ("EAGLE-3", "tf-model#eagle3"),
    ("多 LoRA", "tf-boundaries#multi-lora"),
    # questions a student would type
    ("什么是 KV 缓存", "ch14#q3"),
    ("为什么加速倍数不能连乘", "tf-overview#no-multiply"),
    ("每百万 token 成本怎么算", "tf-overview#cost-formula"),
]

EN = [
    # terms and section subjects
    ("time to first token", "ch14#q1"),
    ("goodput", "ch14#q1"),
    ("weight memory", "ch14#q2"),
    ("KV cache", "ch14#q3"),
    ("key-value cache", "ch14#q3"),
    ("PagedAttention", ("ch14#q4", "tf-kernels#paged-attention")),
    ("fragmentation", "ch14#q4"),
    ("prefill", "ch14#q5"),
    ("decode step", "ch14#q6"),
    ("continuous batching", ("ch14#q7", "tf-cluster#continuous-batching")),
    ("head-of-line blocking", "ch14#q7"),
    ("chunked prefill", ("ch14#q8", "tf-cluster#chunked-prefill")),
    ("kernel fusion", ("ch14#q9", "tf-kernels#fusion-graphs")),
    ("prefix caching", ("ch14#q10", "tf-kernels#kv-prefix")),
    ("radix tree", "ch14#q10-prefix"),
    ("PD disaggregation", ("ch14#q11", "tf-cluster#pd-disaggregation")),
    ("speculative decoding", ("ch14#q12", "tf-model#speculative")),
    ("acceptance rate", "ch14#q12"),
    ("quantization", ("ch14#q13", "tf-model#quantization")),
    ("KV cache quantization", ("ch14#q13-kv", "tf-model#kv-quant")),
    ("tensor parallelism", ("ch14#q14", "tf-boundaries#parallelism")),
    ("mixture of experts", ("ch14#q15", "tf-model#moe")),
    ("admission control", "ch14#q17"),
    ("pruning", "tf-boundaries#pruning"),
    ("context parallelism", "tf-kernels#context-parallel"),
    ("multi-token prediction", "tf-model#mtp"),
    ("minimal experiment protocol", "tf-overview#protocol"),
    ("power control", "tf-overview#power"),
    ("model routing", "tf-overview#routing"),
    ("cost curve", "tf-overview#cost-curves"),
    ("cache-aware routing", "tf-cluster#cache-aware-routing"),
    ("expert parallelism", "tf-cluster#moe-ep"),
    ("structured generation", "tf-boundaries#structured-generation"),
    ("CPU offloading", "tf-kernels#offload"),
    ("diffusion decoding", "tf-model#diffusion"),
    # abbreviations and names
    ("TTFT", "ch14#q1"),
    ("MLA", ("tf-model#mla", "ch14#q18-deepseek")),
    ("GQA", "tf-model#gqa"),
    ("AWQ", "tf-model#awq"),
    ("FlashAttention", "tf-kernels#flashattention"),
    ("Mooncake", "tf-cluster#mooncake"),
    ("EAGLE-3", "tf-model#eagle3"),
    ("multi-LoRA", "tf-boundaries#multi-lora"),
    ("StreamingLLM", "tf-kernels#kv-streaming"),
    # questions a student would type
    ("what is goodput", "ch14#q1"),
    ("why don't speedups multiply", "tf-overview#no-multiply"),
    ("cost per million tokens", "tf-overview#cost-formula"),
    ("how much memory do the weights need", "ch14#q2"),
]

# A query in the other language: the page offers that language's results (want: a section of them).
CROSS = [
    ("en", "推测解码", ("ch14#q12", "tf-model#speculative")),
    ("en", "键值缓存", "ch14#q3"),
    ("en", "连续批处理", ("ch14#q7", "tf-cluster#continuous-batching")),
]


def wanted(want) -> tuple[str, ...]:
    """The sections that count as finding the query's subject."""
    return (want,) if isinstance(want, str) else tuple(want)


QUERIES = [("zh", q, want) for q, want in ZH] + [("en", q, want) for q, want in EN]
