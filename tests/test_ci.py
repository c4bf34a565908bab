"""CI parity: the Pages workflow deploys only after the gates of ``.ci/run`` (ruff, mypy, the whole
suite with the end-to-end tests), never after fewer."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
WORKFLOW = ROOT / ".github" / "workflows" / "pages.yml"
#: What runs every gate: .ci/run, or the README's test command it runs.
GATES = ("bash .ci/run", "bash scripts/test.sh")


def jobs(workflow: str) -> dict[str, str]:
    """The workflow's jobs: name -> the text of its body (two-space indented keys under ``jobs:``)."""
    body = workflow.split("\njobs:\n", 1)[1]
    parts = re.split(r"^  ([\w-]+):\n", body, flags=re.MULTILINE)
    return dict(zip(parts[1::2], parts[2::2], strict=True))


def needs(job: str) -> list[str]:
    match = re.search(r"^    needs: *(\[[^\]]*\]|[\w-]+)", job, flags=re.MULTILINE)
    if not match:
        return []
    return [name.strip() for name in match.group(1).strip("[]").split(",") if name.strip()]


def upstream(all_jobs: dict[str, str], name: str) -> set[str]:
    """Every job that must succeed before ``name`` runs (its ``needs``, transitively)."""
    seen: set[str] = set()
    todo = needs(all_jobs[name])
    while todo:
        job = todo.pop()
        if job not in seen:
            seen.add(job)
            todo += needs(all_jobs[job])
    return seen


def runs_gates(job: str) -> bool:
    return any(re.search(rf"^\s+run: *{re.escape(gate)}\s*$", job, flags=re.MULTILINE) for gate in GATES)


def test_ci_run_is_the_readme_test_command() -> None:
    run = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert re.search(r"^exec bash scripts/test\.sh$", run, flags=re.MULTILINE)
    script = (ROOT / "scripts" / "test.sh").read_text(encoding="utf-8")
    for gate in ("ruff check .", "ruff format --check", "mypy", "pytest"):
        assert gate in script
    pytest = re.search(r"^exec python3 -m pytest (.*)$", script, flags=re.MULTILINE)
    assert pytest and not re.search(r"(^| )(-m|--ignore|-k)\b", pytest.group(1)), "the suite runs whole"


def test_pages_deploys_only_after_every_gate() -> None:
    all_jobs = jobs(WORKFLOW.read_text(encoding="utf-8"))
    publishing = [name for name, job in all_jobs.items() if "actions/deploy-pages@" in job]
    uploading = [name for name, job in all_jobs.items() if "actions/upload-pages-artifact@" in job]
    assert publishing and uploading
    for name in publishing + uploading:
        gates = [job for job in upstream(all_jobs, name) | {name} if runs_gates(all_jobs[job])]
        assert gates, f"{name} runs before {' or '.join(GATES)} has passed"
