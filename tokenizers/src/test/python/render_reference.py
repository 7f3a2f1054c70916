#!/usr/bin/env python3
"""Renders chat templates the way Hugging Face transformers' apply_chat_template does (the reference for ChatTemplate).

The environment mirrors transformers' _compile_jinja_template: an ImmutableSandboxedEnvironment with trim_blocks,
lstrip_blocks and loop controls, the raise_exception and strftime_now globals, tojson replaced by json.dumps
(ensure_ascii=False) and a {% generation %} tag that renders its body (as a call block, like transformers' tracker).

Usage: render_reference.py CASES.json
CASES.json holds a list of {"name": ..., "template": ... or "tokenizer_config": path, "vars": {...}}.
Prints a JSON list of {"name": ..., "output": ...} or {"name": ..., "error": "ExceptionType: message"}.
Set INFERGATE_NOW=2024-07-09T05:06:07 to pin strftime_now's clock.
"""
import json
import os
import sys
from datetime import datetime

import jinja2
from jinja2 import nodes
from jinja2.ext import Extension
from jinja2.sandbox import ImmutableSandboxedEnvironment


class GenerationTag(Extension):
	tags = {"generation"}

	def parse(self, parser):
		lineno = next(parser.stream).lineno
		body = parser.parse_statements(["name:endgeneration"], drop_needle=True)
		call = self.call_method("_generation_support")
		return nodes.CallBlock(call, [], [], body).set_lineno(lineno)

	def _generation_support(self, caller):
		return caller()


def raise_exception(message):
	raise jinja2.exceptions.TemplateError(message)


def tojson(x, ensure_ascii=False, indent=None, separators=None, sort_keys=False):
	return json.dumps(x, ensure_ascii=ensure_ascii, indent=indent, separators=separators, sort_keys=sort_keys)


def strftime_now(format):
	pinned = os.environ.get("INFERGATE_NOW")
	now = datetime.fromisoformat(pinned) if pinned else datetime.now()
	return now.strftime(format)


def environment():
	env = ImmutableSandboxedEnvironment(trim_blocks=True, lstrip_blocks=True,
			extensions=[GenerationTag, jinja2.ext.loopcontrols])
	env.filters["tojson"] = tojson
	env.globals["raise_exception"] = raise_exception
	env.globals["strftime_now"] = strftime_now
	return env


def render(env, case):
	source = case.get("template")
	if source is None:
		with open(case["tokenizer_config"], encoding="utf-8") as f:
			source = json.load(f)["chat_template"]
	try:
		return {"name": case.get("name"), "output": env.from_string(source).render(**case.get("vars", {}))}
	except Exception as e:
		return {"name": case.get("name"), "error": f"{type(e).__name__}: {e}"}


def main():
	with open(sys.argv[1], encoding="utf-8") as f:
		cases = json.load(f)
	env = environment()
	json.dump([render(env, case) for case in cases], sys.stdout, ensure_ascii=False, indent=1)
	print()


if __name__ == "__main__":
	main()
