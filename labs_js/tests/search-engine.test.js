// The search box's text work (templates/static/search-engine.js, its pure parts): the excerpt is
// built around the best hit and shows it highlighted, and a typo of one edit is read as the index's
// word. Run: node --test labs_js/tests/
"use strict";
const test = require("node:test");
const assert = require("node:assert");
const fs = require("node:fs");
const path = require("node:path");
const vm = require("node:vm");

const window = {};
vm.runInNewContext(fs.readFileSync(path.join(__dirname, "../../templates/static/search-engine.js"), "utf8"), { window, document: {} });
const S = window.AtlasSearchText;

// a page as Pagefind's data() gives it: words separated by zero-width spaces (Chinese) or spaces
function page(text, anchors, zh) {
  const words = zh ? text.split("|") : text.split(" ");
  return { content: words.join(zh ? "\u200B" : " "), anchors, words };
}
function marked(parts) {
  const out = [];
  let m;
  parts.find.lastIndex = 0;
  while ((m = parts.find.exec(parts.text))) out.push(m[0]);
  return out;
}

test("the excerpt is the sentence holding the hit, not the section's first sentence (D3: 痛点。)", () => {
  const text = "把|大|单|切片|：|chunked |prefill|. |痛点|。 |就算|每|轮|都能|换|人|，|还有|另一|种|打扰|。|把 |prefill |切成|若干|块|，|这|就是|分块|预填充|。";
  const p = page(text, [{ element: "h3", id: "chunked", text: "把大单切片：chunked prefill", location: 0 }], true);
  const section = S.sectionOf(p, { anchor: p.anchors[0], locations: [29, 30] });
  const parts = S.excerptParts(section, "把大单切片：chunked prefill", ["分块预填充", "chunked prefill"], true);
  assert.ok(parts.text.includes("分块预填充"), parts.text);
  assert.ok(!parts.text.startsWith("痛点"), parts.text);
  assert.deepStrictEqual(marked(parts), ["分块预填充"]);
});

test("a short sentence is not shown alone, and a long one is cut around the hit", () => {
  const long = "Intro words here. " + "Filler ".repeat(60) + "then the KV cache grows with every token " + "and more ".repeat(40) + "end.";
  const p = page(long, [], false);
  const parts = S.excerptParts(S.sectionOf(p, { locations: [] }), "Title", ["KV cache"], false);
  assert.ok(parts.text.length <= 222, parts.text.length);
  assert.ok(parts.text.startsWith("…") && parts.text.includes("KV cache"), parts.text);
  assert.deepStrictEqual(marked(parts), ["KV", "cache"]);
});

test("the highlight falls back to the words the index matched when the name as typed is absent (KV 缓存)", () => {
  const text = "前缀|缓存|. |相同|前缀|的|请求|复用|已|算|好|的 |KV|，|跳过 |prefill|。";
  const p = page(text, [{ element: "h3", id: "prefix", text: "前缀缓存", location: 0 }], true);
  const section = S.sectionOf(p, { anchor: p.anchors[0], locations: [1, 12] });
  const parts = S.excerptParts(section, "前缀缓存", ["KV 缓存", "键值缓存", "KV cache"], true);
  assert.ok(marked(parts).length > 0, "the excerpt shows what matched, highlighted: " + parts.text);
  assert.ok(marked(parts).includes("KV"), parts.text);
});

test("the section's text ends where the next heading begins", () => {
  const p = page("One. first part. Two. second part.", [
    { element: "h2", id: "one", text: "One", location: 0 },
    { element: "h2", id: "two", text: "Two", location: 3 },
  ], false);
  assert.strictEqual(S.sectionOf(p, { anchor: p.anchors[0], locations: [] }).text, "One. first part.");
  assert.strictEqual(S.sectionOf(p, { anchor: p.anchors[1], locations: [] }).text, "Two. second part.");
});

test("Chinese after the index's block separator reads as a sentence end", () => {
  assert.strictEqual(S.tidy("标题. 正文|。".replace("|", ""), "标题", true).text, "正文。");
});

test("Chinese keeps no space after full-width punctuation, before Latin words too", () => {
  // review 31-r #2: a misconception's label joined to its statement read "常见误区： PagedAttention"
  assert.strictEqual(
    S.tidy("常见误区： PagedAttention 降低了计算量。 实际情况： 它管的是分配。", "", true).text,
    "常见误区：PagedAttention 降低了计算量。实际情况：它管的是分配。",
  );
  assert.strictEqual(S.tidy("Common mistake: Weight quantization shrinks it.", "", false).text,
    "Common mistake: Weight quantization shrinks it.");
  // review 31-s #6: where a label left out of the index stood before the punctuation
  assert.strictEqual(S.tidy("reads the KV cache . Precision , then 0.5 and e.g. x", "", false).text,
    "reads the KV cache. Precision, then 0.5 and e.g. x");
});

test("one edit for a Latin word of five letters or more, only where the index lacks the word", () => {
  const known = ["token", "cache", "tokens", "batch", "prefill"];
  assert.strictEqual(S.corrected("kv cahce", known), "kv cache"); // two neighbours swapped
  assert.strictEqual(S.corrected("prefil", known), null); // a word's start: found as typed
  assert.strictEqual(S.corrected("prefxll", known), "prefill"); // one letter changed
  assert.strictEqual(S.corrected("bach", known), null); // four letters: left as typed
  assert.strictEqual(S.corrected("xyzzyq", known), null); // nothing one edit away
  assert.strictEqual(S.corrected("cashes", known), null); // two edits
  assert.ok(S.oneEdit("tokne", "token") && S.oneEdit("tokn", "token") && S.oneEdit("tokeen", "token"));
});

test("a Chinese word that holds a known name is not read as a typo of another (review 31-p #3)", () => {
  const known = ["缓存", "缓存亲", "量化"];
  assert.strictEqual(S.corrected("KV 缓存有", known), null); // not "缓存亲": the reader added 有
  assert.strictEqual(S.corrected("量花", known), "量化"); // a typo of a name is still read as the name
  assert.strictEqual(S.subjectOf("KV 缓存有多大"), "KV 缓存");
});

test("a longer word that merely starts with the query is no better a hit than the word itself", () => {
  const p = page("Light load is cheap. The unit cost is high at light load. Hardware is costed differently.", [], false);
  const parts = S.excerptParts(S.sectionOf(p, { locations: [] }), "Title", ["cost"], false);
  assert.ok(parts.text.startsWith("The unit cost"), "the first of equal hits, not 'costed': " + parts.text);
});

// -- a reviewer's second pass (issue 31 #2) ----------------------------------------------------------
// a page as Pagefind's data() gives it, with its sections as sub-results: each section [id, title,
// text, weight], and the <dfn>s [section id, term id] it holds
function found(url, title, sections, dfns) {
  let at = 0;
  const anchors = [];
  const subs = [];
  const words = [];
  sections.forEach(([id, heading, text, weight]) => {
    const anchor = { element: "h2", id, text: heading, location: at };
    anchors.push(anchor);
    const own = (heading + ". " + text).split(" ");
    (dfns || []).filter(([where]) => where === id).forEach(([, term]) => anchors.push({ element: "dfn", id: "term-" + term, text: term, location: at + 1 }));
    subs.push({ url: url + "#" + id, title: heading, anchor, locations: [at], weighted_locations: [{ location: at, weight, balanced_score: weight }] });
    words.push(...own);
    at += own.length;
  });
  return { url, meta: { title }, content: words.join(" "), anchors: anchors.sort((a, b) => a.location - b.location), sub_results: subs };
}
function withTerms(groups, ids, run, homes) {
  window.AtlasSearchTerms = groups;
  window.AtlasSearchTermIds = ids;
  window.AtlasSearchTermHomes = homes || [];
  try { return run(); } finally { delete window.AtlasSearchTerms; delete window.AtlasSearchTermIds; delete window.AtlasSearchTermHomes; }
}

test("a question's question words are dropped, in Chinese and in English (怎么办, 这么, I)", () => {
  assert.strictEqual(S.subjectOf("显存不够怎么办"), "显存不够");
  assert.strictEqual(S.subjectOf("为什么首 token 这么慢"), "首 token 慢");
  assert.strictEqual(S.subjectOf("PD 分离有什么好处"), "PD 分离 好处");
  assert.strictEqual(S.subjectOf("how do I reduce cost"), "reduce cost");
  assert.strictEqual(S.subjectOf("why is the first token slow"), "first token slow");
  // review 31-j #4: 会不会, 多大 and 需要 asked, they did not name what was asked about
  assert.strictEqual(S.subjectOf("量化会不会掉精度"), "量化 掉精度");
  assert.strictEqual(S.subjectOf("KV 缓存多大"), "KV 缓存");
  assert.strictEqual(S.subjectOf("权重需要多少显存"), "权重 显存");
  // review 31-k: 是什么意思 is a question as 是什么 is
  assert.strictEqual(S.subjectOf("goodput 是什么意思"), "goodput");
  // and 的 after a glossary name is cut (the index read 分离的代价 as one word); 目的 stays a word
  withTerms([["PD 分离", "PD disaggregation"]], ["pd"], () => {
    assert.strictEqual(S.subjectOf("PD 分离的代价"), "PD 分离 代价");
    assert.strictEqual(S.subjectOf("分块的目的"), "分块的目的");
  });
});

test("the words typed together found on one page only are searched each on its own as well (量化 精度损失)", () => {
  assert.ok(S.onOnePage([]));
  assert.ok(S.onOnePage([{ url: "zh/a.html#x" }, { url: "zh/a.html#y" }]));
  assert.ok(!S.onOnePage([{ url: "zh/a.html#x" }, { url: "zh/b.html#y" }]));
});

test("a glossary name keeps its little words: 'mixture of experts' is the name of MoE, not 'mixture experts'", () => {
  withTerms([["MoE", "mixture of experts", "专家混合"]], ["moe"], () => {
    assert.strictEqual(S.subjectOf("mixture of experts"), "mixture of experts");
  });
});

test("the subject's words decide the ranking: the section that holds them all, not the one Pagefind weighs most", () => {
  withTerms([["HBM", "显存"]], ["hbm"], () => {
    const keys = S.keysOf("显存不够");
    assert.deepStrictEqual([...keys], ["显存", "不够"]);
    const pages = [
      found("/zh/a.html", "A", [
        ["busy", "调度", "显存 显存 显存 带宽 调度 调度", 30],
        ["weights", "权重", "显存 不够 时 先 看 权重", 2],
        ["other", "其他", "不够 快", 1],
      ]),
    ];
    const hits = S.rank(pages, "显存不够", ["显存不够"], keys, []);
    assert.strictEqual(hits[0].url, "/zh/a.html#weights", hits.map((h) => h.url).join(" "));
  });
  // English: the key a few sections hold says more than the word every section holds
  const keys = S.keysOf("first token slow");
  assert.deepStrictEqual([...keys], ["first", "token", "slow"]);
  const pages = [found("/en/a.html", "A", [
    ["tokens", "Tokens", "token token token token token", 20],
    ["ttft", "Metrics", "the first token is slow when the queue is long token", 3],
    ["cost", "Cost", "token cost", 4],
  ])];
  assert.strictEqual(S.rank(pages, "first token slow", ["first token slow"], keys, [])[0].url, "/en/a.html#ttft");
});

test("a Chinese typo is read as the known name one character away; a known word or a single character is left alone", () => {
  const known = ["prefill", "前缀缓存", "推测解码", "量化", "连续批处理", "预填充"];
  assert.strictEqual(S.corrected("量花", known), "量化"); // 化 -> 花 (one character changed)
  assert.strictEqual(S.corrected("推侧解码", known), "推测解码");
  assert.strictEqual(S.corrected("连续批处里", known), "连续批处理");
  assert.strictEqual(S.corrected("前缀换存", known), "前缀缓存");
  assert.strictEqual(S.corrected("预填", known), null); // a part of a known name: found as typed
  assert.strictEqual(S.corrected("量", known), null); // one character: no guess
  assert.strictEqual(S.corrected("花费", known), null); // two characters away from 量化
  assert.strictEqual(S.corrected("填充", known), null); // a word of two: the same length only
  // the reading is highlighted as a whole name, never its single characters
  const p = page("量化|把|权重|变小|，|量|也|化|了|。", [], true);
  const parts = S.excerptParts(S.sectionOf(p, { locations: [0, 5, 7] }), "Title", ["量化"], true);
  assert.deepStrictEqual(marked(parts), ["量化"]);
});

test("Chinese words typed together as a name: the section holding every word first (显存碎片), a question keeps its order", () => {
  withTerms([["HBM", "显存"]], ["hbm"], () => {
    const pages = [
      found("/zh/a.html", "A", [
        ["weights", "权重显存：参数量不等于显存", "显存 显存 显存 权重", 20],
        ["fragments", "分配与碎片", "显存 里 的 碎片 碎片", 3],
      ]),
    ];
    const words = ["显存", "碎片"];
    const names = ["显存", "显存 碎片"];
    // review 31-s #1: the title that holds 显存 alone came first
    assert.strictEqual(S.rank(pages, "显存碎片", names, [], [], words, true)[0].url, "/zh/a.html#fragments");
    assert.strictEqual(S.rank(pages, "显存碎片", names, [], [], words, false)[0].url, "/zh/a.html#weights");
  });
});

test("British spelling finds the American text, and the other way round", () => {
  assert.strictEqual(S.american("quantisation"), "quantization");
  assert.strictEqual(S.american("optimising"), "optimizing");
  assert.strictEqual(S.american("parallelisation"), "parallelization");
  assert.strictEqual(S.american("behaviour"), "behavior");
  assert.strictEqual(S.american("modelled"), "modeled");
  assert.strictEqual(S.american("analyse"), "analyze");
  assert.strictEqual(S.british("optimization"), "optimisation");
  assert.strictEqual(S.british("utilize"), "utilise");
  for (const word of ["precise", "promise", "otherwise", "raise", "four", "hour", "called", "size", "exercise", "optimise"]) {
    assert.strictEqual(S.british(S.american(word)) === word || S.american(word) !== word, true, word);
  }
  for (const word of ["precise", "promise", "otherwise", "raise", "four", "hour", "called", "exercise", "rise", "noise"]) {
    assert.strictEqual(S.american(word), word, word);
  }
  assert.strictEqual(S.british("size"), "size");
  assert.deepStrictEqual([...S.otherSpellings("KV cache quantisation")], ["KV cache quantization"]);
  assert.deepStrictEqual([...S.otherSpellings("optimization")], ["optimisation"]);
  // the section written in the other spelling is found and highlighted
  const text = page("Quantization shrinks the weights. Other words follow here.", [], false);
  const parts = S.excerptParts(S.sectionOf(text, { locations: [] }), "Title", ["quantisation"], false);
  assert.deepStrictEqual(marked(parts), ["Quantization"]);
  const pages = [found("/en/a.html", "A", [["q13", "Quantization: what is compressed", "weights and activations", 5]])];
  assert.strictEqual(S.rank(pages, "quantisation", ["quantisation"], [], [])[0].level, 4, "its title is the subject asked");
  const british = [found("/en/b.html", "B", [["opt", "Optimisation", "the optimisation of kernels", 5]])];
  assert.strictEqual(S.rank(british, "optimization", ["optimization"], [], []).length, 1);
});

test("of the sections that define a term (its first use on each page), the book's first definition ranks first", () => {
  withTerms([["goodput", "达标吞吐"]], ["goodput"], () => {
    const pages = [
      found("/zh/tf-overview.html", "T", [["qualified-share", "算例", "达标吞吐 达标吞吐 达标吞吐", 40]], [["qualified-share", "goodput"]]),
      found("/zh/ch14-memory.html", "C", [["q1", "服务指标", "达标吞吐", 3]], [["q1", "goodput"]]),
    ];
    const hits = S.rank(pages, "达标吞吐", ["达标吞吐", "goodput"], [], ["goodput"]);
    assert.strictEqual(hits[0].url, "/zh/ch14-memory.html#q1", hits.map((h) => h.url).join(" "));
    assert.ok(S.isHome("/zh/ch14.html#q1", ["goodput"]) && !S.isHome("/zh/ch14-memory.html#q2", ["goodput"]));
    assert.ok(!S.isHome("/zh/ch140.html#q1", ["goodput"]), "another page whose name starts alike is not the chapter");
  }, ["ch14#q1"]);
});

test("a section that defines the term ranks above sections that only mention it more often", () => {
  withTerms([["KV cache", "KV 缓存", "key-value cache"]], ["kv-cache"], () => {
    const pages = [found("/en/a.html", "A", [
      ["mentions", "Routing", "the KV cache KV cache KV cache of each replica", 40],
      ["defines", "What each token leaves", "each token leaves a KV cache entry", 3],
      ["later", "Batching", "KV cache blocks and KV cache again", 25],
    ], [["defines", "kv-cache"]])];
    const hits = S.rank(pages, "KV cache", ["KV cache", "KV 缓存", "key-value cache"], [], ["kv-cache"]);
    assert.strictEqual(hits[0].url, "/en/a.html#defines", hits.map((h) => h.url).join(" "));
  });
});

test("a section holds a Chinese word of the query whole, never one character of it (KV 缓存 found 保存, 显存)", () => {
  assert.ok(!S.touches("地图把技术放在三条路线上：一台机器的引擎、保存状态的显存。", ["KV 缓存"]));
  assert.ok(S.touches("出处：按缓存路由。", ["KV 缓存"]));
  assert.ok(S.touches("the KV of every token", ["KV 缓存"]));
  assert.ok(S.touches("并行解码的另一条路", ["扩散式并行解码"]), "a word of a longer run, cut by the segmenter");
  assert.ok(!S.touches("解释一下", ["解码"]));
});

test("a query names a term by one whole name with words of its others (KV 缓存, TTFT 延迟)", () => {
  const kv = ["KV", "key-value cache", "键值缓存"];
  assert.ok(S.naming(kv, "KV 缓存"));
  assert.ok(S.naming(kv, "KV cache"));
  assert.ok(S.naming(kv, "键值缓存"));
  assert.ok(!S.naming(kv, "缓存"), "one word that is no name of it");
  assert.ok(!S.naming(kv, "KV 显存"));
  assert.ok(!S.naming(["TTFT", "time to first token", "首 token 延迟"], "first token"), "no whole name");
  assert.ok(S.naming(["TTFT", "time to first token", "首 token 延迟"], "TTFT 延迟"));
});

test("a question holding a term's longer name names the term (why is the first token slow; 为什么首 token 这么慢)", () => {
  const ttft = ["TTFT", "time to first token", "首 token 延迟", "首字延迟", "首 token", "first token"];
  assert.ok(S.naming(ttft, "why is the first token slow"));
  assert.ok(S.naming(ttft, "为什么首 token 这么慢"));
  assert.ok(!S.naming(["TTFT", "time to first token"], "the first token"), "a question is three words or more, and holds a name");
  assert.ok(!S.naming(ttft, "why is the token slow"), "one word of a name is not the name");
  const kv = ["KV cache", "键值缓存", "KV 缓存"];
  assert.ok(!S.naming(kv, "为什么缓存这么大"), "a Chinese name of two characters is part of too many words");
  assert.ok(S.naming(kv, "how big is the kv cache per request"));
});

test("characters the segmenter leaves single side by side are one word of the question (带宽, 变快)", () => {
  withTerms([["decode", "解码", "解码阶段"]], ["decode"], () => {
    const keys = [...S.keysOf("解码阶段受内存带宽限制")];
    assert.ok(keys.includes("带宽") && keys[0] === "解码阶段", keys.join(" "));
    assert.ok(!keys.some((key) => key.length === 1), keys.join(" "));
  });
});

test("a question about a term ranks the section titled by the term above one titled by a longer name holding it", () => {
  // 解码为什么慢: the section on decode (titled in English on the Chinese page), not the one on 推测解码
  withTerms([["decode", "解码"], ["speculative decoding", "推测解码"]], ["decode", "spec"], () => {
    const pages = [found("/zh/a.html", "A", [
      ["q12", "推测解码：一次验证多个 token", "推测解码 解码 解码 解码 慢 草稿 解码", 30],
      ["q6", "Decode：每一步只走一个 token", "解码 每步 读 权重 慢", 3],
    ])];
    const words = S.keysOf("解码 慢");
    const hits = S.rank(pages, "解码 慢", ["解码 慢"], [], [], words);
    assert.strictEqual(hits[0].url, "/zh/a.html#q6", hits.map((h) => h.url).join(" "));
  });
});

test("a word with -ing names the term written without it (decoding ~ decode, caching ~ cache)", () => {
  assert.ok(S.naming(["decode", "解码"], "decoding"));
  assert.ok(S.naming(["KV cache"], "KV caching"));
  assert.ok(!S.naming(["decode", "解码"], "decoder"), "another word that starts the same");
});

test("a phrase readers type for a term leads to it without being one of its names (separate GPUs)", () => {
  const pd = ["PD disaggregation", "prefill–decode disaggregation", "PD 分离"];
  assert.ok(!S.naming(pd, "should prefill and decode run on separate GPUs"));
  assert.ok(S.naming(pd, "should prefill and decode run on separate GPUs", ["separate GPUs"]));
  assert.ok(S.naming(pd, "为什么要分开部署", ["分开部署"]));
  assert.ok(!S.naming(pd, "separate", ["separate GPUs"]), "one word of a phrase is not the phrase");
  withTerms([pd], ["pd"], () => {
    window.AtlasSearchTermPhrases = [["separate GPUs"]];
    try {
      assert.strictEqual(S.subjectOf("should prefill and decode run on separate GPUs"), "should prefill and decode run on separate GPUs",
        "a query that names a term keeps its words");
    } finally { delete window.AtlasSearchTermPhrases; }
  });
});

test("a word of degree is no subject of a question (很慢 asks about 慢, as \"very slow\" about slow)", () => {
  assert.strictEqual(S.subjectOf("为什么解码很慢"), "解码 慢");
  assert.strictEqual(S.subjectOf("why is decode very slow"), "decode slow");
});

test("a question's term brings the section it titles, though that section lacks the question's other words", () => {
  withTerms([["decode", "解码"], ["speculative decoding", "推测解码"]], ["decode", "spec"], () => {
    const pages = [
      found("/en/a.html", "A", [["q12", "Speculative decoding: verify many tokens", "decode not use gpu fully speculative", 30]]),
      found("/en/b.html", "B", [["q6", "Decode: one token per step", "each step reads the weights", 3],
                                 ["q9", "Kernels", "each step reads the weights again", 3]]),
    ];
    const subject = "decode not use gpu fully";
    const hits = S.rank(pages, subject, [subject], [], [], S.keysOf(subject));
    assert.deepStrictEqual(Array.from(hits, (h) => h.url), ["/en/b.html#q6", "/en/a.html#q12"], "q9 holds neither the question nor the term's title");
    assert.deepStrictEqual(Array.from(S.answering(hits), (h) => h.url), ["/en/a.html#q12"], "only q12 holds what was asked");
  });
});

test("a sub-section whose heading, with the one above it, holds two words of the question ranks first", () => {
  withTerms([["quantization", "量化"]], ["quant"], () => {
    const page = found("/en/q.html", "Q", [
      ["q13", "Quantization: first ask what is being compressed", "quantization faster weights", 30],
      ["q13-kernel", "Why fewer bits are not automatically faster", "kernels decide faster", 3],
    ]);
    page.anchors.find((a) => a.id === "q13-kernel").element = "h3";
    const subject = S.subjectOf("why isn't quantization faster");
    const hits = S.rank([page], subject, [subject], [], [], S.keysOf(subject));
    assert.strictEqual(hits[0].url, "/en/q.html#q13-kernel", Array.from(hits, (h) => h.url).join(" "));
  });
});

test("a question naming a term ranks the sections that hold it, by any of its names, above those that do not", () => {
  withTerms([["推测解码", "投机解码", "speculative decoding"]], ["spec"], () => {
    const pages = [
      found("/zh/q.html", "Q", [["q13-kernel", "低位为什么不一定更快", "量化 更快 更快 一定", 30]]),
      found("/zh/s.html", "S", [["q12", "推测解码：一次验证多个 token", "推测解码 可能 更快", 3]]),
    ];
    const subject = S.subjectOf("投机解码一定更快吗");
    assert.ok(!/一定/.test(subject), subject);
    const keys = S.keysOf(subject);
    const hits = S.rank(pages, subject, [subject], keys, [], keys);
    assert.strictEqual(hits[0].url, "/zh/s.html#q12", Array.from(hits, (h) => h.url).join(" "));
  });
});
