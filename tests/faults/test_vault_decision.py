"""A decision made in the vault that cannot be applied: the note is not filed as decided, says why, and
stays a note a decision can be taken from again."""

from __future__ import annotations

import os
import uuid

import frontmatter

from tests.conftest import System
from tests.vault.test_obsidian_bridge import Person


async def test_a_failed_vault_decision_leaves_the_review_open_and_the_note_actionable(system: System) -> None:
    uid = f"vault_{uuid.uuid4().hex[:8]}"
    person = Person(system, uid, await system.user(uid))
    review_id = await person.contradiction("我住在北京。", "我搬到上海了。")
    queued = person.vault / f"Reviews/Queue/{review_id}.md"
    draft = frontmatter.loads(await person.note(f"Reviews/Queue/{review_id}.md"))
    _, new_id = draft["memory_ids"]
    gone = await system.client.delete(f"/v1/memory/{new_id}", headers=person.h)
    assert gone.status_code in (200, 204), gone.text

    (person.vault / "Reviews/Accepted").mkdir(exist_ok=True)
    os.rename(queued, person.vault / f"Reviews/Accepted/{review_id}.md")

    back = frontmatter.loads(await person.note(f"Reviews/Queue/{review_id}.md", "status: open"))
    assert back["decision"] is None
    why = await person.note(f"Reviews/Queue/{review_id}.error.md", "accept_new was not applied")
    assert new_id in why
    assert not (person.vault / f"Reviews/Accepted/{review_id}.md").exists()
    assert await _open(system, person, review_id)

    # Still actionable: another decision from the same note is sent, and its failure said in turn.
    back["decision"] = "keep_old"
    queued.write_text(frontmatter.dumps(back))
    await person.note(f"Reviews/Queue/{review_id}.error.md", "keep_old was not applied")
    assert await _open(system, person, review_id)


async def _open(system: System, person: Person, review_id: str) -> bool:
    listed = await system.client.get("/v1/reviews", params={"status": "open"}, headers=person.h)
    assert listed.status_code == 200, listed.text
    return review_id in {r["id"] for r in listed.json()}
