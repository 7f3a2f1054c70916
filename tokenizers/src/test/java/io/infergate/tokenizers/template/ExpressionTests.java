package io.infergate.tokenizers.template;

import org.junit.jupiter.api.Test;

import static io.infergate.tokenizers.template.TemplateAssertions.assertRender;
import static io.infergate.tokenizers.template.TemplateAssertions.assertRenderFails;

/**
 * Expressions with Python's semantics: literals, printing, arithmetic, comparisons, boolean operators, conditional
 * expressions, precedence, attribute and item access, and slicing.
 * <p>
 * Expected renderings and error messages came from jinja2 3.1.6 in Hugging Face's environment, through
 * {@code src/test/python/render_reference.py}.
 */
class ExpressionTests {

	@Test
	void literals() {
		assertRender(
				"{{ 'single' }} {{ \"double\" }} {{ 'adjacent' ' strings' }} {{ 'it\\'s' }} {{ \"say \\\"hi\\\"\" }}",
				"single double adjacent strings it's say \"hi\"");
		assertRender(
				"{{ 'tab\\there' }}|{{ 'line\\nbreak' }}|{{ '\\u00e9\\x41\\101\\\\' }}|{{ '\\N{BULLET}' }}"
				+ "|{{ 'unknown \\q escape' }}",
				"tab\there|line\nbreak|éAA\\|•|unknown \\q escape");
		assertRender(
				"{{ 42 }} {{ 1_000_000 }} {{ 0x1F }} {{ 0o17 }} {{ 0b101 }} {{ 12345678901234567890123 }}",
				"42 1000000 31 15 5 12345678901234567890123");
		assertRender("{{ 1.5 }} {{ 1e3 }} {{ 2.5E-3 }} {{ 1_0.2_5 }}", "1.5 1000.0 0.0025 10.25");
		assertRender("{{ true }} {{ True }} {{ false }} {{ False }} {{ none }} {{ None }}",
				"True True False False None None");
		assertRender(
				"{{ [1, 'a', none, true, 1.5, []] }} {{ (1,) }} {{ (1, 'b') }} {{ () }} {{ 1, 2 }}",
				"[1, 'a', None, True, 1.5, []] (1,) (1, 'b') () (1, 2)");
		assertRender(
				"{{ {'a': 1, 'b': [1, {'c': none}]} }} {{ {} }} {{ {1: 'one', (1, 2): 'pair'} }}",
				"{'a': 1, 'b': [1, {'c': None}]} {} {1: 'one', (1, 2): 'pair'}");
	}

	/** None, True and False print as Python does; floats print as Python's repr; strings inside containers as repr. */
	@Test
	void printingFollowsPythonStr() {
		assertRender("{{ n }}|{{ [n] }}|{{ true }}|{{ [true, false] }}", "{'n': null}",
				"None|[None]|True|[True, False]");
		assertRender(
				"{{ 1.0 }} {{ 0.5 }} {{ 100.0 }} {{ 0.1 + 0.2 }} {{ 1 / 3 }} {{ 1e16 }} {{ 1e15 }} "
				+ "{{ 1e-05 }} {{ 0.0001 }} {{ -0.0 }} {{ 1.5e300 * 1e10 }}",
				"1.0 0.5 100.0 0.30000000000000004 0.3333333333333333 1e+16 1000000000000000.0 1e-05 0.0001 -0.0 inf");
		assertRender(
				"{{ ['it\\'s', 'say \"x\"', 'both \\' \"', 'new\\nline', '\\x01', 'é\ud83d\ude00', '\\u00a0'] }}",
				"[\"it's\", 'say \"x\"', 'both \\' \"', 'new\\nline', '\\x01', 'é\ud83d\ude00', '\\xa0']");
		assertRender(
				"{{ big }} {{ big * big }} {{ d }}",
				"{'d': {'b': 2, 'a': 1, 'items': 'key'}, 'big': 1180591620717411303424}",
				"1180591620717411303424 1393796574908163946345982392040522594123776 {'b': 2, 'a': 1, 'items': 'key'}");
	}

	@Test
	void arithmetic() {
		assertRender(
				"{{ 7 + 2 }} {{ 7 - 2 }} {{ 7 * 2 }} {{ 7 / 2 }} {{ 7 // 2 }} {{ 7 % 2 }} {{ 7 ** 2 }} {{ 4 / 2 }}",
				"9 5 14 3.5 3 1 49 2.0");
		assertRender(
				"{{ -7 // 2 }} {{ -7 % 3 }} {{ 7 % -3 }} {{ -7.5 // 2 }} {{ -7.5 % 2 }} {{ 2.5 // 0.1 }} {{ 10.5 % 3 }}",
				"-4 2 -2 -4.0 0.5 24.0 1.5");
		assertRender(
				"{{ 2 ** 3 ** 2 }} {{ -2 ** 2 }} {{ 2 ** -1 }} {{ 2.0 ** 3 }} {{ 2 ** 100 }} {{ (-8) ** 3 }}",
				"64 4 0.5 8.0 1267650600228229401496703205376 -512");
		assertRender("{{ 1 + 2.5 }} {{ true + 1 }} {{ 3 * true }} {{ -(3) }} {{ +4 }} {{ - -4 }}", "3.5 2 3 -3 4 4");
		assertRender(
				"{{ big + 1 }} {{ big - big }} {{ big // 3 }} {{ 9223372036854775807 + 1 }} "
				+ "{{ -9223372036854775808 - 1 }}",
				"{'big': 1180591620717411303424}",
				"1180591620717411303425 0 393530540239137101141 9223372036854775808 -9223372036854775809");
	}

	/**
	 * {@code +} concatenates like types only, {@code ~} converts to strings first, {@code *} repeats, {@code %}
	 * formats.
	 */
	@Test
	void stringAndListOperators() {
		assertRender(
				"{{ 'a' + 'b' }} {{ [1] + [2, 3] }} {{ (1,) + (2,) }} {{ 'ab' * 3 }} {{ 3 * 'x' }} "
				+ "{{ [0] * 3 }} {{ 'x' * 0 }}|{{ 'x' * -1 }}|",
				"ab [1, 2, 3] (1, 2) ababab xxx [0, 0, 0] ||");
		assertRender("{{ 1 ~ 'a' ~ none ~ true ~ 1.5 ~ [1] }} {{ missing ~ 'x' }}", "1aNoneTrue1.5[1] x");
		assertRender(
				"{{ '%s and %d' % ('a', 3) }} {{ '%05.2f|%-4s|%x|%r' % (3.14159, 'ab', 255, 'q') }} "
				+ "{{ '%(a)s!' % {'a': 1} }} {{ '100%%' % () }}",
				"a and 3 03.14|ab  |ff|'q' 1! 100%");
		assertRenderFails("{{ 'a' + 1 }}")
			.hasMessageContaining("can only concatenate str (not \"int\") to str");
		assertRenderFails("{{ 1 + 'a' }}")
			.hasMessageContaining("unsupported operand type(s) for +: 'int' and 'str'");
		assertRenderFails("{{ [1] + (2,) }}")
			.hasMessageContaining("can only concatenate list (not \"tuple\") to list");
		assertRenderFails("{{ 'a' * 'b' }}")
			.hasMessageContaining("can't multiply sequence by non-int of type 'str'");
		assertRenderFails("{{ 1 / 0 }}")
			.hasMessageContaining("division by zero");
		assertRenderFails("{{ 1 // 0 }}")
			.hasMessageContaining("division or modulo by zero");
		assertRenderFails("{{ '%s %s' % ('a',) }}")
			.hasMessageContaining("not enough arguments for format string");
	}

	@Test
	void comparisons() {
		assertRender(
				"{{ 1 == 1.0 }} {{ true == 1 }} {{ 'a' == 'a' }} {{ [1, 2] == [1, 2] }} {{ [1] == (1,) }} "
				+ "{{ none == none }} {{ {'a': 1} == {'a': 1} }}",
				"True True True True False True True");
		assertRender(
				"{{ 1 != 2 }} {{ 1 < 2 }} {{ 2 <= 2 }} {{ 'b' > 'a' }} {{ 'B' < 'a' }} "
				+ "{{ [1, 2] < [1, 3] }} {{ [1] < [1, 0] }} {{ 2.5 >= 3 }}",
				"True True True True True True True False");
		assertRender("{{ 1 < 2 < 3 }} {{ 3 > 2 > 2 }} {{ 1 < 3 > 2 }}", "True False True");
		assertRender(
				"{{ 1 in [1, 2] }} {{ 'ell' in 'hello' }} {{ 'a' in d }} {{ 'z' not in d }} "
				+ "{{ 3 not in l }} {{ none in [none] }}",
				"{'d': {'b': 2, 'a': 1, 'items': 'key'}, 'l': [1, 2, 3, 4, 5]}",
				"True True True True False True");
		assertRenderFails("{{ 'a' < 1 }}")
			.hasMessageContaining("'<' not supported between instances of 'str' and 'int'");
		assertRenderFails("{{ none < 1 }}")
			.hasMessageContaining("'<' not supported between instances of 'NoneType' and 'int'");
		assertRenderFails("{{ 1 in 'abc' }}")
			.hasMessageContaining("'in <string>' requires string as left operand, not int");
		assertRenderFails("{{ 1 in n }}", "{'n': null}")
			.hasMessageContaining("argument of type 'NoneType' is not iterable");
	}

	@Test
	void booleanOperatorsReturnOperandsAndShortCircuit() {
		assertRender(
				"{{ 1 and 2 }} {{ 0 and 2 }} {{ 0 or 'x' }} {{ '' or none }} {{ [] or {} }} {{ 'a' and '' }}",
				"2 0 x None {} ");
		assertRender("{{ not 0 }} {{ not 'a' }} {{ not [] }} {{ not none }} {{ not not 1 }}",
				"True False True True True");
		assertRender(
				"{{ false and missing.attr }} {{ true or missing.attr }} {{ missing or 'fallback' }}",
				"False True fallback");
		assertRender(
				"{% if 0.0 or '' or [] or {} or none or missing %}truthy{% else %}all falsy{% endif %}",
				"all falsy");
	}

	@Test
	void conditionalExpressions() {
		assertRender(
				"{{ 'yes' if 1 else 'no' }} {{ 'yes' if 0 else 'no' }} {{ 1 if none else 2 if false else 3 }}",
				"yes no 3");
		assertRender("[{{ 'shown' if false }}] {{ ('shown' if false) is defined }}", "[] False");
	}

	/**
	 * Filters and tests bind tighter than arithmetic, unary minus tighter than filters' operand, {@code not} looser
	 * than tests.
	 */
	@Test
	void precedence() {
		assertRenderFails(
				"{{ 'a' + 'b' | upper }} {{ -1 | abs }} {{ - l | length }} {{ 2 * 3 + 4 }} "
				+ "{{ 2 * (3 + 4) }} {{ 1 + 2 ~ 3 }}",
				"{'l': [1, 2, 3, 4, 5]}")
			.hasMessage("bad operand type for unary -: 'list'");
		assertRender(
				"{{ not n is none }} {{ not 1 == 2 }} {{ l | length > 3 and s is string }} {{ 2 ** 2 * 3 }}",
				"{'l': [1, 2, 3, 4, 5], 's': 'Hello, World', 'n': null}",
				"False True True 12");
		assertRenderFails("{{ 'x' ~ 1 + 2 }} {{ (1, 2)[0] }} {{ [1, 2][-1] + 1 }}")
			.hasMessage("can only concatenate str (not \"int\") to str");
	}

	/** {@code .name} prefers a Python attribute (such as a dict method), {@code [key]} prefers the item. */
	@Test
	void attributeAndItemAccess() {
		assertRender(
				"{{ d.a }} {{ d['b'] }} {{ d['items'] }} {{ d.items()|list }} {{ d.missing }}|{{ d['missing'] }}|",
				"{'d': {'b': 2, 'a': 1, 'items': 'key'}}",
				"1 2 key [('b', 2), ('a', 1), ('items', 'key')] ||");
		assertRender(
				"{{ l[0] }} {{ l[-1] }} {{ l.1 }} {{ l[10] }}|{{ s[0] }} {{ s[-1] }} {{ emoji[1] }} {{ emoji|length }}",
				"{'l': [1, 2, 3, 4, 5], 's': 'Hello, World', 'emoji': 'a\ud83d\ude00b'}",
				"1 5 2 |H d \ud83d\ude00 3");
		assertRender("{{ n.anything }}|{{ n['x'] }}|{{ 5.real }}|", "{'n': null}", "||5|");
	}

	/** Slices of lists, tuples and strings, with negative indexes and steps (strings by code point). */
	@Test
	void slicing() {
		assertRender(
				"{{ l[1:3] }} {{ l[:2] }} {{ l[3:] }} {{ l[-2:] }} {{ l[:-2] }} {{ l[10:] }} {{ l[::2] }}",
				"{'l': [1, 2, 3, 4, 5]}",
				"[2, 3] [1, 2] [4, 5] [4, 5] [1, 2, 3] [] [1, 3, 5]");
		assertRender(
				"{{ l[::-1] }} {{ l[-1:0:-2] }} {{ l[3:1:-1] }} {{ l[1:3:-1] }} {{ (1, 2, 3)[::-1] }}",
				"{'l': [1, 2, 3, 4, 5]}",
				"[5, 4, 3, 2, 1] [5, 3] [4, 3] [] (3, 2, 1)");
		assertRender(
				"{{ s[::-1] }} {{ s[7:] }} {{ s[:-7] }} {{ s[1:10:3] }} {{ emoji[::-1] }} {{ emoji[1:] }}",
				"{'s': 'Hello, World', 'emoji': 'a\ud83d\ude00b'}",
				"dlroW ,olleH World Hello eoW b\ud83d\ude00a \ud83d\ude00b");
		assertRenderFails("{{ l[::0] }}", "{'l': [1, 2, 3, 4, 5]}")
			.hasMessageContaining("slice step cannot be zero");
		assertRenderFails("{{ n[1:] }}", "{'n': null}")
			.hasMessageContaining("'NoneType' object is not subscriptable");
	}

	@Test
	void callsTakePositionalAndKeywordArguments() {
		assertRender(
				"{{ range(3)|list }} {{ range(1, 7, 2)|list }} {{ range(5, 0, -2)|list }} "
				+ "{{ dict(a=1, b=2) }} {{ namespace(x=1).x }}",
				"[0, 1, 2] [1, 3, 5] [5, 3, 1] {'a': 1, 'b': 2} 1");
		assertRender(
				"{% macro m(a, b=2, c=3) %}{{ a }}-{{ b }}-{{ c }}{% endmacro %}{{ m(1) }} {{ m(1, c=9) }} "
				+ "{{ m(*[4, 5]) }} {{ m(**{'a': 7}) }}",
				"1-2-3 1-2-9 4-5-3 7-2-3");
	}

}
