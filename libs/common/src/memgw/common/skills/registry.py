"""The skill registry: which implementation of each skill this process runs, found through entry points.

An implementation is a ``Skill`` subclass advertised in the ``memgw.skills`` entry point group. The
entry point named like the skill (``classify_memory``) is its default; alternatives take another name
(``classify_memory.llm``). ``MEMGW_SKILLS`` (``{"classify_memory": "classify_memory.llm"}``) binds a
skill to an alternative by entry point name or by ``module:Class``. A binding that names nothing
installed, or a class that implements another skill, stops the process at start with that reason.

Callers ask by the default's class (``await skills.run(ClassifyMemory, ClassifyInput(...))``): the
answer is that skill's output model whatever implementation is bound, so a third party's must answer
something the contract's output model accepts.
"""

from __future__ import annotations

import importlib
from abc import ABC, abstractmethod
from collections import defaultdict
from dataclasses import dataclass
from importlib.metadata import entry_points
from typing import Any, ClassVar, Generic, TypeVar

from pydantic import BaseModel

from memgw.common.settings import Settings

GROUP = "memgw.skills"

In = TypeVar("In", bound=BaseModel)
Out = TypeVar("Out", bound=BaseModel)


class SkillError(RuntimeError):
    """A skill binding cannot be honoured (named at start, never at the first call)."""


class Skill(ABC, Generic[In, Out]):
    """One unit of work. Subclasses set the class attributes and ``run``; ``close`` frees what
    ``__init__`` opened (an HTTP client)."""

    name: ClassVar[str]
    version: ClassVar[str] = "1.0"
    summary: ClassVar[str] = ""
    Input: ClassVar[type[BaseModel]]
    Output: ClassVar[type[BaseModel]]

    def __init__(self, settings: Settings) -> None:
        self.settings = settings

    @abstractmethod
    async def run(self, data: In) -> Out: ...

    async def close(self) -> None:
        return None


@dataclass(frozen=True)
class _Binding:
    skill: Skill[Any, Any]
    ref: str  # the entry point name or module:Class that was bound
    contract: type[Skill[Any, Any]]  # the default implementation, whose models are the contract
    alternatives: tuple[str, ...]


def _import(ref: str) -> type[Skill[Any, Any]]:
    module, _, attr = ref.partition(":")
    try:
        found = getattr(importlib.import_module(module), attr)
    except (ImportError, AttributeError) as exc:
        raise SkillError(f"skill implementation {ref!r} cannot be imported: {exc}") from exc
    if not (isinstance(found, type) and issubclass(found, Skill)):
        raise SkillError(f"{ref!r} is not a Skill")
    return found


def installed() -> dict[str, type[Skill[Any, Any]]]:
    """Every implementation advertised in the entry point group, by entry point name."""
    found: dict[str, type[Skill[Any, Any]]] = {}
    for point in entry_points(group=GROUP):
        loaded = point.load()
        if not (isinstance(loaded, type) and issubclass(loaded, Skill)):
            raise SkillError(f"entry point {point.name} = {point.value} is not a Skill")
        found[point.name] = loaded
    return found


class Skills:
    """The bound implementation of every installed skill."""

    def __init__(self, settings: Settings, available: dict[str, type[Skill[Any, Any]]] | None = None) -> None:
        available = installed() if available is None else available
        by_skill: dict[str, list[str]] = defaultdict(list)
        for ref, cls in available.items():
            by_skill[cls.name].append(ref)
        unknown = set(settings.skills.skills) - set(by_skill)
        if unknown:
            raise SkillError(f"MEMGW_SKILLS names skills nobody implements: {', '.join(sorted(unknown))}")
        self._bound: dict[str, _Binding] = {}
        for name, refs in sorted(by_skill.items()):
            if name not in available:
                raise SkillError(f"skill {name!r} has alternatives ({', '.join(refs)}) but no default")
            ref = settings.skills.skills.get(name, name)
            if ref in available:
                cls = available[ref]
            elif ":" in ref:
                cls = _import(ref)
            else:
                raise SkillError(f"MEMGW_SKILLS binds {name} to {ref!r}, which is not installed (have {refs})")
            if cls.name != name:
                raise SkillError(f"{ref!r} implements {cls.name!r}, not {name!r}")
            alternatives = tuple(sorted(r for r in refs if r != ref))
            self._bound[name] = _Binding(cls(settings), ref, available[name], alternatives)
        self._described: list[dict[str, Any]] | None = None  # the bindings never change after start

    def _binding(self, name: str) -> _Binding:
        binding = self._bound.get(name)
        if binding is None:
            raise SkillError(f"no skill {name!r} is installed")
        return binding

    async def run(self, contract: type[Skill[In, Out]], data: In) -> Out:
        """Run the bound implementation of ``contract.name`` on ``data``; its answer as the contract's
        output model."""
        answer = await self._binding(contract.name).skill.run(data)
        if isinstance(answer, contract.Output):
            return answer  # type: ignore[return-value]
        return contract.Output.model_validate(answer.model_dump())  # type: ignore[return-value]

    def bound(self, name: str) -> str:
        """The entry point or ``module:Class`` that serves ``name``."""
        return self._binding(name).ref

    def describe(self) -> list[dict[str, Any]]:
        """Every skill with its bound implementation and the models it takes and answers (made once)."""
        if self._described is None:
            self._described = self._description()
        return self._described

    def _description(self) -> list[dict[str, Any]]:
        out = []
        for name, b in self._bound.items():
            cls = type(b.skill)
            out.append(
                {
                    "name": name,
                    "uri": f"viking://skills/memory-gateway/{name}",
                    "version": cls.version,
                    "summary": cls.summary or b.contract.summary,
                    "implementation": b.ref,
                    "class": f"{cls.__module__}:{cls.__qualname__}",
                    "alternatives": list(b.alternatives),
                    "input_schema": b.contract.Input.model_json_schema(),
                    "output_schema": b.contract.Output.model_json_schema(),
                }
            )
        return out

    async def close(self) -> None:
        for binding in self._bound.values():
            await binding.skill.close()
