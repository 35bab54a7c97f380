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

test("a longer word that merely starts with the query is no better a hit than the word itself", () => {
  const p = page("Light load is cheap. The unit cost is high at light load. Hardware is costed differently.", [], false);
  const parts = S.excerptParts(S.sectionOf(p, { locations: [] }), "Title", ["cost"], false);
  assert.ok(parts.text.startsWith("The unit cost"), "the first of equal hits, not 'costed': " + parts.text);
});
