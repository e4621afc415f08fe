"""Checks rulebook files against the published JSON Schemas (docs/schema/),
independently of outorga's own loader: Python's tomllib reads each file,
the jsonschema package validates it. Usage:

    check_rulebooks.py SCHEMA_FOLDER FILE...

Each FILE is checked against the schema of its kind: jurisdiction.toml,
catalog*.toml, or a service's file. Prints one line per problem
(`file: path.to.key: message`) and exits 1 if there is any.
"""

import datetime
import json
import sys
import tomllib
from pathlib import Path

import jsonschema


def as_json(value):
    """TOML's dates become the strings JSON Schema's `format: date` reads."""
    if isinstance(value, dict):
        return {k: as_json(v) for k, v in value.items()}
    if isinstance(value, list):
        return [as_json(v) for v in value]
    if isinstance(value, (datetime.date, datetime.datetime, datetime.time)):
        return value.isoformat()
    return value


def kind(path: Path) -> str:
    if path.name == "jurisdiction.toml":
        return "jurisdiction"
    if path.name.startswith("catalog"):
        return "catalog"
    return "rulebook"


def main() -> int:
    schemas = Path(sys.argv[1])
    validators = {}
    for name in ("rulebook", "catalog", "jurisdiction"):
        schema = json.loads((schemas / f"{name}.schema.json").read_text())
        jsonschema.Draft7Validator.check_schema(schema)
        validators[name] = jsonschema.Draft7Validator(
            schema, format_checker=jsonschema.Draft7Validator.FORMAT_CHECKER
        )
    problems = 0
    for file in sys.argv[2:]:
        path = Path(file)
        with path.open("rb") as f:
            document = as_json(tomllib.load(f))
        for error in validators[kind(path)].iter_errors(document):
            where = ".".join(str(p) for p in error.absolute_path) or "(the file)"
            print(f"{path}: {where}: {error.message}")
            problems += 1
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
