"""JSON-mode replies as local models really write them (Qwen, Llama, DeepSeek-R1, Mistral via
Ollama / LM Studio / vLLM), read into the strict ProposedReply — or refused with a message that
tells the model what to fix."""

from __future__ import annotations

import pytest

from heybro.llm.jsonreply import ReplyFormatError, parse_reply


def calls(text: str) -> list[tuple[str, dict]]:
    return [(c.tool, c.parameters) for c in parse_reply(text).tool_calls]


def test_documented_shape() -> None:
    r = parse_reply('{"reasoning": "search first", "tool_calls": [{"tool": "fill", "parameters": '
                    '{"element_id": "e1", "value": "kettle"}, "reason": "query"}]}')
    assert r.reasoning == "search first"
    assert [(c.tool, c.parameters, c.reason) for c in r.tool_calls] == [
        ("fill", {"element_id": "e1", "value": "kettle"}, "query")]


def test_deepseek_r1_think_block_with_braces_before_the_json() -> None:
    text = ("<think>\nThe page shows a search box [e1]. I could send {\"tool\": click} but the "
            "field is empty, so fill it first {maybe}.\n</think>\n\n"
            '{"reasoning": "fill the search box", "tool_calls": [{"tool": "fill", '
            '"parameters": {"element_id": "e1", "value": "blue kettle"}}]}')
    r = parse_reply(text)
    assert [(c.tool, c.parameters) for c in r.tool_calls] == [
        ("fill", {"element_id": "e1", "value": "blue kettle"})]
    assert r.reasoning == "fill the search box"


def test_think_text_becomes_the_reasoning_when_the_json_has_none() -> None:
    r = parse_reply('<think>The Go button submits.</think>{"name": "click", "arguments": '
                    '{"element_id": "e2"}}')
    assert r.reasoning == "The Go button submits." and calls('{"name": "click"}') == [("click", {})]


def test_server_that_drops_the_opening_think_tag() -> None:
    assert calls('Okay, the user wants a kettle. {not json yet}\n</think>\n'
                 '{"tool": "click", "parameters": {"element_id": "e7"}}') == [
        ("click", {"element_id": "e7"})]


def test_fenced_json_after_prose_and_a_closing_remark_with_braces() -> None:
    text = ("Sure! Here is my next action:\n```json\n{\n  \"tool_calls\": [\n    {\"tool\": "
            "\"navigate\", \"parameters\": {\"url\": \"http://shop/\"}}\n  ]\n}\n```\n"
            "Let me know if {anything} else is needed.")
    assert calls(text) == [("navigate", {"url": "http://shop/"})]


def test_name_and_arguments_as_ollama_qwen_writes_them() -> None:
    assert calls('{"name": "fill", "arguments": {"element_id": "e3", "value": "Ann"}}') == [
        ("fill", {"element_id": "e3", "value": "Ann"})]


def test_tool_calls_items_with_name() -> None:
    assert calls('{"thought": "two fields", "tool_calls": [{"name": "fill", "arguments": '
                 '{"element_id": "e1", "value": "Ann"}}, {"name": "fill", "arguments": '
                 '{"element_id": "e2", "value": "ann@x.io"}}]}') == [
        ("fill", {"element_id": "e1", "value": "Ann"}),
        ("fill", {"element_id": "e2", "value": "ann@x.io"})]


def test_openai_style_function_with_arguments_as_a_json_string() -> None:
    text = ('{"tool_calls": [{"id": "call_0", "type": "function", "function": {"name": "click", '
            '"arguments": "{\\"element_id\\": \\"e12\\"}"}}]}')
    assert calls(text) == [("click", {"element_id": "e12"})]


def test_extra_keys_are_ignored_and_thought_is_kept_as_reasoning() -> None:
    r = parse_reply('{"thought": "The order page is open", "confidence_note": "high", '
                    '"tool_calls": [{"tool": "mark_done", "parameters": {"summary": "open"}, '
                    '"reason": "done", "id": 1}]}')
    assert r.reasoning == "The order page is open"
    assert [(c.tool, c.parameters) for c in r.tool_calls] == [("mark_done", {"summary": "open"})]


def test_trailing_commas_as_small_models_leave_them() -> None:
    text = '{"reasoning": "x", "tool_calls": [{"tool": "click", "parameters": {"element_id": "e2",},},],}'
    assert calls(text) == [("click", {"element_id": "e2"})]


def test_a_comma_before_a_brace_inside_a_string_is_kept() -> None:
    text = '{"tool": "fill", "parameters": {"element_id": "e1", "value": "a,}b",},}'
    assert calls(text) == [("fill", {"element_id": "e1", "value": "a,}b"})]


def test_a_bare_list_and_calls_written_one_after_another() -> None:
    assert calls('[{"tool": "scroll", "parameters": {"direction": "down"}}]') == [
        ("scroll", {"direction": "down"})]
    text = ('I will fill both fields.\n{"tool": "fill", "parameters": {"element_id": "e1", '
            '"value": "Ann"}}\n{"tool": "fill", "parameters": {"element_id": "e2", '
            '"value": "ann@x.io"}}')
    assert [t for t, _ in calls(text)] == ["fill", "fill"]


def test_langchain_style_action_input() -> None:
    assert calls('{"action": "navigate", "action_input": {"url": "http://a/"}}') == [
        ("navigate", {"url": "http://a/"})]


@pytest.mark.parametrize("text, kind, words", [
    ("I clicked the button and the page now shows the results.", "no_json", "contains no JSON"),
    ('{"tool_calls": [{"tool": "click", "parameters": {"element_id": "e1"', "invalid_json",
     "not valid JSON"),
    ('{"tool_calls": []}', "schema", "is empty"),
    ('{"answer": "done"}', "schema", "no \"tool_calls\" list and no tool name"),
    ('{"tool_calls": [{"parameters": {"element_id": "e1"}}]}', "schema", "has no tool name"),
    ('{"name": "click", "arguments": "{element_id: e1}"}', "schema",
     "arguments of click are not valid JSON"),
])
def test_unusable_replies_say_what_is_wrong(text: str, kind: str, words: str) -> None:
    with pytest.raises(ReplyFormatError) as info:
        parse_reply(text)
    assert info.value.kind == kind and words in str(info.value)
    assert '"tool_calls": [{"tool": "<name>"' in str(info.value)  # the format to answer in
