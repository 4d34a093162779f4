"""A strict YAML reader over PyYAML's safe loader.

Task sets and configs are data a reviewer must be able to read at a glance, so the features that
make YAML surprising are refused with the line they appear on: anchors, aliases, explicit tags,
merge keys, duplicate keys and multiple documents.

Checks run on libyaml's event stream and node graph (PyYAML's C extension when present), so a
5,000-task file loads in a fraction of the time PyYAML's pure-Python loader needs.
"""

from __future__ import annotations

from typing import Any

import yaml
from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

from whichtool_tui.bounded_read import MAX_INT_DIGITS, MAX_NESTING
from whichtool_tui.errors import WhichtoolError

_FAST_LOADER: type[yaml.SafeLoader] = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
_MERGE_TAG = "tag:yaml.org,2002:merge"


class StrictYamlError(ValueError):
    """A refused YAML construct, carrying the 1-based line it was found on."""

    def __init__(self, message: str, line: int | None) -> None:
        super().__init__(message)
        self.line = line


def _line(node_or_event: Any) -> int | None:
    mark = getattr(node_or_event, "start_mark", None)
    return None if mark is None else int(mark.line) + 1


def _refuse_event(event: Any) -> None:
    """Anchors, aliases and explicit tags are visible on the event stream."""
    if isinstance(event, yaml.AliasEvent):
        raise StrictYamlError("aliases are not allowed", _line(event))
    if getattr(event, "anchor", None) is not None:
        raise StrictYamlError("anchors are not allowed", _line(event))
    tag = getattr(event, "tag", None)
    implicit = getattr(event, "implicit", True)
    explicit = implicit is False or (isinstance(implicit, tuple) and not any(implicit))
    if tag is not None and tag != "!" and explicit:
        raise StrictYamlError(f"tags are not allowed ({tag})", _line(event))


def _check_events(text: str, loader_class: type[yaml.SafeLoader]) -> None:
    documents = 0
    depth = 0
    for event in yaml.parse(text, Loader=loader_class):
        if isinstance(event, yaml.DocumentStartEvent):
            documents += 1
            if documents > 1:
                raise StrictYamlError("multiple documents are not allowed", _line(event))
        elif isinstance(event, yaml.CollectionStartEvent):
            depth += 1
            if depth > MAX_NESTING:  # the loader's constructor would recurse past the stack
                raise StrictYamlError(
                    f"nested too deeply (more than {MAX_NESTING} levels)", _line(event)
                )
        elif isinstance(event, yaml.CollectionEndEvent):
            depth -= 1
        _refuse_event(event)


def _check_keys(root: Node, loader: yaml.SafeLoader) -> None:
    """Merge keys, non-scalar keys and duplicate keys, found by walking the node graph."""
    pending: list[Node] = [root]
    while pending:
        node = pending.pop()
        if isinstance(node, SequenceNode):
            pending.extend(node.value)
        elif isinstance(node, MappingNode):
            seen: set[Any] = set()
            for key_node, value_node in node.value:
                if key_node.tag == _MERGE_TAG:
                    raise StrictYamlError("merge keys (<<) are not allowed", _line(key_node))
                if not isinstance(key_node, ScalarNode):
                    raise StrictYamlError("mapping keys must be plain scalars", _line(key_node))
                key = loader.construct_object(key_node)
                if key in seen:
                    raise StrictYamlError(f"duplicate key {key!r}", _line(key_node))
                seen.add(key)
                pending.append(value_node)


def _parse_with(text: str, loader_class: type[yaml.SafeLoader]) -> Any:
    _check_events(text, loader_class)
    loader = loader_class(text)
    try:
        node = loader.get_single_node()
        if node is None:
            return None
        _check_keys(node, loader)
        return loader.construct_document(node)
    finally:
        loader.dispose()


def parse_strict_yaml(text: str) -> Any:
    """Parse one YAML document strictly; raises StrictYamlError (with a line) on any refusal."""
    try:
        try:
            return _parse_with(text, _FAST_LOADER)
        except StrictYamlError:
            raise
        except yaml.YAMLError:
            # libyaml rejects a few escapes PyYAML accepts (lone surrogates): the pure-Python
            # loader has the final word, so both give the same result on every input.
            if _FAST_LOADER is yaml.SafeLoader:
                raise
            return _parse_with(text, yaml.SafeLoader)
    except StrictYamlError:
        raise
    except RecursionError:
        raise StrictYamlError(f"nested too deeply (more than {MAX_NESTING} levels)", None) from None
    except ValueError:  # an integer past Python's 4,300-digit conversion limit
        raise StrictYamlError(f"an integer has more than {MAX_INT_DIGITS:,} digits", None) from None
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        problem = exc.problem or exc.context or "invalid YAML"
        raise StrictYamlError(problem, None if mark is None else mark.line + 1) from None
    except yaml.YAMLError as exc:
        raise StrictYamlError(str(exc).splitlines()[0], None) from None


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
