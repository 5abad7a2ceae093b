"""Skills (seed 004 §E): the named, versioned units of work that the gateway, the consolidator and the
bridge call through one registry. Each has typed input and output models; the default of each ships
here (or, for the vault's two, with the bridge), a third party's plugs in through the ``memgw.skills``
entry point group, and ``MEMGW_SKILLS`` binds a skill to another implementation."""

from memgw.common.skills.registry import GROUP, Skill, SkillError, Skills

__all__ = ["GROUP", "Skill", "SkillError", "Skills"]
