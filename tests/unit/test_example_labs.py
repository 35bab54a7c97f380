"""A worked example that a lab shows (ledger `lab:`): the build runs the lab's own function in the
example's state and links the example to the lab only when the lab shows its number; a wrong state,
an output the lab lacks, a number the lab does not show, a lab no page places, and a hand-written
link to a lab state that cannot be restored each fail with the example's or the link's place."""

from __future__ import annotations

import json

from conftest import MEMORY_LAB, run_cli, with_memory_lab


def test_an_example_the_lab_shows_links_to_the_lab_in_its_state(mini):
    with_memory_lab(mini)
    built = run_cli("build", "--no-search", cwd=mini)
    assert built.returncode == 0, built.stdout + built.stderr
    state = "lab-memory-panel?attention=gqa&amp;layers=32&amp;kv_heads=8&amp;head_dim=128&amp;kv_bits=16"
    for lang in ("zh", "en"):
        numbers = (mini / f"_site/{lang}/numbers.html").read_text(encoding="utf-8")
        assert f'<a class="numbers-lab" href="ch14.html#{state}">' in numbers
    data = json.loads((mini / "_site/examples.json").read_text(encoding="utf-8"))
    (example,) = data["examples"]
    assert example["lab"] == {
        "id": "memory",
        "state": {"attention": "gqa", "layers": 32, "kv_heads": 8, "head_dim": 128, "kv_bits": 16},
        "shows": {"kib_per_token": "kv_kib_per_token"},
        "links": {lang: f"{lang}/ch14.html#{state.replace('&amp;', '&')}" for lang in ("zh", "en")},
    }


def test_a_link_the_lab_cannot_keep_fails_the_build_at_the_example(mini):
    cases = {
        "lab: {state: {layers: 32, colour: 3}, shows: {kib_per_token: kv_kib_per_token}}": (
            "error[example.lab-state]: kv-per-token: lab 'memory': the lab has no input 'colour'"
        ),
        "lab: {state: {layers: 9999}, shows: {kib_per_token: kv_kib_per_token}}": (
            "error[example.lab-state]: kv-per-token: lab 'memory': layers = 9999 lies outside 1..256"
        ),
        "lab: {state: {attention: sparse}, shows: {kib_per_token: kv_kib_per_token}}": (
            "error[example.lab-state]: kv-per-token: lab 'memory': attention = 'sparse' is not one of mha, gqa, mla, kda_hybrid"
        ),
        "lab: {state: {layers: 32}, shows: {kib_per_token: kv_per_token}}": (
            "error[example.lab-output]: kv-per-token: lab 'memory' has no output 'kv_per_token'"
        ),
        "lab: {id: cache, state: {layers: 32}, shows: {kib_per_token: kv_kib_per_token}}": (
            "error[example.lab-unknown]: kv-per-token: no lab 'cache' in the ledger"
        ),
        # 16 layers hold half the KV: the lab shows 64, the example prints 128
        "lab: {state: {layers: 16}, shows: {kib_per_token: kv_kib_per_token}}": (
            "error[example.lab-mismatch]: kv-per-token.kib_per_token is 128, but lab 'memory' in the linked "
            "state shows kv_kib_per_token = 64"
        ),
    }
    with_memory_lab(mini, "lab: LAB")
    examples = mini / "ledger/examples.md"
    template = examples.read_text(encoding="utf-8")
    examples.write_text(template.replace("lab: LAB", MEMORY_LAB), encoding="utf-8")
    assert run_cli("build", "--no-search", cwd=mini).returncode == 0
    previous = (mini / "_site/en/ch14.html").read_bytes()
    for line, message in cases.items():
        examples.write_text(template.replace("lab: LAB", line), encoding="utf-8")
        built = run_cli("build", "--no-search", cwd=mini)
        assert built.returncode != 0, line
        reported = [row for row in built.stdout.splitlines() + built.stderr.splitlines() if "error[" in row]
        assert len(reported) == 1 and reported[0].startswith("ledger/examples.md:"), reported
        assert message in reported[0], (line, reported)
        assert (mini / "_site/en/ch14.html").read_bytes() == previous, (
            "a failed build leaves the previous site"
        )


def test_a_lab_no_page_places_leaves_the_link_without_a_target(mini):
    with_memory_lab(mini)
    page = mini / "content/zh/ch14/00-intro.md"
    page.write_text(page.read_text(encoding="utf-8").replace("{{labs:memory}}", ""), encoding="utf-8")
    built = run_cli("build", "--no-search", cwd=mini)
    assert built.returncode != 0
    assert (
        "error[example.lab-unplaced]: kv-per-token: lab 'memory' is placed on no zh page, so its link has no target"
        in built.stdout + built.stderr
    )


def test_a_written_link_to_a_lab_state_the_lab_cannot_restore_fails_the_links_gate(mini):
    with_memory_lab(mini)
    page = mini / "content/en/ch14/00-intro.md"
    text = page.read_text(encoding="utf-8")
    line = text.splitlines().index("{{labs:memory}}") + 1
    page.write_text(
        text.replace(
            "{{labs:memory}}",
            "{{labs:memory}}\n\nTry [a long context](#lab-memory-panel?context_len=8000000) "
            "or [MHA](#lab-memory-panel?attention=mha).",
        ),
        encoding="utf-8",
    )
    checked = run_cli("check", cwd=mini)
    assert checked.returncode != 0
    broken = [row for row in checked.stdout.splitlines() if "gate.links.lab-state" in row]
    assert len(broken) == 1, checked.stdout  # the MHA link is a state the lab can take
    assert broken[0].lstrip().startswith(f"content/en/ch14/00-intro.md:{line + 2}:")
    assert "context_len = 8000000 lies outside 1..4194304" in broken[0]
