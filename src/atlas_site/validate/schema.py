"""Raw located records -> pydantic models, every schema problem mapped back to file:line."""

from __future__ import annotations

import re
from typing import get_args

from pydantic import BaseModel, ValidationError

from ..diagnostics import Collector, closest
from ..load.yaml_source import LocatedData

# the names pydantic gives the branches of a union in an error's path ('float', 'tuple[int, ...]')
UNION_BRANCH = re.compile(r"^(int|float|str|bool|none|date|datetime|[a-z-]+\[.*\])$")


def _union_branch_paths(errors) -> set[tuple]:
    """The paths of a value that fit no branch of a union: pydantic reports one error per branch,
    each path ending in the branch's name ('float', 'tuple[int, ...]'). A field that happens to
    be called 'date' is not one: only a path that several errors share up to such a name counts."""
    ends: dict[tuple, set] = {}
    for item in errors:
        loc = tuple(item["loc"])
        if loc and isinstance(loc[-1], str) and UNION_BRANCH.match(loc[-1]):
            ends.setdefault(loc[:-1], set()).add(loc[-1])
    return {prefix for prefix, names in ends.items() if len(names) > 1}


def _model_at(model: type[BaseModel], path: tuple) -> type[BaseModel]:
    """The model that holds the last key of `path` (`translations.grace` -> TranslationPolicy), for
    a 'did you mean' among its own fields; `model` itself where the path leaves plain models."""
    for part in path:
        field = model.model_fields.get(part) if isinstance(part, str) else None
        kinds = (field.annotation, *get_args(field.annotation)) if field is not None else ()  # X | None
        nested = [kind for kind in kinds if isinstance(kind, type) and issubclass(kind, BaseModel)]
        if not nested:
            return model
        model = nested[0]
    return model


def schema_problems(
    out: Collector, error: ValidationError, data: LocatedData, prefix: tuple, model: type[BaseModel]
) -> None:
    said: set = set()  # a value that fits no branch of a union is one problem, not one per branch
    # of a union's branches, the one that says most comes first: 'should be a finite number'
    # before 'should be a valid integer' or 'a valid tuple'
    items = sorted(error.errors(), key=lambda item: item["type"].endswith(("_type", "_parsing")))
    unions = _union_branch_paths(items)
    for item in items:
        loc = tuple(item["loc"])
        if loc[:-1] in unions and isinstance(loc[-1], str) and UNION_BRANCH.match(loc[-1]):
            loc = loc[:-1]
        loc = tuple(part for part in loc if part not in ("text", "names", "patterns"))  # keys the models add
        if (loc, item["type"] == "extra_forbidden") in said:
            continue
        said.add((loc, item["type"] == "extra_forbidden"))
        where = data.at(prefix + loc)
        dotted = ".".join(str(part) for part in loc) or model.__name__
        if item["type"] == "extra_forbidden" and loc:
            name = str(loc[-1])
            out.error(
                where,
                "schema.unknown-key",
                f"unknown key '{dotted}' in {model.__name__}",
                closest(name, _model_at(model, loc[:-1]).model_fields),
            )
        elif item["type"] == "missing":
            out.error(data.at(prefix + loc[:-1]), "schema.missing-key", f"{model.__name__} needs '{dotted}'")
        else:
            message = item["msg"].removeprefix("Value error, ")
            out.error(where, "schema.invalid", f"{dotted}: {message}")


def build_item(out: Collector, model: type[BaseModel], raw, data: LocatedData, prefix: tuple, languages=None):
    """One record, or None after reporting why not. `languages` lets every Localized text check
    that it has exactly the book's languages."""
    if not isinstance(raw, dict):
        out.error(data.at(prefix), "schema.invalid", f"expected a mapping for {model.__name__}")
        return None
    try:
        return model.model_validate(raw, context={"languages": languages} if languages else None)
    except ValidationError as error:
        schema_problems(out, error, data, prefix, model)
        return None
