"""A LangChain chat model that follows a script and records what it was shown, for the
LangChain and LangGraph adapters' tests."""

from __future__ import annotations

from typing import Any, Iterator, List

from langchain_core.language_models.fake_chat_models import GenericFakeChatModel
from langchain_core.messages import AIMessage, BaseMessage


class ScriptedModel(GenericFakeChatModel):
    """Answers with its script's messages in turn; records every conversation it is shown."""

    seen: List[List[BaseMessage]] = []

    def bind_tools(self, tools: Any, **kwargs: Any) -> "ScriptedModel":
        return self

    def _generate(self, messages: List[BaseMessage], *args: Any, **kwargs: Any) -> Any:
        self.seen.append(list(messages))
        return super()._generate(messages, *args, **kwargs)


def reading(turns: int, answer: str) -> Iterator[AIMessage]:
    """A script: `read_file` on a new file each turn, then `answer`."""
    for n in range(turns):
        yield AIMessage(content="", tool_calls=[{"id": f"call_{n}", "name": "read_file", "args": {"path": f"src/m{n}.rs"}}])
    yield AIMessage(content=answer)
