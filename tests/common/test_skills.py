"""The skill registry and the default skills' decisions, without infrastructure: the seed's ten skills
are found through entry points, one can be swapped by configuration (an alternative, a class path or
a third party's installed package), a binding that cannot be honoured stops the start, and the
default decisions (classify, commit, prune, ingest) hold for Chinese and English."""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from memgw.common.domain import Visibility
from memgw.common.settings import ConsolidationSettings, Settings, SkillSettings
from memgw.common.skills import Skill, SkillError, Skills
from memgw.common.skills.memory import (
    ClassifyInput,
    ClassifyMemory,
    CommitInput,
    IngestInput,
    PruneFacts,
    PruneInput,
    RawItem,
    SummarizeInput,
    SummarizeOutput,
)
from memgw.consolidator.skills import CommitMemory, PruneMemory, SummarizeEpisode
from memgw.gateway.ingest import Ingest
from tests.fakes import serve

pytestmark = pytest.mark.unit
SEED_SKILLS = {
    "ingest",
    "extract_memory",
    "classify_memory",
    "retrieve_context",
    "commit_memory",
    "summarize_episode",
    "merge_memory",
    "prune_memory",
    "export_to_obsidian",
    "import_from_obsidian",
}


def _bound(**skills: str) -> Skills:
    return Skills(Settings(skills=SkillSettings(skills=skills)))


class Shouting(Skill[SummarizeInput, SummarizeOutput]):
    """A third party's summarize_episode, bound by its class path."""

    name = "summarize_episode"
    version = "9.9"
    Input, Output = SummarizeInput, SummarizeOutput

    async def run(self, data: SummarizeInput) -> SummarizeOutput:
        return SummarizeOutput(summary=" ".join(data.episodes).upper())


def test_the_seeds_ten_skills_are_installed_with_their_models() -> None:
    described = {s["name"]: s for s in _bound().describe()}
    assert set(described) == SEED_SKILLS
    classify = described["classify_memory"]
    assert classify["implementation"] == "classify_memory"
    assert classify["alternatives"] == ["classify_memory.llm"]
    assert classify["uri"] == "viking://skills/memory-gateway/classify_memory"
    assert "content" in classify["input_schema"]["properties"]
    assert "namespaces" in classify["output_schema"]["properties"]


async def test_a_skill_is_swapped_by_configuration_and_answers_through_the_same_call() -> None:
    skills = _bound(summarize_episode="tests.common.test_skills:Shouting")
    assert skills.bound("summarize_episode") == "tests.common.test_skills:Shouting"
    answer = await skills.run(SummarizeEpisode, SummarizeInput(episodes=["hello there"]))
    assert answer.summary == "HELLO THERE"
    assert _bound(classify_memory="classify_memory.llm").bound("classify_memory") == "classify_memory.llm"


@pytest.mark.parametrize(
    ("binding", "message"),
    [
        ({"summarise": "x:Y"}, "nobody implements: summarise"),
        ({"classify_memory": "classify_memory.gpt"}, "not installed"),
        ({"classify_memory": "tests.common.test_skills:Shouting"}, "implements 'summarize_episode'"),
        ({"classify_memory": "tests.common.test_skills:Nowhere"}, "cannot be imported"),
        ({"classify_memory": "json:dumps"}, "is not a Skill"),
    ],
)
def test_a_binding_that_cannot_be_honoured_stops_the_start_with_its_reason(
    binding: dict[str, str], message: str
) -> None:
    with pytest.raises(SkillError, match=message):
        _bound(**binding)


@pytest.fixture
def third_party(tmp_path: Path) -> Iterator[None]:
    """An installed package (a dist-info on sys.path) advertising a skill in the entry point group."""
    (tmp_path / "acme_skills.py").write_text(
        "from memgw.common.skills.memory import SummarizeInput, SummarizeOutput\n"
        "from memgw.consolidator.skills import SummarizeEpisode\n"
        "class Terse(SummarizeEpisode):\n"
        "    async def run(self, data: SummarizeInput) -> SummarizeOutput:\n"
        "        return SummarizeOutput(summary=data.episodes[0].split()[0])\n"
    )
    info = tmp_path / "acme_skills-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: acme-skills\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text("[memgw.skills]\nsummarize_episode.terse = acme_skills:Terse\n")
    sys.path.insert(0, str(tmp_path))
    yield
    sys.path.remove(str(tmp_path))
    sys.modules.pop("acme_skills", None)


@pytest.mark.usefixtures("third_party")
async def test_a_third_partys_skill_plugs_in_through_an_entry_point() -> None:
    assert "summarize_episode.terse" in {a for s in _bound().describe() for a in s["alternatives"]}
    skills = _bound(summarize_episode="summarize_episode.terse")
    answer = await skills.run(SummarizeEpisode, SummarizeInput(episodes=["Deploy finished at noon."]))
    assert answer.summary == "Deploy"


# -- the default decisions ---------------------------------------------------------------------------------

CLASSIFY = ClassifyMemory(Settings())


@pytest.mark.parametrize(
    ("content", "memory_type"),
    [
        ("用户偏好中文输出。", "preference"),
        ("The user prefers short answers.", "preference"),
        ("我们决定使用 NATS JetStream。", "decision"),
        ("Lesson learned: the lock was missing.", "failure"),
        ("她住在杭州。", "fact"),
        ("Some words with no cue at all", "fact"),
    ],
)
async def test_classify_gives_a_type_to_a_write_that_does_not_say(content: str, memory_type: str) -> None:
    kind = await CLASSIFY.run(ClassifyInput(content=content, user_id="u"))
    assert kind.memory_type == memory_type
    assert kind.visibility is Visibility.PRIVATE


async def test_classify_files_by_who_is_named_and_keeps_what_the_writer_said() -> None:
    shared = await CLASSIFY.run(ClassifyInput(content="We decided to ship", user_id="u", workspace_id="w"))
    assert (shared.visibility, shared.namespaces) == (Visibility.WORKSPACE_SHARED, ["workspace/w/shared"])
    lesson = await CLASSIFY.run(ClassifyInput(content="Lesson learned: retry", user_id="u", agent_id="a"))
    assert (lesson.visibility, lesson.namespaces) == (Visibility.AGENT_ONLY, ["agent/a/memory"])
    said = ClassifyInput(content="Lesson learned", user_id="u", agent_id="a", memory_type="note", visibility="private")
    kept = await CLASSIFY.run(said)
    assert (kept.memory_type, kept.visibility) == ("note", Visibility.PRIVATE)
    with pytest.raises(ValueError, match="workspace"):
        await CLASSIFY.run(ClassifyInput(content="x", user_id="u", visibility="workspace-shared"))


async def test_an_llm_classifier_is_used_when_bound_and_the_rules_answer_when_it_cannot() -> None:
    answers = iter([{"memory_type": "profile"}, "not json"])

    async def chat(request: Request) -> Response:
        body = await request.json()
        assert body["response_format"]["type"] == "json_schema"
        answer = next(answers)
        content = json.dumps(answer) if isinstance(answer, dict) else answer
        return JSONResponse({"choices": [{"message": {"role": "assistant", "content": content}}]})

    async with serve(Starlette(routes=[Route("/v1/chat/completions", chat, methods=["POST"])])) as url:
        settings = Settings(
            consolidation=ConsolidationSettings(llm_base_url=f"{url}/v1", llm_timeout_s=5),
            skills=SkillSettings(skills={"classify_memory": "classify_memory.llm"}),
        )
        skills = Skills(settings)
        asked = ClassifyInput(content="I am a backend engineer in Hangzhou.", user_id="u")
        by_llm = await skills.run(ClassifyMemory, asked)
        assert (by_llm.memory_type, by_llm.namespaces[0]) == ("profile", "user/u/profile")
        by_rules = await skills.run(ClassifyMemory, asked)  # the endpoint's answer was unusable
        assert by_rules.reason.startswith("rules")
        await skills.close()


COMMIT = CommitMemory(Settings())


@pytest.mark.parametrize(("evidence", "promoted"), [(1, False), (2, True)])
async def test_a_candidate_said_again_is_promoted(evidence: int, promoted: bool) -> None:
    asked = CommitInput(
        importance=0.55, confidence=0.8, evidence_count=evidence, min_importance=0.6, min_confidence=0.6
    )
    assert (await COMMIT.run(asked)).promote is promoted


async def test_a_less_credible_source_needs_more_to_be_promoted() -> None:
    def asked(source: str) -> CommitInput:
        return CommitInput(importance=0.65, confidence=0.8, source=source, min_importance=0.6, min_confidence=0.6)

    assert (await COMMIT.run(asked("consolidator"))).promote
    assert not (await COMMIT.run(asked("memory_source"))).promote


async def test_decay_is_slower_with_evidence_and_useful_feedback_and_faster_when_outdated() -> None:
    now = datetime(2026, 6, 1, tzinfo=UTC)
    touched = now - timedelta(days=60)

    def facts(memory_id: str, **extra: int) -> PruneFacts:
        return PruneFacts(id=memory_id, importance=0.8, base_importance=0.8, touched_at=touched, **extra)

    memories = [facts("plain"), facts("said_4x", evidence_count=4), facts("useful", useful=3), facts("old", outdated=3)]
    decided = {d.id: d for d in (await PruneMemory(Settings()).run(PruneInput(memories=memories, now=now))).decisions}
    assert decided["plain"].importance == pytest.approx(0.2, abs=0.01)  # two half-lives of 30 days
    assert decided["said_4x"].importance > decided["plain"].importance
    assert decided["useful"].importance > decided["plain"].importance
    assert decided["old"].importance < decided["plain"].importance
    assert [d.action for d in decided.values()] == ["decay", "decay", "decay", "archive"]  # old: below the floor


async def test_ingest_normalizes_text_and_content_parts_and_drops_what_is_empty() -> None:
    raw = IngestInput(
        items=[
            RawItem(content="  e\u0301t\u00e9\u200b\r\n\r\n\r\n\r\nsecond line\x00 "),
            RawItem(role="Assistant", content=[{"type": "text", "text": "好的"}, {"type": "image_url"}]),
            RawItem(content=" \u200b "),
        ]
    )
    episodes = (await Ingest(Settings()).run(raw)).episodes
    assert [(e.role, e.content) for e in episodes] == [("user", "été\n\nsecond line"), ("assistant", "好的")]
