"""The questions an AskUserQuestion call put to the user, their options, and what the user answered.

Its input holds `questions` (each a `question`, a short `header`, `options` of a `label` and a `description`,
and `multiSelect`); its result's toolUseResult holds them again with `answers`, question -> what the user chose
or typed (the labels of a multiple choice joined by ", ").
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from claude_tui.core.model import ToolCall

NAME = "AskUserQuestion"


@dataclass(frozen=True, slots=True)
class Question:
    text: str
    header: str
    options: list[tuple[str, str]]  #: (label, description)
    answer: str | None  #: None: not answered (yet, or the call failed)

    def chosen(self, label: str) -> bool:
        """Whether the answer is, or (of a multiple choice) holds, this option."""
        if self.answer is None:
            return False
        return self.answer == label or label in (part.strip() for part in self.answer.split(", "))


def questions_of(call: ToolCall) -> list[Question]:
    """The questions of an AskUserQuestion call, each with its answer where its result has one; none for a call
    whose input is not of that shape."""
    questions = call.args.get("questions")
    if not isinstance(questions, list):
        return []
    structured = call.result.structured if call.result is not None else None
    answers = structured.get("answers") if isinstance(structured, dict) else None
    answers = answers if isinstance(answers, dict) else {}
    out = []
    for asked in questions:
        if not isinstance(asked, dict) or not isinstance(text := asked.get("question"), str):
            continue
        options = [
            (label, _str(option.get("description")))
            for option in asked.get("options") or ()
            if isinstance(option, dict) and isinstance(label := option.get("label"), str)
        ]
        answer = answers.get(text)
        out.append(Question(text, _str(asked.get("header")), options, answer if isinstance(answer, str) else None))
    return out


def _str(value: Any) -> str:
    return value if isinstance(value, str) else ""
