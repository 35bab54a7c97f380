/* The search behind the box (search.js loads this when the reader first comes to it).
   Pagefind finds the pages (one index per language; the other languages' indexes are merged in only
   when the page's own language has nothing, or the query is written in another language's script);
   every section of every page found is then ranked here. Each result is one section: its title, the
   page it is on and an excerpt, built with DOM nodes (Pagefind's <mark> highlights are rebuilt as
   elements); a result in another language says so and carries its language.

   Ranking, most important first:
   1. the section's title against what was typed and, when that is one name of a glossary term, the
      term's other names (assets/search-terms.js): its subject (the title before a colon, without a
      year in brackets) is one of them; its subject, or else its whole title, holds one of them; the
      title holds every word typed;
      a section that defines a term the query names as a whole (its <dfn>) comes next, above sections
      that only mention it; for a question of several words, a section titled by a term named among
      them (Decode for 解码为什么慢), above one titled by a longer name holding it (推测解码);
   2. how often the section itself uses the words (Pagefind's weighted matches).
   A section is shown only when it holds a word of what was asked, a Chinese word whole (Pagefind
   answers 缓存 with the 存 of 保存); a query of one name of a term with words of its others ("KV 缓存")
   names the term; a Chinese word is also searched as the glossary's longer names that hold it (the
   index finds a word by its start: 缓存 -> 键值缓存).
   Question words ("what is", "为什么", "怎么办") are dropped; mixed Chinese + English is split at the
   script boundary ("KV缓存" -> "KV 缓存"), as the index segments it; British and American spellings
   are one word ("quantisation" ~ "quantization"). A query that finds nothing is read with a typo mended
   (a Latin word one edit from the index's, a Chinese word one character from a known name: "量花" ->
   量化), and then, for a question, by its subject's words each on its own, the sections that hold
   most of them (the rarer ones counting more) first; so is a query whose words, typed together,
   only one page holds ("量化 精度损失").
   While a search runs the previous results stay (dimmed) and the status says so, so the panel does
   not flicker; Escape, a tap outside, the close button or following a result closes it. */
(function () {
  "use strict";
  var SHOWN = 8; /* the results shown at first, and how many more each "Show more" adds */
  var HAN = "\u3400-\u9fff\uf900-\ufaff";
  var HAS_HAN = new RegExp("[" + HAN + "]");
  var QUESTION_WORDS = /^(a|an|the|very|really|not|use|uses|using|is|isnt|are|arent|what|whats|why|how|do|does|did|dont|doesnt|much|many|to|of|for|in|on|and|or|need|needs|can|cant|could|should|would|will|when|which|who|where|it|its|i|me|my|we|our|you|your|so|this|that|there|be|get|make|work|works)$/;
  /* question words and the little words around them, longest first ("怎么办" before "怎么"), and
     the words of degree (很慢 asks about 慢: "很" is no subject, as "very" is none) */
  var ZH_QUESTION = /是什么意思|什么意思|什么时候|什么是|是什么|为什么|为何|怎么办|有多大|有多少|有多长|有多久|有多快|有多|没有|没|怎么算|怎么样|怎么做|怎么|怎样|如何|哪些|哪个|有什么|有没有|是不是|能不能|会不会|要不要|什么|这么|那么|非常|特别|还是|不一定|一定|很|多少|多大|多久|需要|我们|我|应该|该把|可以|吗|呢|吧|啊|？|\?/g;

  function element(tag, cls, value) {
    var node = document.createElement(tag);
    if (cls) node.className = cls;
    if (value) node.textContent = value;
    return node;
  }

  /* An excerpt as a reader wants it, from Pagefind's (which marks every word of the index that
     matched, in Chinese single characters: "预" of 预填充 in 预算): plain text; the section's title
     not repeated at its start; a heading joined to its text by Chinese punctuation on a Chinese
     page (Pagefind joins blocks with ". "); cut to whole sentences around what matched; and
     highlighted where it holds what was asked for: a Chinese name whole, a Latin word as the start of
     a word. Built as text nodes and <mark> elements. */
  var END = /[。！？；.!?;](?=\s|$)|[。！？；]/g;
  function escaped(text) { return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"); }
  function finder(names) {
    var parts = [];
    names.forEach(function (name, i) {
      /* a Chinese name, or another name of the term the query names, only as a whole; the typed
         query's Latin words each as the start of a word */
      if (HAS_HAN.test(name) || i > 0) {
        if (flat(name).length >= 2) parts.push((HAS_HAN.test(name[0]) ? "" : "\\b") + name.trim().split(/[\s-]+/).map(function (word) {
          return /^[A-Za-z]+$/.test(word) ? "(?:" + spellings(word).map(escaped).join("|") + ")" : escaped(word);
        }).join("[\\s-]*"));
      } else {
        name.split(/[^A-Za-z0-9]+/).forEach(function (word) {
          if (word.length >= 2 && !QUESTION_WORDS.test(word.toLowerCase())) parts.push("\\b(?:" + spellings(word).map(escaped).join("|") + ")[A-Za-z0-9]*");
        });
      }
    });
    parts.sort(function (a, b) { return b.length - a.length; });
    return parts.length ? new RegExp("(" + parts.join("|") + ")", "gi") : null;
  }
  function tidy(excerpt, title, chinese) {
    /* the index's copy of a page (search_index.py) has no line breaks inside Chinese text and a
       separator after each cell, term and item: the spaces left are the text's own */
    /* no space before a sentence's punctuation, where a label the index leaves out stood ("the KV
       cache ." was "the KV cache [label].": review 31-s #6) */
    var text = excerpt.replace(/<[^>]*>/g, "").replace(/\s+/g, " ").trim().replace(/ (?=[.,;:!?](?: |$))/g, "");
    if (chinese) {
      text = text.replace(new RegExp("([" + HAN + "）」”])\\. ", "g"), "$1。")
                 .replace(new RegExp("\\. (?=[" + HAN + "（「“])", "g"), "。");
      /* a link or a term in a Chinese sentence keeps no space before the punctuation or the
         characters after it (the badges and labels that it once ran into are not indexed) */
      var tight = new RegExp("([" + HAN + "\u3000-\u303f\uff01-\uff1f])\\s+(?=[" + HAN + "\u3000-\u303f\uff01-\uff1f])", "g");
      /* nor after full-width punctuation, whatever follows it ("常见误区：PagedAttention", where the
         index joins a label to its statement) */
      text = text.replace(tight, "$1").replace(/\s+(?=[\u3000-\u303f\uff01-\uff1f])/g, "").replace(/([\u3000-\u303f\uff01-\uff1f])\s+/g, "$1");
    }
    var head = title.replace(/\s*#$/, "").replace(/\s+/g, " ").trim();
    if (chinese) head = head.replace(tight, "$1");
    var start = false;
    if (head && text.indexOf(head) === 0) {
      text = text.slice(head.length);
      start = true;
    } else {
      /* an excerpt that begins inside the title: its end is not repeated either */
      for (var n = head.length - 1; n >= 4; n--) {
        if (text.indexOf(head.slice(head.length - n)) === 0) { text = text.slice(n); start = true; break; }
      }
    }
    if (start) text = text.replace(/^[\s.。:：]+/, "");
    return { text: text, start: start };
  }

  /* The section's own text, from the page's whole text (Pagefind's words, from the section's
     heading to the next one), and the words Pagefind matched in it. */
  var SPLIT = typeof WeakMap === "function" ? new WeakMap() : null;
  /* a page's words and section starts, split once per page however many of its sections were hit
     (splitting the page for each section was half of a query's own time) */
  function splitPage(page) {
    var known = SPLIT && SPLIT.get(page);
    if (known) return known;
    var content = page.raw_content || page.content || "";
    var zws = content.indexOf("\u200B") >= 0;
    var split = {
      zws: zws,
      all: zws ? content.split("\u200B") : content.split(/[^\S\uFEFF]+/),
      anchors: (page.anchors || []).filter(function (a) {
        return (a.title && /\S/.test(a.title)) || (/h\d/i.test(a.element) && a.text && /\S/.test(a.text));
      }).map(function (a) { return a.location; }).sort(function (a, b) { return a - b; })
    };
    if (SPLIT) SPLIT.set(page, split);
    return split;
  }

  function sectionOf(page, sub) {
    var split = splitPage(page), zws = split.zws, all = split.all, anchors = split.anchors;
    var from = sub.anchor ? sub.anchor.location : 0;
    var to = anchors.filter(function (at) { return at > from; })[0];
    if (to === undefined) to = all.length;
    var matched = {};
    (sub.locations || []).forEach(function (at) {
      var word = (all[at] || "").replace(/^[^\w\u3400-\u9fff]+|[^\w\u3400-\u9fff]+$/g, "");
      if (word && (word.length >= 2 || HAS_HAN.test(word))) matched[word] = true;
    });
    return { text: all.slice(from, to).join(zws ? "" : " "), matched: Object.keys(matched) };
  }

  /* the words Pagefind matched, as a finder: the highlight when what was typed is not in the
     section as it was typed (a stem, one Chinese word of the query) */
  function finderOf(found) {
    var parts = found.map(function (word) {
      return (HAS_HAN.test(word[0]) ? "" : "\\b") + escaped(word) + (HAS_HAN.test(word) ? "" : "[A-Za-z0-9]*");
    });
    parts.sort(function (a, b) { return b.length - a.length; });
    return parts.length ? new RegExp("(" + parts.join("|") + ")", "gi") : null;
  }

  var LONGEST = { zh: 110, other: 220 }; /* an excerpt's characters, at most */
  /* The excerpt: the sentence that holds the best hit (the most of what was asked, the longest
     names first, the earliest of equals), with the sentences after it while it stays short, cut
     around the hit when one sentence is too long. */
  function excerptWindow(text, find, chinese, asked) {
    var longest = chinese ? LONGEST.zh : LONGEST.other;
    var ends = [], match;
    END.lastIndex = 0;
    while ((match = END.exec(text))) ends.push(match.index + match[0].length);
    if (!ends.length || ends[ends.length - 1] < text.length) ends.push(text.length);
    var sentences = [], from = 0;
    ends.forEach(function (end) { if (end > from) { sentences.push({ from: from, to: end }); from = end; } });
    var best = 0, bestScore = 0, hitAt = -1;
    sentences.forEach(function (sentence, i) {
      if (!find) return;
      var part = text.slice(sentence.from, sentence.to), seen = {}, score = 0, first = -1;
      find.lastIndex = 0;
      while ((match = find.exec(part))) {
        if (!match[0].length) { find.lastIndex++; continue; }
        /* what was asked that the match is ("costs" is the word "cost"): a longer word of the
           text is no better a hit */
        var key = match[0].toLowerCase();
        var base = (asked || []).filter(function (word) { return key.indexOf(word) === 0; }).sort(function (x, y) { return y.length - x.length; })[0] || key;
        if (!seen[base]) { seen[base] = true; score += base.length; }
        if (first < 0) first = sentence.from + match.index;
      }
      if (score > bestScore) { best = i; bestScore = score; hitAt = first; }
    });
    var a = sentences.length ? sentences[best].from : 0;
    var b = sentences.length ? sentences[best].to : text.length;
    /* a short sentence ("痛点。") with the ones after it, while the excerpt stays short */
    for (var next = best + 1; next < sentences.length && b - a < longest * 0.6 && sentences[next].to - a <= longest; next++) b = sentences[next].to;
    var before = false, after = b < text.length;
    if (b - a > longest) {
      /* one long sentence: from a little before the hit, at a word's start */
      var hit = hitAt >= 0 ? hitAt : a;
      var cut = Math.max(a, Math.min(hit - Math.floor(longest / 4), b - longest));
      if (cut > a) {
        if (!chinese) { var space = text.lastIndexOf(" ", cut); cut = space > a ? space + 1 : cut; }
        a = cut;
        before = true;
      }
      if (b - a > longest) {
        var end = a + longest;
        if (!chinese) { var gap = text.lastIndexOf(" ", end); end = gap > hit ? gap : end; }
        b = end;
        after = true;
      }
    }
    var piece = text.slice(a, b).trim();
    if (before) piece = "…" + piece.replace(/^[\])）】,，、;；:：\s]+/, "");
    if (after && !/[。！？.!?]$/.test(piece)) piece = piece.replace(/[,，、;；:：\s]+$/, "") + "…";
    return piece;
  }

  /* the excerpt's text and what to highlight in it: the query's names where the section holds
     them, else the words Pagefind matched */
  function excerptParts(section, title, names, chinese) {
    var clean = tidy(section.text, title, chinese);
    var find = finder(names);
    if (find) find.lastIndex = 0;
    /* a Chinese word Pagefind matched is highlighted only if it holds a whole name asked for: its
       segments match single characters (键值缓存 found 平均值 by 值; 预填充 the 预 of 预算) */
    var matched = section.matched.filter(function (word) {
      return !HAS_HAN.test(word) || names.some(function (name) { return HAS_HAN.test(name) && word.indexOf(name) >= 0; });
    });
    if (!find || !find.test(clean.text)) find = finderOf(matched);
    var asked = names.concat(matched).join(" ").toLowerCase().split(/\s+/).filter(Boolean);
    return { text: excerptWindow(clean.text, find, chinese, asked.concat(names.map(function (n) { return n.toLowerCase(); }))), find: find };
  }

  function highlighted(text, find) {
    var fragment = document.createDocumentFragment();
    var at = 0, match;
    if (find) {
      find.lastIndex = 0;
      while ((match = find.exec(text))) {
        if (!match[0].length) { find.lastIndex++; continue; }
        if (match.index > at) fragment.appendChild(document.createTextNode(text.slice(at, match.index)));
        fragment.appendChild(element("mark", "", match[0]));
        at = match.index + match[0].length;
      }
    }
    if (at < text.length) fragment.appendChild(document.createTextNode(text.slice(at)));
    return fragment;
  }
  function excerptOf(hit, names, chinese) {
    var parts = excerptParts(hit.section, hit.title, names, chinese);
    return highlighted(parts.text, parts.find);
  }

  /* Typo tolerance: a Latin word of five letters or more that no word of the index starts with is
     read as the index's most frequent word one edit away (a letter left out, added or changed, or
     two neighbours swapped: "cahce" -> "cache"); pagefind/atlas-words.json lists the index's Latin
     words, most frequent first. Only a query that finds nothing as typed is read so. */
  function oneEdit(a, b) {
    if (a === b || Math.abs(a.length - b.length) > 1) return false;
    var i = 0;
    while (i < a.length && i < b.length && a[i] === b[i]) i++;
    if (a.length === b.length) {
      return a.slice(i + 1) === b.slice(i + 1) || (a[i] === b[i + 1] && a[i + 1] === b[i] && a.slice(i + 2) === b.slice(i + 2));
    }
    return a.length > b.length ? a.slice(i + 1) === b.slice(i) : a.slice(i) === b.slice(i + 1);
  }
  function corrected(query, vocabulary) {
    var changed = false;
    var out = query.split(" ").map(function (word) {
      var lower = word.toLowerCase();
      if (HAS_HAN.test(word)) {
        /* a Chinese word of two characters or more that no known name holds: the known name (a
           glossary name or a heading's or definition's name in the index) one character away, the
           same length for a word of two ("量花" -> "量化") */
        if (word.length < 2 || vocabulary.some(function (known) { return known.indexOf(word) >= 0; })) return word;
        /* nor one that holds a known name: the rest is a word the reader added, not a typo of it
           (review 31-p #3: "缓存有" was read as "缓存亲", and the KV cache's own section was lost) */
        if (vocabulary.some(function (known) { return HAS_HAN.test(known) && known.length >= 2 && word.indexOf(known) >= 0; })) return word;
        var near = vocabulary.filter(function (known) {
          return HAS_HAN.test(known) && known.length >= 2 && (word.length > 2 || known.length === 2) && oneEdit(word, known);
        })[0];
        if (!near) return word;
        changed = true;
        return near;
      }
      if (!/^[a-z]{5,}$/.test(lower)) return word;
      if (vocabulary.some(function (known) { return known.indexOf(lower) === 0; })) return word;
      var better = vocabulary.filter(function (known) { return oneEdit(lower, known); })[0];
      if (!better) return word;
      changed = true;
      return better;
    });
    return changed ? out.join(" ") : null;
  }

  /* a space wherever Chinese meets Latin letters or digits, and single spaces */
  function normalise(query) {
    return query
      .replace(new RegExp("([" + HAN + "])([A-Za-z0-9])", "g"), "$1 $2")
      .replace(new RegExp("([A-Za-z0-9])([" + HAN + "])", "g"), "$1 $2")
      .replace(/\s+/g, " ").trim();
  }

  /* 的 after a glossary name joins it to the next word ("PD 分离的代价"), and the index reads the
     two as one word that no page holds: the query is cut there (review 31-k). Only after a name:
     目的 and 的确 are words of their own. */
  function afterNames(query) {
    glossaryNames().forEach(function (name) {
      if (HAS_HAN.test(name)) query = query.split(name + "的").join(name + " ");
    });
    return query;
  }

  /* what the query asks about, without its question words */
  function subjectOf(query) {
    /* a glossary name as typed keeps its little words ("mixture of experts" is a name, not "mixture experts") */
    if (termsOf(query).length) return normalise(query);
    var words = afterNames(query).replace(ZH_QUESTION, " ").split(" ").filter(function (word) {
      return word && !QUESTION_WORDS.test(word.toLowerCase().replace(/'/g, ""));
    });
    return words.length ? normalise(words.join(" ")) : query;
  }

  /* British and American spelling: a word written either way is the same word ("quantisation" ~
     "quantization", "behaviour" ~ "behavior"), in the ranking, the highlight and the searches (the
     index has the book's own spelling only). The patterns are the regular ones; words that only look
     like them ("precise", "four", "called") are left alone. */
  var NOT_ISE = /^(.*(wise|aise|oise|uise|cise|vise|prise|chise|dise)|premise|promise|compromise|demise|expertise|advertise|chastise|treatise|despise|(a|sun)?rise|.{0,3})$/;
  var NOT_IZE = /^(.*(size|seize|prize|maize|baize)|.{0,3})$/;
  var OUR = /^(behavio|colo|favo|flavo|hono|labo|neighbo|rumo|humo|harbo|vapo|endeavo|armo|savo|odo)u?r(s|ed|ing|ite|ites|able)?$/;
  var TRE = /^(cent|met|lit|fib|theat|calib|spect|kilomet|millimet|centimet|nanomet)(re|er)(s|d)?$/;
  var DOUBLE_L = /^(model|label|travel|signal|cancel|channel|fuel|tunnel|level|total|marshal|funnel|dial|shovel|counsel)l?(ed|ing|er|ers)$/;
  var WHOLE = { programme: "program", programmes: "programs", catalogue: "catalog", catalogues: "catalogs", dialogue: "dialog", analogue: "analog", licence: "license", defence: "defense", offence: "offense", grey: "gray" };
  function american(word) {
    var lower = word.toLowerCase();
    if (WHOLE[lower]) return WHOLE[lower];
    if (/isation(s?)$/.test(lower)) return lower.replace(/isation(s?)$/, "ization$1");
    if (/is(e|ed|es|er|ers|ing)$/.test(lower) && !NOT_ISE.test(lower.replace(/(e|ed|es|er|ers|ing)$/, "e"))) return lower.replace(/is(e|ed|es|er|ers|ing)$/, "iz$1");
    if (/ys(e|ed|es|ing)$/.test(lower) && lower.length > 5) return lower.replace(/ys(e|ed|es|ing)$/, "yz$1");
    if (OUR.test(lower)) return lower.replace(OUR, function (m, stemPart, end) { return stemPart + "r" + (end || ""); });
    if (TRE.test(lower)) return lower.replace(TRE, function (m, stemPart, ending, end) { return stemPart + "er" + (end || ""); });
    if (DOUBLE_L.test(lower)) return lower.replace(DOUBLE_L, "$1$2");
    return lower;
  }
  function british(word) {
    var lower = american(word);
    for (var key in WHOLE) if (WHOLE[key] === lower) return key;
    if (/ization(s?)$/.test(lower)) return lower.replace(/ization(s?)$/, "isation$1");
    if (/iz(e|ed|es|er|ers|ing)$/.test(lower) && !NOT_IZE.test(lower.replace(/(e|ed|es|er|ers|ing)$/, "e"))) return lower.replace(/iz(e|ed|es|er|ers|ing)$/, "is$1");
    if (/yz(e|ed|es|ing)$/.test(lower) && lower.length > 5) return lower.replace(/yz(e|ed|es|ing)$/, "ys$1");
    if (OUR.test(lower)) return lower.replace(OUR, function (m, stemPart, end) { return stemPart + "ur" + (end || ""); });
    if (TRE.test(lower)) return lower.replace(TRE, function (m, stemPart, ending, end) { return stemPart + "re" + (end || ""); });
    if (DOUBLE_L.test(lower)) return lower.replace(DOUBLE_L, "$1l$2");
    return lower;
  }
  /* a word's spellings: as typed (lower case), American, British */
  function spellings(word) {
    var lower = word.toLowerCase();
    return [lower, american(lower), british(lower)].filter(function (w, i, all) { return all.indexOf(w) === i; });
  }
  /* the query written the other way, where a word of it has another spelling: searched as well */
  function otherSpellings(query) {
    var out = [];
    [american, british].forEach(function (spell) {
      var other = query.replace(/[A-Za-z]+/g, function (word) {
        var spelt = spell(word);
        return spelt === word.toLowerCase() ? word : spelt;
      });
      if (other !== query && out.indexOf(other) < 0) out.push(other);
    });
    return out;
  }

  /* lower case, one stem per Latin word ("weights" ~ "weight", "parallelism" ~ "parallel"), one
     spelling (American), no spaces or punctuation: what two ways of writing one name have in common */
  function stem(word) {
    var latin = /^[a-z]+$/.test(word);
    word = latin ? american(word) : word;
    if (word.length > 4) word = word.replace(/(ies)$/, "y").replace(/(ism|ing|s)$/, "");
    /* and without a final silent e, which "-ing" drops: "decoding" ~ "decode", "caching" ~ "cache"
       (review 31-m: "decoding" did not find the section titled Decode) */
    return latin && word.length > 4 ? word.replace(/([^e])e$/, "$1") : word;
  }
  /* Every query reads the same section texts again (for each section it could match, each name it
     holds): a text's words are worked out once per page view. Without this a query spent 0.3 CPU s
     stemming (three quarters of its script time; a phone takes several times that). The lists are
     frozen: they are shared by every caller. */
  var FLATS = new Map(), WORDS = new Map(), KEPT = 20000;
  function remembered(cache, value, make) {
    var known = cache.get(value);
    if (known !== undefined) return known;
    if (cache.size >= KEPT) cache.clear();
    known = make(value);
    cache.set(value, known);
    return known;
  }
  function flat(value) {
    return remembered(FLATS, value, function () { return words(value).join(""); });
  }
  function words(value) {
    return remembered(WORDS, value, function () {
      return Object.freeze(value.toLowerCase().split(/[^a-z0-9\u3400-\u9fff\uf900-\ufaff]+/).filter(Boolean).map(stem));
    });
  }

  /* Does the query name the term whose names are `group`? It is one of its names; or it is one of
     them with words of another ("KV 缓存": the abbreviation KV and the 缓存 of 键值缓存; "TTFT 延迟"):
     every word is a whole name, a word of a Latin name or a part of a Chinese name of the term, and
     one at least is a whole name. */
  function naming(group, query, phrases) {
    var typed = flat(query);
    if (group.some(function (name) { return flat(name) === typed; })) return true;
    if ((phrases || []).some(function (phrase) { return holds(query, phrase); })) return true;
    var parts = query.split(" ").filter(Boolean);
    if (parts.length < 2) return false;
    var whole = false;
    var every = parts.every(function (part) {
      var piece = flat(part);
      if (group.some(function (name) { return flat(name) === piece; })) { whole = true; return true; }
      if (HAS_HAN.test(part)) {
        return piece.length >= 2 && group.some(function (name) { return HAS_HAN.test(name) && flat(name).indexOf(piece) >= 0; });
      }
      return group.some(function (name) { return !HAS_HAN.test(name) && words(name).indexOf(piece) >= 0; });
    });
    return (whole && every) || asks(group, query);
  }

  /* A question that holds one of the term's longer names as it is written ("why is the first
     token slow" holds "first token"; "为什么首 token 这么慢" holds "首 token"): a name of two Latin
     words or more, or one with three Chinese characters or more (a shorter one is part of too
     many words to say what the question is about). */
  function asks(group, query) {
    var typed = words(query), joined = flat(query);
    if (typed.length < 3) return false;
    return group.some(function (name) {
      if (HAS_HAN.test(name)) return flat(name).length >= 3 && joined.indexOf(flat(name)) >= 0;
      var own = words(name);
      if (own.length < 2) return false;
      for (var i = 0; i + own.length <= typed.length; i++) {
        if (own.every(function (word, j) { return typed[i + j] === word; })) return true;
      }
      return false;
    });
  }

  /* the phrases a reader types for the term of group i, which are none of its names ("separate
     GPUs" for disaggregation): they lead to the term, and are not searched or ranked as its names */
  function phrasesOf(i) {
    return (window.AtlasSearchTermPhrases || [])[i] || [];
  }

  /* the query and, when it names a glossary term, the term's other names (each spelling once) */
  function namesOf(query) {
    var names = [query];
    (window.AtlasSearchTerms || []).forEach(function (group, i) {
      if (naming(group, query, phrasesOf(i))) names = names.concat(group);
    });
    return once(names);
  }
  function once(names) {
    var seen = {};
    return names.filter(function (name) { return seen[flat(name)] ? false : (seen[flat(name)] = true); });
  }

  /* the glossary terms the query names (assets/search-terms.js: each group's term id) */
  function termsOf(query) {
    var ids = window.AtlasSearchTermIds || [];
    return (window.AtlasSearchTerms || []).map(function (group, i) {
      return naming(group, query, phrasesOf(i)) ? ids[i] : null;
    }).filter(Boolean);
  }

  /* the names worth a search of the index: a page not written in Chinese holds no Chinese name,
     and a name of two Latin letters ("KV") finds every page */
  function searchedNames(names, chinese) {
    return names.filter(function (name, i) {
      return i === 0 || ((chinese || !HAS_HAN.test(name)) && (HAS_HAN.test(name) || flat(name).length > 2));
    }).slice(0, 5);
  }

  /* does `text` hold `name` as whole words (Latin) or as a run of characters (Chinese)? A name of
     one or two Latin letters ("KV", "TP") is too common a part of other names to count. */
  function holds(text, name) {
    var wanted = words(name);
    if (!wanted.length || (!HAS_HAN.test(name) && wanted.join("").length < 3)) return false;
    var have = words(text);
    if (HAS_HAN.test(name)) return flat(text).indexOf(flat(name)) >= 0;
    for (var i = 0; i + wanted.length <= have.length; i++) {
      if (wanted.every(function (word, j) { return have[i + j] === word; })) return true;
    }
    return false;
  }

  /* the title's subject: the words before its colon, without a bracketed year */
  function subjectOfTitle(title) {
    var head = title.split(/[:：]/)[0];
    return head.replace(/[(（][^)）]*[)）]/g, " ").trim();
  }

  /* the subject of the heading a sub-section sits under ("Quantization" for "Why fewer bits are not
     automatically faster"): with its own title, what the section is about */
  function parentSubject(page, sub) {
    var own = sub.anchor && /^h(\d)$/i.exec(sub.anchor.element || "");
    if (!own) return "";
    var parents = (page.anchors || []).filter(function (a) {
      var level = /^h(\d)$/i.exec(a.element || "");
      return level && +level[1] < +own[1] && a.location < sub.anchor.location;
    }).sort(function (a, b) { return a.location - b.location; });
    return parents.length ? subjectOfTitle(parents[parents.length - 1].text || "") : "";
  }

  /* how many of a question's words the section's heading holds, with the heading above it: two or
     more say what the section answers ("why isn't quantization faster": Quantization › Why fewer
     bits are not automatically faster); one alone says no more than a term's title does (0) */
  /* does `text` hold the term that `word` names, by any of its names (投机解码 is held as 推测解码)? */
  function holdsNamed(text, word) {
    return mentions(text, namesOf(word));
  }

  function headingHolds(heading, words) {
    var named = words.filter(function (word) { return termsOf(word).length; });
    if (named.length && !named.some(function (word) { return holdsNamed(heading, word); })) return 0; /* about another term */
    var held = words.filter(function (word) { return mentions(heading, [word]); }).length;
    return held >= 2 ? held : 0;
  }

  function titleLevel(title, query, names) {
    var subject = subjectOfTitle(title);
    if (names.some(function (name) { return flat(name) === flat(subject); })) return 4;
    if (names.some(function (name) { return holds(subject, name); })) return 3;
    if (names.some(function (name) { return holds(title, name); })) return 2;
    var have = words(title);
    var wanted = words(query);
    return wanted.length && wanted.every(function (word) {
      return have.some(function (w) { return w.indexOf(word) === 0 || word.indexOf(w) === 0 && w.length > 3; });
    }) ? 1 : 0;
  }

  function weight(sub) {
    return (sub.weighted_locations || []).reduce(function (sum, place) { return sum + (place.balanced_score || place.weight || 1); }, 0)
      || (sub.locations || []).length;
  }

  /* the language code a result's address names (…/<code>/page.html) */
  function languageOf(url) {
    var match = /\/([a-z]{2,3})\/[^/]*$/.exec(url.split("#")[0]);
    return match ? match[1] : "";
  }

  /* does the page's text hold one of the names, each word whole or as the start of a word (Latin)
     and each Chinese run as it is? The index also answers a word it lacks with a shorter one
     ("xyzzyq" with the "x" of a formula) and Chinese by single characters (显存 with 缓存's 存). */
  function mentions(text, names) {
    var have = words(text);
    var chars = flat(text);
    return names.some(function (name) {
      var wanted = words(name);
      return wanted.length > 0 && wanted.every(function (word) {
        if (HAS_HAN.test(word)) return chars.indexOf(word) >= 0;
        return have.some(function (w) { return w.indexOf(word) === 0 || (w.length >= 4 && word.indexOf(w) === 0); });
      });
    });
  }

  /* does `text` hold one word at least of the names: a Latin word as the start of a word, a
     Chinese word of two characters or more whole (cut into words by the browser's Intl.Segmenter:
     扩散式并行解码 -> 扩散, 并行, 解码), never a single character of one? */
  function touches(text, names) {
    var units = [];
    names.forEach(function (name) {
      words(name).forEach(function (word) {
        if (!HAS_HAN.test(word)) { units.push(word); return; }
        var pieces = SEGMENTER ? Array.from(SEGMENTER.segment(word), function (part) { return part.segment; }) : [word];
        pieces.forEach(function (piece) { if (piece.length >= 2 && HAS_HAN.test(piece)) units.push(piece); });
        if (word.length >= 2) units.push(word);
      });
    });
    return units.length > 0 && mentions(text, units);
  }

  /* every name of every glossary term, longest first (a longer name is matched before the names it
     holds), alphabetical among equals */
  /* the hits that hold what was asked (not only a term the question names on its way, rank()):
     whether they are none, or on one page, decides the searches that follow */
  function answering(hits) {
    return hits.filter(function (hit) { return hit.asked !== false; });
  }

  /* whether the hits (none, or all) are sections of one page */
  function onOnePage(hits) {
    var pageOf = function (hit) { return hit.url.split("#")[0]; };
    return hits.every(function (hit) { return pageOf(hit) === pageOf(hits[0]); });
  }

  function glossaryNames() {
    var all = [];
    (window.AtlasSearchTerms || []).forEach(function (group) { all = all.concat(group); });
    return all.sort(function (a, b) { return b.length - a.length || (a < b ? -1 : 1); });
  }

  /* The words of the subject that decide the ranking, when it is more than one name ("显存不够" ->
     显存, 不够; "first token slow" -> first, token, slow): the glossary names it holds, longest first,
     then its other words (Chinese cut into words by the browser's Intl.Segmenter; a single character
     is no key). [] when the subject is one name or one word: it is then searched and ranked as it is. */
  var SEGMENTER = typeof Intl !== "undefined" && Intl.Segmenter ? new Intl.Segmenter("zh", { granularity: "word" }) : null;
  function keysOf(subject) {
    var canon = " " + subject.replace(/[A-Za-z]+/g, american) + " ";
    var keys = [];
    glossaryNames().forEach(function (name) {
      if (!HAS_HAN.test(name) && flat(name).length < 3) return; /* "KV", "TP": parts of other names */
      var pattern = name.replace(/[A-Za-z]+/g, american).trim().split(/[\s-]+/).map(escaped).join("[\\s-]*");
      var edge = HAS_HAN.test(name) ? "" : "(?![a-z0-9])";
      var found = new RegExp((HAS_HAN.test(name[0]) ? "" : "(?<![a-z0-9])") + pattern + edge, "i").exec(canon);
      if (!found) return;
      if (!keys.some(function (key) { return flat(key) === flat(name); })) keys.push(name);
      canon = canon.slice(0, found.index) + " " + canon.slice(found.index + found[0].length);
    });
    canon.split(/[^A-Za-z0-9\u3400-\u9fff\uf900-\ufaff]+/).forEach(function (chunk) {
      if (!chunk) return;
      var pieces = HAS_HAN.test(chunk) && SEGMENTER
        ? joinSingles(Array.from(SEGMENTER.segment(chunk), function (part) { return part.segment; }))
        : [chunk];
      pieces.forEach(function (piece) {
        if (piece.length >= 2 && !QUESTION_WORDS.test(piece.toLowerCase()) && keys.indexOf(piece) < 0) keys.push(piece);
      });
    });
    return keys.length > 1 || (keys.length === 1 && flat(keys[0]) !== flat(subject)) ? keys : [];
  }

  /* Characters the segmenter left single next to each other are one word: it knows 内存 but not
     带宽 or 变快, and cut 受内存带宽限制 into 受 / 内存 / 带 / 宽 / 限制, so the question lost what it
     was about (review 31-i #1). A single character between longer words stays single (受). */
  function joinSingles(pieces) {
    var out = [];
    pieces.forEach(function (piece, i) {
      var single = piece.length === 1 && HAS_HAN.test(piece);
      var previous = i > 0 && pieces[i - 1].length === 1 && HAS_HAN.test(pieces[i - 1]);
      if (single && previous) out[out.length - 1] += piece;
      else out.push(piece);
    });
    return out;
  }

  /* Does `text` hold the term that `key`, a glossary name, names: one of its names (解码 or Decode
     for 解码阶段), but not only inside a longer glossary name of another term (the 解码 of 推测解码,
     the "decoding" of "speculative decoding")? */
  var LONGER = {}; /* key -> [its names, the patterns of the longer names of other terms holding one] */
  function holdsTerm(text, key) {
    if (!LONGER[key]) {
      var names = namesOf(key);
      LONGER[key] = [names, glossaryNames().filter(function (other) {
        return names.indexOf(other) < 0 && flat(other).length > Math.min.apply(null, names.map(function (n) { return flat(n).length; })) && mentions(other, names);
      }).map(function (other) {
        return new RegExp(other.trim().split(/[\s-]+/).map(escaped).join("[\\s-]*") + (HAS_HAN.test(other) ? "" : "[A-Za-z]*"), "gi");
      })];
    }
    var rest = text;
    LONGER[key][1].forEach(function (pattern) { rest = rest.replace(pattern, " "); });
    return mentions(rest, LONGER[key][0]);
  }

  /* The glossary's Chinese names that hold a Chinese word of the query inside them ("缓存" ->
     键值缓存, 前缀缓存), longest word first, at most three: searched as well, since the index finds a
     word by its start only (its Chinese words are whole: 键值缓存 is not found by 缓存). */
  function containing(subject) {
    var all = glossaryNames();
    var out = [];
    subject.split(" ").filter(function (word) { return HAS_HAN.test(word) && word.length >= 2; })
      .sort(function (a, b) { return b.length - a.length; })
      .forEach(function (word) {
        all.forEach(function (name) {
          var flatName = name.replace(/\s+/g, "");
          if (HAS_HAN.test(name) && flatName.length > word.length && flatName.indexOf(word) > 0 && out.indexOf(name) < 0) out.push(name);
        });
      });
    return out.slice(0, 3);
  }

  /* does the section (its anchor's place to the next heading's) define one of the terms: a <dfn>
     of the term there (Pagefind keeps each element with an id as an anchor: term-<id>)? */
  /* is `url` ("/zh/ch2-memory.html#q1") the section where the book first defines one of `terms`
     ("ch2#q1": a chapter published as several pages is ch2-<part>.html)? */
  function isHome(url, terms) {
    var ids = window.AtlasSearchTermIds || [];
    var homes = window.AtlasSearchTermHomes || [];
    var file = url.split("#")[0].split("/").pop().replace(/\.html$/, "");
    var section = url.split("#")[1] || "";
    return terms.some(function (term) {
      var home = homes[ids.indexOf(term)] || "";
      var page = home.split("#")[0];
      return home && home.split("#")[1] === section && (file === page || file.indexOf(page + "-") === 0);
    });
  }

  function defines(page, sub, terms) {
    if (!terms.length) return false;
    var anchors = page.anchors || [];
    var from = sub.anchor ? sub.anchor.location : 0;
    var next = anchors.filter(function (a) { return /^h\d$/i.test(a.element || "") && a.location > from; })
      .map(function (a) { return a.location; }).sort(function (a, b) { return a - b; })[0];
    return anchors.some(function (a) {
      return /^dfn$/i.test(a.element || "") && a.location >= from && (next === undefined || a.location < next)
        && terms.indexOf(String(a.id || "").replace(/^term-/, "")) >= 0;
    });
  }

  /* every section of every page found (each search: one name of the query, or one of its keys),
     best first: by its title (or its definition of a term the query names), then by how much of what
     the query asks about it holds (each key weighted by how few sections hold it), then by Pagefind's
     weights */
  function rank(found, query, names, keys, terms, words, together) {
    keys = keys || [];
    terms = terms || [];
    var byUrl = {};
    var list = [];
    var keyNames = (words || keys).filter(function (key) { return termsOf(key).length; });
    /* the sections titled by a term the question names are found for it too (searched on their
       own, run()), though they lack the question's other words ("why does decode not use the gpu
       fully": Decode; review 31-n #1) */
    var titledOnly = !keys.length && keyNames.length;
    found.forEach(function (page) {
      var whole = ((page.meta && page.meta.title) || "") + " " + (page.content || "");
      var asked = mentions(whole, names) || (keys.length && mentions(whole, keys));
      if (!asked && !titledOnly) return;
      var subs = page.sub_results && page.sub_results.length ? page.sub_results : [page];
      var pageTitle = (page.meta && page.meta.title) || page.url;
      subs.forEach(function (sub) {
        var url = sub.url || page.url;
        var hit = byUrl[url];
        if (!hit) {
          var title = sub.title || pageTitle;
          /* the section itself holds a word of what was asked (a Chinese word whole): Pagefind
             answers a Chinese word with its single characters ("缓存" found the 存 of 保存 and 显存) */
          var own = title + " " + sectionOf(page, sub === page ? {} : sub).text;
          /* a term the question names counts by any of its names (投机解码 is held as 推测解码) */
          var named = keyNames.some(function (key) { return holdsNamed(own, key); });
          if (sub !== page && !touches(own, names.concat(keys)) && !named && !(titledOnly && !asked)) return;
          var keyLevel = 0;
          keyNames.forEach(function (key) { keyLevel = Math.max(keyLevel, titleLevel(title, key, namesOf(key))); });
          if (!asked && keyLevel < 4) return;
          var level = titleLevel(title, query, names);
          /* a section defining a term the query names: the book's own first definition of it first */
          if (level < 2.5 && defines(page, sub === page ? {} : sub, terms)) level = isHome(url, terms) ? 2.75 : 2.5;
          /* a key that is a glossary name, as the title's subject: after how much of the question the
             section holds ("why isn't quantization faster" is not the section on quantization) */
          var heading = (sub === page ? "" : parentSubject(page, sub)) + " " + title;
          hit = byUrl[url] = { title: title, page: pageTitle, url: url, lang: languageOf(url), section: sectionOf(page, sub === page ? {} : sub),
                               level: level, keyLevel: keyLevel, weight: 0, cover: 0, asked: !!asked, named: named ? 1 : 0,
                               heading: words && words.length > 1 ? headingHolds(heading, words) : 0 };
          list.push(hit);
        }
        hit.weight += weight(sub);
      });
    });
    if (keys.length) {
      /* a key most sections hold (a word like "token") says less than one few do */
      var held = list.map(function (hit) {
        var text = hit.title + " " + hit.section.text;
        return keys.map(function (key) { return keyNames.indexOf(key) >= 0 ? holdsTerm(text, key) : mentions(text, [key]); });
      });
      keys.forEach(function (key, k) {
        var count = held.filter(function (has) { return has[k]; }).length;
        var worth = Math.log(1 + list.length / (count || 1));
        /* in the title it counts twice: the title says what the section is about */
        var named = keyNames.indexOf(key) >= 0;
        list.forEach(function (hit, i) {
          if (held[i][k]) hit.cover += worth * ((named ? holdsTerm(hit.title, key) : mentions(hit.title, [key])) ? 2 : 1);
        });
      });
    }
    /* a run of Chinese words typed together names one thing: it is answered first by the sections
       that hold every one of its words, in their title or text ("显存碎片": 分配与碎片, not 权重显存,
       whose title holds only 显存: review 31-s #1). Questions keep the order below: ranking them so
       lost 11 of the query set's 164, and "显存不够怎么办" too */
    if (together && words && words.length > 1) {
      list.forEach(function (hit) {
        var text = hit.title + " " + hit.section.text;
        hit.all = words.every(function (word) { return termsOf(word).length ? holdsTerm(text, word) : mentions(text, [word]); }) ? 1 : 0;
      });
    }
    /* a question that names two terms of the glossary or more asks how they meet: the sections
       that hold every one of them come first ("does quantization shrink the KV cache": the section
       on KV quantization, not the KV cache's definition; review 31-u #1). Only the terms count: the
       question's other words ("shrink") ranked this way lost queries (see above) */
    var seen = {};
    var distinct = (words || []).filter(function (word) {
      var term = termsOf(word)[0];
      if (!term || seen[term]) return false;
      seen[term] = true;
      return true;
    });
    if (!together && distinct.length > 1) {
      /* the terms may meet in a term of their own, whose name holds them all ("KV quantization"
         for KV cache and quantization): a section on it holds them all, and first where its title does */
      var joint = glossaryNames().filter(function (name) {
        return distinct.every(function (word) { return mentions(name, namesOf(word)); });
      });
      var holdsAll = function (text) {
        return distinct.every(function (word) { return holdsTerm(text, word); }) || joint.some(function (name) { return holds(text, name); });
      };
      list.forEach(function (hit) {
        hit.all = holdsAll(hit.title) ? 2 : holdsAll(hit.title + " " + hit.section.text) ? 1 : 0;
      });
    }
    /* a question that names a term asks about it: the sections that hold it come first (review 31-o
       #1: "投机解码一定更快吗" led to a section on quantization that is "not necessarily faster") */
    return list.sort(function (a, b) { return (b.all || 0) - (a.all || 0) || b.level - a.level || b.heading - a.heading || b.named - a.named || b.cover - a.cover || b.keyLevel - a.keyLevel || b.weight - a.weight; });
  }

  /* the pure parts, for the engine's tests (labs_js/tests/search-engine.test.js) */
  window.AtlasSearchText = { onOnePage: onOnePage, answering: answering, tidy: tidy, sectionOf: sectionOf, excerptParts: excerptParts, corrected: corrected, oneEdit: oneEdit, finder: finder,
                              subjectOf: subjectOf, keysOf: keysOf, rank: rank, touches: touches, naming: naming, containing: containing, isHome: isHome, american: american, british: british, otherSpellings: otherSpellings };

  window.AtlasSearch = function (form, offline) {
    var input = form.querySelector("input[type=search]");
    var status = form.querySelector("[data-search-status]");
    var list = form.querySelector("[data-search-results]");
    var base = form.getAttribute("data-root") || "";
    /* the site's root as an absolute address (the site may be served under a sub-path, /book/…):
       every address the results link to is resolved against it, never joined by hand */
    var root = new URL(base || "./", window.location.href);
    var own = form.getAttribute("data-lang");
    var message = function (key) { return form.getAttribute("data-msg-" + key) || ""; };
    /* the other languages, from the language switch: code, Pagefind's language and name */
    var others = Array.prototype.map.call(document.querySelectorAll("[data-lang-switch]"), function (link) {
      return { code: link.getAttribute("hreflang"), index: (link.getAttribute("lang") || "").toLowerCase(), name: link.textContent.trim() };
    });
    /* an address in the site ("/zh/ch1.html#q2", "zh/glossary.html#term-kv") as an absolute one
       under the site's root */
    function siteAddress(path) {
      return new URL(String(path).replace(/^\/+/, ""), root).href;
    }
    var pagefind = null;
    var merged = null;
    var pending = 0; /* the number of the latest search: an older one that ends later is dropped */

    /* Pagefind's module and the glossary's names (a classic script, assets/search-terms.js) */
    function load() {
      if (pagefind) return Promise.resolve(pagefind);
      var terms = new Promise(function (resolve) {
        var script = document.createElement("script");
        script.src = base + "assets/search-terms.js";
        script.onload = script.onerror = resolve;
        document.head.appendChild(script);
      });
      return Promise.all([import(new URL("pagefind/pagefind.js", root).href), terms]).then(function (loaded) {
        /* each index's addresses as they were indexed, from the site's root ("/zh/ch1.html#q2"):
           Pagefind's own guess joins a merged index's relative path into "/../zh/…" */
        return Promise.resolve(loaded[0].options({ baseUrl: "/" })).then(function () {
          pagefind = loaded[0];
          /* the index's metadata and its WebAssembly start on their way now, while the reader is
             still at the box, not at the first search (review 31-q #5: on a loaded phone the first
             query waited for all of it); a failure here is the search's to report */
          Promise.resolve(pagefind.init && pagefind.init()).catch(function () {});
          return pagefind;
        });
      });
    }

    /* the other languages' indexes, merged into the search once they are needed */
    function mergeOthers() {
      if (!merged) {
        merged = Promise.all(others.map(function (other) {
          return pagefind.mergeIndex(new URL("pagefind/", root).href, { language: other.index, baseUrl: "/" });
        }));
      }
      return merged;
    }

    /* the pages each name finds, one search after the other: a result's data (its sections and
       their weights) is read for the search that found it, before the next search starts */
    function searchAll(names) {
      var pages = [];
      return names.reduce(function (previous, name) {
        return previous.then(function () { return pagefind.search(name); }).then(function (search) {
          return Promise.all((search ? search.results : []).map(function (result) { return result.data(); }));
        }).then(function (data) { pages = pages.concat(data); });
      }, Promise.resolve()).then(function () { return pages; });
    }

    var close = form.querySelector(".search-close"); /* made by search.js */

    /* the index's Latin words and Chinese names, for typo tolerance: fetched the first time a query
       finds nothing */
    var vocabulary = null;
    function knownWords() {
      if (!vocabulary) {
        /* and its Chinese names (its definitions' and headings'), for a Chinese typo */
        vocabulary = Promise.all(["atlas-words.json", "atlas-names.json"].map(function (file) {
          return fetch(base + "pagefind/" + file).then(function (response) { return response.ok ? response.json() : []; })
            .catch(function () { return []; });
        })).then(function (lists) { return lists[0].concat(lists[1]); });
      }
      return vocabulary;
    }

    /* The glossary's entries for the terms the query names, from the page's card data
       (assets/previews-<lang>.js, cards.js): [] where the book has no glossary page. */
    function termsData(ids) {
      if (!ids.length) return Promise.resolve([]);
      var ready = window.AtlasPreviews ? Promise.resolve() : new Promise(function (resolve) {
        var meta = document.querySelector("meta[name='atlas-previews']");
        if (!meta) { resolve(); return; }
        var script = document.createElement("script");
        script.src = meta.getAttribute("content");
        script.onload = script.onerror = function () { resolve(); };
        document.head.appendChild(script);
      });
      return ready.then(function () {
        var data = window.AtlasPreviews || {};
        if (!data.glossary || !data.terms) return [];
        return ids.filter(function (id) { return data.terms[id]; }).slice(0, 2).map(function (id) {
          return { id: id, info: data.terms[id] };
        });
      });
    }

    /* a glossary entry above the sections: "Glossary: KV cache", its definition, its link */
    function termResult(term, names) {
      var item = element("li", "search-term"); /* not a .search-result: the sections keep their list */
      var name = term.info.name + (term.info.abbr && term.info.abbr !== term.info.name ? " (" + term.info.abbr + ")" : "");
      var link = element("a", "search-term-link", message("glossary").replace("{name}", name));
      link.href = siteAddress(own + "/glossary.html#term-" + term.id);
      item.appendChild(link);
      var text = element("p", "search-excerpt");
      text.appendChild(highlighted(term.info.definition, finder(names)));
      item.appendChild(text);
      return item;
    }

    function clear() {
      while (list.firstChild) list.removeChild(list.firstChild);
    }
    function busy(on) {
      form.classList.toggle("is-busy", on);
      list.setAttribute("aria-busy", String(on));
    }
    function dismiss() {
      pending++;
      clear();
      busy(false);
      status.textContent = "";
      close.hidden = true;
      list.removeAttribute("data-query");
    }

    /* the status: how many sections are shown of how many, in which language, read as what */
    function counted(shown, total, other, reading) {
      var count = total > shown ? message("count-of").replace("{n}", String(shown)).replace("{total}", String(total))
        : total === 1 ? message("count-one") : message("count").replace("{n}", String(total));
      var said = !total ? message("none") : other ? message("other").replace("{lang}", other.name).replace("{count}", count) : count;
      return reading && total ? message("corrected").replace("{query}", reading).replace("{count}", said) : said;
    }

    /* one result: its title (a link), its page, its excerpt */
    function resultOf(hit, other, names) {
      var item = element("li", "search-result");
      var link = element("a", "search-link", hit.title);
      link.href = siteAddress(hit.url);
      if (other) {
        link.hreflang = other.code;
        item.lang = other.index;
      }
      item.appendChild(link);
      if (hit.page !== hit.title) item.appendChild(element("p", "search-page", hit.page));
      var excerpt = element("p", "search-excerpt");
      excerpt.appendChild(excerptOf(hit, names, /^(zh|ja)/.test(hit.lang || own)));
      item.appendChild(excerpt);
      return item;
    }

    /* The first SHOWN results, and a "Show more" button (the list's last item) that adds the next
       SHOWN: the status says how many are shown now, and focus moves to the first one added. */
    function render(hits, query, other, names, terms, reading) {
      clear();
      terms.forEach(function (term) { list.appendChild(termResult(term, names)); });
      var shown = 0;
      var more = element("li", "search-more");
      var button = element("button", "search-more-button", message("more"));
      button.type = "button";
      more.appendChild(button);
      function show(count) {
        var first = null;
        hits.slice(shown, shown + count).forEach(function (hit) {
          var item = resultOf(hit, other, names);
          list.insertBefore(item, more.parentNode ? more : null);
          first = first || item;
        });
        shown = Math.min(hits.length, shown + count);
        status.textContent = counted(shown, hits.length, other, reading);
        if (shown >= hits.length && more.parentNode) list.removeChild(more);
        return first;
      }
      show(SHOWN);
      if (shown < hits.length) list.appendChild(more);
      button.addEventListener("click", function (event) {
        event.stopPropagation(); /* the results stay open */
        var first = show(SHOWN);
        if (first) first.querySelector("a").focus();
      });
      close.hidden = !hits.length && !terms.length;
      list.setAttribute("data-query", query);
      busy(false);
    }

    /* Sections in the page's language; when there are none, or the query is written in Chinese on
       a page that is not, those of the first other language that has some. */
    function run(query, relaxed) {
      var subject = subjectOf(query);
      var names = namesOf(subject);
      /* a question's words: the glossary names among them rank what it finds by the titles
         (the section titled by the term asked about first: Decode for 解码为什么慢, not 推测解码); all
         of them are searched each on their own, and rank by how many a section holds, only when it
         finds nothing as typed */
      var words = keysOf(subject);
      var keys = relaxed ? words : [];
      /* a run of Chinese typed without spaces is also asked as its words (显存碎片: 显存 碎片): the
         index holds them apart, and the run whole is in no section (review 31-o #1) */
      var spaced = !relaxed && /^[\u3400-\u9fff\uf900-\ufaff]+$/.test(subject) && words.length > 1
        && words.every(function (word) { return HAS_HAN.test(word); }) ? words.join(" ") : "";
      if (spaced && names.indexOf(spaced) < 0) names = names.concat([spaced]);
      /* the terms whose definition ranks a section up: those the query names as a whole, not every
         term a question mentions on its way (解码为什么受带宽限制 does not ask what decode is) */
      var terms = termsOf(subject);
      var chinese = /^(zh|ja)/.test(own);
      var foreign = HAS_HAN.test(query) && !chinese;
      var searched = function () {
        /* the names, the subject in the other spelling, and each key of a question on its own
           (a word that is in no section does not then hide the sections that hold the others) */
        var asked = searchedNames(names, chinese || merged).concat(otherSpellings(subject));
        keys.slice(0, 4).forEach(function (key) {
          if ((chinese || merged || !HAS_HAN.test(key)) && asked.indexOf(key) < 0) asked.push(key);
          /* a key that is one name of a term is found by the names the index holds (投机解码: 推测解码) */
          if (termsOf(key).length) {
            searchedNames(namesOf(key), chinese || merged).slice(1).sort(function (a, b) {
              return chinese ? HAS_HAN.test(b) - HAS_HAN.test(a) : HAS_HAN.test(a) - HAS_HAN.test(b); /* the page's script first */
            }).slice(0, 2).forEach(function (name) {
              if (asked.indexOf(name) < 0) asked.push(name);
            });
          }
        });
        /* and, as typed, the terms a question names on its way: their own sections (rank()) */
        if (!keys.length && words.length > 1) {
          words.filter(function (word) { return termsOf(word).length; }).slice(0, 2).forEach(function (word) {
            if ((chinese || merged || !HAS_HAN.test(word)) && asked.indexOf(word) < 0) asked.push(word);
          });
        }
        if (chinese || merged) containing(subject).forEach(function (name) { if (asked.indexOf(name) < 0) asked.push(name); });
        /* words typed together as a name, not a question ("显存碎片", not "显存不够怎么办") */
        var together = !!spaced && query.replace(ZH_QUESTION, "") === query;
        return searchAll(asked).then(function (pages) { return rank(pages, subject, names, keys, terms, words, together); });
      };
      return (foreign ? mergeOthers() : Promise.resolve()).then(searched).then(function (hits) {
        var mine = hits.filter(function (hit) { return hit.lang === own; });
        if (mine.length && !foreign) return { hits: mine };
        return (merged ? Promise.resolve(hits) : mergeOthers().then(searched)).then(function (all) {
          for (var i = 0; i < others.length; i++) {
            var code = others[i].code;
            var theirs = all.filter(function (hit) { return hit.lang === code; });
            if (theirs.length) return { hits: theirs, other: others[i] };
          }
          return { hits: mine };
        });
      });
    }

    function search() {
      var query = normalise(input.value);
      var ticket = ++pending;
      if (!query) { dismiss(); return; }
      busy(true);
      if (!list.firstChild) status.textContent = message("busy");
      load().then(function () {
        /* the index's pieces for what is typed so far are fetched during the pause, not after it */
        if (pagefind.preload) Promise.resolve(pagefind.preload(query)).catch(function () {});
        return new Promise(function (resolve) { setTimeout(resolve, 150); }); /* wait for the typing to pause */
      }).then(function () {
        return ticket === pending ? run(query) : null;
      }).then(function (found) {
        if (!found || ticket !== pending) return null;
        /* nothing as typed: the query read with a typo mended, if the index has the word */
        var reading = answering(found.hits).length ? null : knownWords().then(function (known) {
          return corrected(subjectOf(query), known.concat(glossaryNames()));
        });
        return Promise.resolve(reading).then(function (mended) {
          if (!mended || ticket !== pending) return { found: found, reading: null };
          return run(mended).then(function (again) { return { found: again, reading: again.hits.length ? mended : null }; });
        }).then(function (result) {
          /* still nothing, or only one page's sections (the words typed together on one page:
             "量化 精度损失" found only the page that says 精度损失): a question's subject words each on
             their own, the sections that hold most of them first ("显存不够怎么办": 显存, 不够) */
          if (!onOnePage(answering(result.found.hits)) || ticket !== pending || !keysOf(subjectOf(query)).length) return result;
          return run(query, true).then(function (loose) { return loose.hits.length ? { found: loose, reading: null } : result; });
        }).then(function (result) {
          var said = result.reading || subjectOf(query);
          var names = namesOf(subjectOf(said));
          return termsData(termsOf(subjectOf(said))).then(function (terms) {
            if (ticket === pending) render(result.found.hits, query, result.found.other, names, terms, result.reading);
          });
        });
      }).catch(function () {
        if (ticket === pending) { busy(false); status.textContent = offline; }
      });
    }

    form.addEventListener("atlas-search-dismiss", dismiss);
    document.addEventListener("keydown", function (event) {
      if (event.key !== "Escape" || !(list.firstChild || status.textContent)) return;
      /* the reader stays at the box they were using (review 31-x #3: focus fell to the body) */
      var inside = form.contains(document.activeElement);
      dismiss();
      if (inside) input.focus();
    });
    /* the keyboard's way into the results: Enter opens the first, the arrows walk the links and the
       arrow up from the first comes back to the box (review 31-x #3: they did nothing) */
    function links() { return Array.prototype.slice.call(list.querySelectorAll("a[href]")); }
    form.addEventListener("submit", function () {
      var first = links()[0];
      if (first && document.activeElement === input) first.click();
    });
    form.addEventListener("keydown", function (event) {
      if (event.key !== "ArrowDown" && event.key !== "ArrowUp") return;
      var all = links();
      if (!all.length) return;
      var at = all.indexOf(document.activeElement);
      var next = event.key === "ArrowDown" ? (at < 0 && document.activeElement === input ? 0 : at + 1) : at - 1;
      if (at < 0 && document.activeElement !== input) return;
      event.preventDefault();
      if (next < 0) input.focus();
      else if (next < all.length) all[next].focus();
    });
    document.addEventListener("click", function (event) {
      if ((list.firstChild || status.textContent) && !form.contains(event.target)) dismiss();
    });
    /* following a result closes the results, also when it points into this page; there focus
       goes to the result's target (a heading takes it with tabindex="-1"), once the browser has
       scrolled to it, so the next Tab goes on from there, not from the top of the page (review
       31-f #9: it was left on the body) */
    list.addEventListener("click", function (event) {
      var link = event.target.closest("a");
      if (!link) return;
      dismiss();
      input.blur();
      if (event.defaultPrevented || event.button || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
      if (link.pathname !== window.location.pathname || link.search !== window.location.search || !link.hash) return;
      var id = link.hash.slice(1).split("?")[0];
      try { id = decodeURIComponent(id); } catch (e) { /* the id as written */ }
      window.setTimeout(function () {
        var target = document.getElementById(id);
        if (!target) return;
        if (!target.matches("a[href], button, input, select, textarea, summary, [tabindex]")) target.setAttribute("tabindex", "-1");
        target.focus({ preventScroll: true });
      }, 0);
    });
    window.addEventListener("hashchange", dismiss);
    input.addEventListener("input", search);
    if (input.value) search();
    /* this script came because the reader came to the box: Pagefind and its index start on their
       way before the first key, not after it (a failure is reported by the search that needs it) */
    else load().catch(function () {});
  };
})();
