"""Local stand-ins for the world outside the machine (GitHub, feeds, web pages, Composio, Twitter,
LLM endpoints) are served over real HTTP on loopback, so the readers' real code paths run."""

from memgw.launcher.http import serve

__all__ = ["serve"]
