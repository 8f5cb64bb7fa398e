"""A small JSON Schema (2020-12) validator, Python standard library only.

Enough of the vocabulary for doc/episode.schema.json: type, enum, const,
required, properties, additionalProperties, items, minItems, maxItems,
minLength, maxLength, pattern, minimum, maximum, format (date-time, date),
allOf, anyOf, oneOf, not, and local "$ref"s ("#/$defs/name"). Annotation
keywords (title, description, examples, $schema, $id, $defs) are ignored.
A keyword this module does not know is an error, not silently passed: a
schema that uses more than we check should say so loudly.

    errors = schema_check.validate(instance, schema)   # [] when valid
    schema_check.check(instance, schema)               # raises ValueError

Run as `python3 schema_check.py SCHEMA FILE...` to validate files.
"""

import json
import math
import re
import sys

__all__ = ["validate", "check", "load"]

# RFC 3339 date-time (what JSON Schema's "date-time" format means): a full
# date, "T" (or "t"), a full time with optional fraction, and a zone.
_DATE = r"(\d{4})-(\d{2})-(\d{2})"
_DATE_TIME_RE = re.compile(
    r"^" + _DATE + r"[Tt](\d{2}):(\d{2}):(\d{2})(\.\d+)?"
    r"([Zz]|[+-](\d{2}):(\d{2}))$")
_DATE_RE = re.compile(r"^" + _DATE + r"$")

_ANNOTATIONS = frozenset((
    "$schema", "$id", "$defs", "definitions", "$comment", "title",
    "description", "examples", "default", "deprecated", "readOnly",
    "writeOnly"))
_KNOWN = frozenset((
    "$ref", "type", "enum", "const", "required", "properties",
    "additionalProperties", "items", "minItems", "maxItems", "minLength",
    "maxLength", "pattern", "minimum", "maximum", "format", "allOf",
    "anyOf", "oneOf", "not")) | _ANNOTATIONS


def _days_in_month(year, month):
    if month == 2:
        leap = year % 4 == 0 and (year % 100 != 0 or year % 400 == 0)
        return 29 if leap else 28
    return 30 if month in (4, 6, 9, 11) else 31


def _valid_date(y, m, d):
    y, m, d = int(y), int(m), int(d)
    return 1 <= m <= 12 and 1 <= d <= _days_in_month(y, m)


def _format_ok(fmt, value):
    if fmt == "date-time":
        m = _DATE_TIME_RE.match(value)
        if not m or not _valid_date(*m.group(1, 2, 3)):
            return False
        hh, mm, ss = int(m.group(4)), int(m.group(5)), int(m.group(6))
        if hh > 23 or mm > 59 or ss > 60:
            return False
        if m.group(9) is not None and (int(m.group(9)) > 23
                                       or int(m.group(10)) > 59):
            return False
        return True
    if fmt == "date":
        m = _DATE_RE.match(value)
        return bool(m) and _valid_date(*m.groups())
    raise ValueError("schema_check: unsupported format %r" % fmt)


def _is_type(value, t):
    if t == "object":
        return isinstance(value, dict)
    if t == "array":
        return isinstance(value, list)
    if t == "string":
        return isinstance(value, str)
    if t == "boolean":
        return isinstance(value, bool)
    if t == "null":
        return value is None
    if t == "integer":
        if isinstance(value, bool):
            return False
        if isinstance(value, int):
            return True
        return isinstance(value, float) and math.isfinite(value) \
            and value == int(value)
    if t == "number":
        return isinstance(value, (int, float)) and not isinstance(value,
                                                                   bool)
    raise ValueError("schema_check: unknown type %r" % t)


def _equal(a, b):
    """JSON equality: 1 == 1.0, but true != 1."""
    if isinstance(a, bool) or isinstance(b, bool):
        return isinstance(a, bool) and isinstance(b, bool) and a == b
    if isinstance(a, (int, float)) and isinstance(b, (int, float)):
        return a == b
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(_equal(x, y) for x, y in zip(a, b))
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(_equal(a[k], b[k]) for k in a)
    return type(a) is type(b) and a == b


def _pointer_escape(token):
    return str(token).replace("~", "~0").replace("/", "~1")


def _resolve(root, ref):
    if not ref.startswith("#"):
        raise ValueError("schema_check: only local $ref is supported: %r"
                         % ref)
    node = root
    for part in ref[1:].split("/")[1:] if ref != "#" else []:
        part = part.replace("~1", "/").replace("~0", "~")
        if isinstance(node, list):
            node = node[int(part)]
        elif isinstance(node, dict) and part in node:
            node = node[part]
        else:
            raise ValueError("schema_check: $ref %r does not resolve" % ref)
    return node


def _short(value, n=80):
    s = json.dumps(value, ensure_ascii=False)
    return s if len(s) <= n else s[:n - 3] + "..."


class _Validator:
    def __init__(self, root):
        self.root = root
        self.patterns = {}

    def pattern(self, p):
        rx = self.patterns.get(p)
        if rx is None:
            rx = self.patterns[p] = re.compile(p)
        return rx

    def errors(self, value, schema, path):
        """All errors of value under schema, as "path: message" strings."""
        if schema is True:
            return []
        if schema is False:
            return ["%s: not allowed here" % (path or "/")]
        if not isinstance(schema, dict):
            raise ValueError("schema_check: a schema must be an object or a"
                             " boolean, got %r" % (schema,))
        unknown = set(schema) - _KNOWN
        if unknown:
            raise ValueError("schema_check: unsupported keywords %s at %s"
                             % (sorted(unknown), path or "/"))
        errs = []
        where = path or "/"

        if "$ref" in schema:
            errs += self.errors(value, _resolve(self.root, schema["$ref"]),
                                path)

        if "type" in schema:
            types = schema["type"]
            if isinstance(types, str):
                types = [types]
            if not any(_is_type(value, t) for t in types):
                # the rest of the keywords would only repeat this
                return errs + ["%s: expected %s, got %s"
                               % (where, " or ".join(types), _short(value))]

        if "enum" in schema and not any(_equal(value, e)
                                        for e in schema["enum"]):
            errs.append("%s: %s is not one of %s"
                        % (where, _short(value), _short(schema["enum"])))
        if "const" in schema and not _equal(value, schema["const"]):
            errs.append("%s: %s is not %s"
                        % (where, _short(value), _short(schema["const"])))

        if isinstance(value, str):
            if "minLength" in schema and len(value) < schema["minLength"]:
                errs.append("%s: %s is shorter than %d"
                            % (where, _short(value), schema["minLength"]))
            if "maxLength" in schema and len(value) > schema["maxLength"]:
                errs.append("%s: %s is longer than %d"
                            % (where, _short(value), schema["maxLength"]))
            if "pattern" in schema and not self.pattern(
                    schema["pattern"]).search(value):
                errs.append("%s: %s does not match %s"
                            % (where, _short(value), schema["pattern"]))
            if "format" in schema and not _format_ok(schema["format"],
                                                     value):
                errs.append("%s: %s is not a %s"
                            % (where, _short(value), schema["format"]))

        if _is_type(value, "number"):
            if "minimum" in schema and value < schema["minimum"]:
                errs.append("%s: %s is less than %s"
                            % (where, value, schema["minimum"]))
            if "maximum" in schema and value > schema["maximum"]:
                errs.append("%s: %s is more than %s"
                            % (where, value, schema["maximum"]))

        if isinstance(value, dict):
            for k in schema.get("required", ()):
                if k not in value:
                    errs.append("%s: required key %r is missing" % (where, k))
            props = schema.get("properties", {})
            extra = schema.get("additionalProperties", True)
            for k, v in value.items():
                sub = "%s/%s" % (path, _pointer_escape(k))
                if k in props:
                    errs += self.errors(v, props[k], sub)
                elif extra is False:
                    errs.append("%s: key %r is not allowed" % (where, k))
                elif extra is not True:
                    errs += self.errors(v, extra, sub)

        if isinstance(value, list):
            if "minItems" in schema and len(value) < schema["minItems"]:
                errs.append("%s: fewer than %d items"
                            % (where, schema["minItems"]))
            if "maxItems" in schema and len(value) > schema["maxItems"]:
                errs.append("%s: more than %d items"
                            % (where, schema["maxItems"]))
            if "items" in schema:
                for i, v in enumerate(value):
                    errs += self.errors(v, schema["items"],
                                        "%s/%d" % (path, i))

        for sub in schema.get("allOf", ()):
            errs += self.errors(value, sub, path)
        if "anyOf" in schema:
            results = [self.errors(value, s, path) for s in schema["anyOf"]]
            if all(results):
                errs.append("%s: matches none of anyOf: %s"
                            % (where, "; ".join(r[0] for r in results)))
        if "oneOf" in schema:
            results = [self.errors(value, s, path) for s in schema["oneOf"]]
            good = sum(1 for r in results if not r)
            if good != 1:
                errs.append("%s: matches %d of oneOf, not exactly one"
                            % (where, good))
        if "not" in schema and not self.errors(value, schema["not"], path):
            errs.append("%s: matches a schema it must not" % where)
        return errs


def validate(instance, schema):
    """The list of errors of instance under schema ([] when it is valid)."""
    return _Validator(schema).errors(instance, schema, "")


def check(instance, schema, what="instance"):
    """Raise ValueError listing every error when instance is invalid."""
    errs = validate(instance, schema)
    if errs:
        raise ValueError("%s does not match the schema:\n  %s"
                         % (what, "\n  ".join(errs)))


def load(path):
    with open(path, encoding="utf-8") as f:
        return json.load(f)


def main(argv):
    if len(argv) < 3:
        sys.stderr.write("usage: schema_check.py SCHEMA FILE...\n")
        return 2
    schema = load(argv[1])
    bad = 0
    for path in argv[2:]:
        errs = validate(load(path), schema)
        for e in errs:
            print("%s: %s" % (path, e))
        if not errs:
            print("%s: OK" % path)
        bad += bool(errs)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
