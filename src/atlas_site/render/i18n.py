"""Interface words of the site in both languages (content words live in the ledgers)."""
from __future__ import annotations

UI = {
    "site": {"zh": "LLM 图谱", "en": "LLM Atlas"},
    "lang_name": {"zh": "中文", "en": "English"},
    "switch": {"zh": "English", "en": "中文"},
    "contents": {"zh": "本页目录", "en": "On this page"},
    "skip": {"zh": "跳到正文", "en": "Skip to content"},
    "bibliography": {"zh": "参考文献", "en": "Bibliography"},
    "home": {"zh": "目录", "en": "Contents"},
    "author_reported": {"zh": "作者报告", "en": "author-reported"},
    "benchmark_result": {"zh": "基准结果", "en": "benchmark result"},
    "teaching_assumption": {"zh": "教学假设", "en": "teaching assumption"},
    "analytic": {"zh": "解析模型", "en": "analytic model"},
    "setting": {"zh": "设置", "en": "setting"},
    "figure": {"zh": "图", "en": "Figure"},
    "source": {"zh": "来源", "en": "Source"},
    "structural-sketch": {"zh": "结构示意", "en": "structural sketch"},
    "analytic-model": {"zh": "解析模型", "en": "analytic model"},
    "redrawn-from-report": {"zh": "依据报告机制重绘", "en": "redrawn from the report's mechanism"},
    "node": {"zh": "节点", "en": "Node"},
    "year": {"zh": "年份", "en": "Year"},
    "role": {"zh": "本章角色", "en": "Role in this chapter"},
    "numbers": {"zh": "账本编号", "en": "Ledger numbers"},
    "evidence": {"zh": "证据类别", "en": "Evidence class"},
    "accessed": {"zh": "访问日期", "en": "Accessed"},
    "material_date": {"zh": "材料日期", "en": "Material date"},
    "scope": {"zh": "核验范围", "en": "Verification scope"},
    "unresolved": {"zh": "URL 未解析：列为开放的证据缺口，不作猜测", "en": "URL unresolved: listed as an open evidence gap, never guessed"},
    "url_status": {"zh": "URL 来源", "en": "URL resolved by"},
    "cited_from": {"zh": "引用位置", "en": "Cited from"},
    "not_cited": {"zh": "尚未被正文引用", "en": "not cited in the prose yet"},
    "gaps": {"zh": "开放的证据缺口", "en": "Open evidence gaps"},
    "wrong": {"zh": "常见误写", "en": "Common mistake"},
    "last_verified": {"zh": "最后核验", "en": "Last verified"},
    "draft": {"zh": "草稿：本页尚未通过全部发布闸门", "en": "Draft: this page has not yet passed every release gate"},
    "prev": {"zh": "上一页", "en": "Previous"},
    "next": {"zh": "下一页", "en": "Next"},
    "theme": {"zh": "切换深色/浅色", "en": "Toggle dark/light"},
    "misconception": {"zh": "误解与纠正", "en": "Misconception, corrected"},
    "lineage_deepseek": {"zh": "DeepSeek 推理服务谱系", "en": "The DeepSeek serving lineage"},
    "lineage_kimi": {"zh": "Mooncake → K3 混合缓存谱系", "en": "The Mooncake → K3 hybrid-cache lineage"},
    "note": {"zh": "注", "en": "Note"},
    "caution": {"zh": "边界", "en": "Boundary"},
    "bib_intro": {
        "zh": "每个不同的作品只列一次；同一作品的摘要页、全文、模型卡或工程文档不算独立证据，它们的全部账本编号都列在这一条下。",
        "en": "Each distinct work is listed once; an abstract page, full text, model card or engineering doc of the same work is not independent evidence, so all of its ledger numbers sit under its one entry.",
    },
    "choose": {"zh": "选择语言", "en": "Choose a language"},
    "open": {"zh": "开放问题", "en": "Open question"},
}
URL_STATUS = {
    "seed": {"zh": "种子账本给出", "en": "given by the seed ledger"},
    "known": {"zh": "已知规范地址", "en": "known canonical address"},
    "searched": {"zh": "检索确认", "en": "confirmed by search"},
    "unresolved": {"zh": "未解析", "en": "unresolved"},
}


def ui(key: str, lang: str) -> str:
    return UI[key][lang]
