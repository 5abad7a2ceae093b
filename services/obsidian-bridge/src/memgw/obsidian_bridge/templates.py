"""The vault's ``Templates/``: what a person starts a note from, in Chinese and English (seed 004 §F)."""

from __future__ import annotations

TEMPLATES = {
    "长期记忆 Long-term memory.md": """---
memory_type: note
importance: 0.7
tags: [memory/long-term, source/manual, visibility/private]
---
# 标题 Title

写下你希望所有 agent 长期记住的一件事：一条事实、一个决定或一次经验。
Write one thing every agent should remember: a fact, a decision or a lesson.

%% 保存在 Users/<你的 id>/LongTerm/ 下即成为一条记忆。Saved under Users/<your id>/LongTerm/ it becomes a memory. %%
""",
    "偏好 Preference.md": """---
memory_type: preference
importance: 0.8
tags: [memory/preference, source/manual, visibility/private]
---
# 偏好 Preference

我喜欢 … / I prefer …

%% 保存在 Users/<你的 id>/LongTerm/ 下即成为一条偏好。Saved under Users/<your id>/LongTerm/ it becomes a preference. %%
""",
    "评审 Review.md": """---
review_id:
status: open
decision:
tags: [memory/review, memory/conflict]
---
# 待你决定 Needs your decision

## 旧 Old
## 新 New
## 你的版本 Your version

%% 决定方式 How to decide:
- 移到 Reviews/Accepted：采用新的 / move to Reviews/Accepted: take the new
- 移到 Reviews/Rejected：保留旧的 / move to Reviews/Rejected: keep the old
- 或设 decision: accept_new | keep_old | keep_both | edit（edit 取“你的版本”下的文字）
%%
""",
}
