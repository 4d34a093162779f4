"""A strict YAML reader over PyYAML's safe loader.

Task sets and configs are data a reviewer must be able to read at a glance, so the features that
make YAML surprising are refused with the line they appear on: anchors, aliases, explicit tags,
merge keys, duplicate keys and multiple documents.
"""

from __future__ import annotations

from typing import Any

import yaml
from yaml.constructor import ConstructorError
from yaml.nodes import MappingNode, Node

from whichtool_tui.errors import WhichtoolError


class StrictYamlError(ValueError):
    """A refused YAML construct, carrying the 1-based line it was found on."""

    def __init__(self, message: str, line: int | None) -> None:
        super().__init__(message)
        self.line = line


def _line(node_or_mark: Any) -> int | None:
    mark = getattr(node_or_mark, "start_mark", node_or_mark)
    return None if mark is None else int(mark.line) + 1


class _StrictLoader(yaml.SafeLoader):
    """SafeLoader that refuses anchors, aliases, tags, merge keys and duplicate keys."""

    def compose_node(self, parent: Node | None, index: Any) -> Node | None:
        event = self.peek_event()  # type: ignore[no-untyped-call]
        if isinstance(event, yaml.AliasEvent):
            raise StrictYamlError("aliases are not allowed", _line(event))
        anchor = getattr(event, "anchor", None)
        if anchor is not None:
            raise StrictYamlError("anchors are not allowed", _line(event))
        tag = getattr(event, "tag", None)
        implicit = getattr(event, "implicit", True)
        explicit_tag = (
            tag is not None
            and tag != "!"
            and (implicit is False or (isinstance(implicit, tuple) and not any(implicit)))
        )
        if explicit_tag:
            raise StrictYamlError(f"tags are not allowed ({tag})", _line(event))
        return super().compose_node(parent, index)

    def construct_mapping(self, node: MappingNode, deep: bool = False) -> dict[Any, Any]:
        seen: set[Any] = set()
        for key_node, _value_node in node.value:
            if key_node.tag == "tag:yaml.org,2002:merge":
                raise StrictYamlError("merge keys (<<) are not allowed", _line(key_node))
            key = self.construct_object(key_node, deep=True)
            try:
                hashable = key in seen
            except TypeError:
                raise StrictYamlError(
                    "mapping keys must be plain scalars", _line(key_node)
                ) from None
            if hashable:
                raise StrictYamlError(f"duplicate key {key!r}", _line(key_node))
            seen.add(key)
        return super().construct_mapping(node, deep=deep)


def parse_strict_yaml(text: str) -> Any:
    """Parse one YAML document strictly; raises StrictYamlError (with a line) on any refusal."""
    loader = _StrictLoader(text)
    try:
        if not loader.check_node():
            return None
        node = loader.get_node()
        if loader.check_node():
            second = loader.peek_event()  # type: ignore[no-untyped-call]
            raise StrictYamlError("multiple documents are not allowed", _line(second))
        if node is None:
            return None
        return loader.construct_document(node)
    except StrictYamlError:
        raise
    except (yaml.MarkedYAMLError, ConstructorError) as exc:
        mark = exc.problem_mark or exc.context_mark
        problem = exc.problem or exc.context or "invalid YAML"
        raise StrictYamlError(problem, _line(mark)) from None
    except yaml.YAMLError as exc:
        raise StrictYamlError(str(exc).splitlines()[0], None) from None
    finally:
        loader.dispose()


def load_strict_yaml(text: str, source: str, code: str) -> Any:
    """Parse ``text`` strictly, turning a refusal into a WhichtoolError naming file and line."""
    try:
        return parse_strict_yaml(text)
    except StrictYamlError as exc:
        where = f"{source}:{exc.line}" if exc.line is not None else source
        raise WhichtoolError(
            code,
            f"{where}: {exc}",
            "Task and config YAML is plain data: no anchors, aliases, tags, merge keys, "
            "duplicate keys or extra documents.",
        ) from None
