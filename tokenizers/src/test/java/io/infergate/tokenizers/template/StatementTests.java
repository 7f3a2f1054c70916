package io.infergate.tokenizers.template;

import org.junit.jupiter.api.Test;

import static io.infergate.tokenizers.template.TemplateAssertions.assertRender;
import static io.infergate.tokenizers.template.TemplateAssertions.assertRenderFails;

/**
 * Statements: if, for (with its loop variable, else, filters, unpacking, break and continue), set and block set,
 * jinja2's scoping (a set inside a loop does not leak, which is why templates use namespace), macros, raw,
 * generation, with, filter blocks, comments and the global functions.
 * <p>
 * Expected renderings and error messages came from jinja2 3.1.6 in Hugging Face's environment, through
 * {@code src/test/python/render_reference.py}.
 */
class StatementTests {

	@Test
	void ifElifElse() {
		assertRender(
				"{% for n in [0, 1, 2, 3] %}{% if n == 1 %}one{% elif n == 2 %}two{% elif n > 2 %}"
				+ "many{% else %}none{% endif %} {% endfor %}",
				"none one two many ");
		assertRender(
				"{% if messages %}has{% endif %}{% if [] %}no{% endif %}"
				+ "{% if messages[0].role == 'system' %} system first{% endif %}",
				"{'messages': [{'role': 'system', 'content': 'S'}, {'role': 'user', 'content': 'U1'}, "
				+ "{'role': 'assistant', 'content': 'A1'}, {'role': 'user', 'content': 'U2'}]}",
				"has system first");
	}

	@Test
	void forLoops() {
		assertRender(
				"{% for m in messages %}{{ m.role }}:{{ m.content }};{% endfor %}",
				"{'messages': [{'role': 'system', 'content': 'S'}, {'role': 'user', 'content': 'U1'}, "
				+ "{'role': 'assistant', 'content': 'A1'}, {'role': 'user', 'content': 'U2'}]}",
				"system:S;user:U1;assistant:A1;user:U2;");
		assertRender(
				"{% for k in d %}{{ k }}{% endfor %} {% for k, v in d.items() %}{{ k }}={{ v }} "
				+ "{% endfor %}{% for a, (b, c) in [(1, (2, 3))] %}{{ a + b + c }}{% endfor %}",
				"{'d': {'x': 1, 'y': 2}}",
				"xy x=1 y=2 6");
		assertRender(
				"{% for c in 'ab' %}[{{ c }}]{% endfor %}{% for x in missing %}never{% endfor %}"
				+ "{% for x in [] %}never{% else %}empty{% endfor %}",
				"[a][b]empty");
		assertRender(
				"{% for m in messages if m.role != 'system' %}{{ loop.index }}/{{ loop.length }} "
				+ "{{ m.content }} {% endfor %}",
				"{'messages': [{'role': 'system', 'content': 'S'}, {'role': 'user', 'content': 'U1'}, "
				+ "{'role': 'assistant', 'content': 'A1'}, {'role': 'user', 'content': 'U2'}]}",
				"1/3 U1 2/3 A1 3/3 U2 ");
		assertRender("{% for x in [1, 2, 3] if x > 5 %}{{ x }}{% else %}none matched{% endfor %}", "none matched");
	}

	@Test
	void loopVariable() {
		assertRender(
				"{% for x in 'abc' %}{{ loop.index }}{{ loop.index0 }}{{ loop.revindex }}"
				+ "{{ loop.revindex0 }}{{ loop.first }}{{ loop.last }}{{ loop.length }}|{% endfor %}",
				"1032TrueFalse3|2121FalseFalse3|3210FalseTrue3|");
		assertRender(
				"{% for x in 'abc' %}{{ loop.previtem }}<{{ x }}>{{ loop.nextitem }} "
				+ "{{ loop.cycle('odd', 'even') }}|{% endfor %}",
				"<a>b odd|a<b>c even|b<c> odd|");
		assertRender(
				"{% for x in [1, 1, 2, 2, 1] %}{{ loop.changed(x) }} "
				+ "{% endfor %}{% for x in 'ab' %}{{ loop.depth }}{{ loop.depth0 }}{% endfor %}",
				"True False True False True 1010");
		assertRender(
				"{% for a in 'xy' %}{% set outer = loop %}{% for b in 'pq' %}{{ outer.index }}"
				+ "{{ loop.index }}{{ a }}{{ b }} {% endfor %}{% endfor %}",
				"11xp 12xq 21yp 22yq ");
		assertRender("{{ loop }}|{% for x in [1] %}{% endfor %}{{ loop is defined }}", "|False");
	}

	/** As in jinja2, a loop's else block runs unless an iteration ran to the end of the body. */
	@Test
	void breakAndContinue() {
		assertRender(
				"{% for x in range(10) %}{% if x is odd %}{% continue %}{% endif %}{% if x > 6 %}"
				+ "{% break %}{% endif %}{{ x }}{% endfor %}",
				"0246");
		assertRender(
				"{% for x in [1, 2] %}{% for y in [1, 2, 3] %}{% if y == 2 %}{% break %}{% endif %}{{ x }}"
				+ "{{ y }} {% endfor %}{% endfor %}",
				"11 21 ");
		assertRender(
				"{% for x in [1, 2] %}{% break %}{% else %}else{% endfor %} "
				+ "{% for x in [1, 2] %}{% continue %}{% else %}else{% endfor %}",
				"else else");
		assertRender(
				"{% for x in [1, 2] %}{% if x == 2 %}{% continue %}{% endif %}{% else %}else{% endfor %}|",
				"|");
		assertRender(
				"{% for i in [1, 2] %}{% for a in [] %}{% else %}E{% break %}{% endfor %}{{ i }}{% endfor %}",
				"E");
		assertRender(
				"{% for i in [1, 2, 3] %}{% set b %}{% if i == 2 %}{% continue %}{% endif %}<{{ i }}"
				+ ">{% endset %}{{ b }}{% endfor %}",
				"<1><3>");
	}

	@Test
	void recursiveLoops() {
		assertRender(
				"{% for node in tree recursive %}{{ loop.depth }}{{ node.n }}"
				+ "{% if node.c %}[{{ loop(node.c) }}]{% endif %}{% endfor %}",
				"{'tree': [{'n': 'a', 'c': [{'n': 'b', 'c': []}, {'n': 'c', 'c': [{'n': 'd', 'c': []}]}]}, "
				+ "{'n': 'e', 'c': []}]}",
				"1a[2b2c[3d]]1e");
	}

	@Test
	void set() {
		assertRender(
				"{% set a = 1 %}{% set b, c = 2, 3 %}{% set e = (4, 5) %}{% set f, g = e %}{{ a }}{{ b }}"
				+ "{{ c }}{{ f }}{{ g }}",
				"12345");
		assertRender("{% set t = 1, 2 %}{{ t }} {% set x = 'a' %}{% set x = x ~ 'b' %}{{ x }}", "(1, 2) ab");
		assertRender(
				"{% set messages = messages[1:] %}{{ messages|length }} {{ messages[0].content }}",
				"{'messages': [{'role': 'system', 'content': 'S'}, {'role': 'user', 'content': 'U1'}, "
				+ "{'role': 'assistant', 'content': 'A1'}, {'role': 'user', 'content': 'U2'}]}",
				"3 U1");
		assertRender(
				"{% set block %}\n"
				+ "  text {{ 1 + 1 }}\n"
				+ "{% endset %}[{{ block }}]{% set shout | upper | trim %}  quiet  {% endset %}[{{ shout }}]",
				"[  text 2\n][QUIET]");
	}

	/** As in jinja2: every loop iteration has its own scope; if blocks have none. */
	@Test
	void scoping() {
		assertRender(
				"{% set x = 1 %}{% for i in [1, 2] %}{{ x }}{% set x = 2 %}{{ x }}{% endfor %}{{ x }}",
				"12121");
		assertRender(
				"{% for i in [1, 2] %}{% if i == 2 %}[{{ y }}]{% endif %}{% set y = i %}{% endfor %}[{{ y }}]",
				"[][]");
		assertRender(
				"{% if true %}{% set z = 'leaks' %}{% endif %}{{ z }} "
				+ "{% for i in [1] %}{% set w = 'stays' %}{% endfor %}[{{ w }}] [{{ i }}]",
				"leaks [] []");
		assertRender(
				"{% set ns = namespace(total=0, last=none) %}{% for x in [1, 2, 3] "
				+ "%}{% set ns.total = ns.total + x %}{% set ns.last = x %}{% endfor %}{{ ns.total }} {{ ns.last }}",
				"6 3");
		assertRender(
				"{% for i in [] %}{% else %}{% set z = 1 %}{% endfor %}[{{ z }}] "
				+ "{% set s %}{% set inner = 1 %}{% endset %}[{{ inner }}]",
				"[] []");
		assertRender(
				"{% set ns = namespace({'a': 1}, b=2) %}{{ ns.a }}{{ ns.b }}{{ ns['a'] }}{{ ns.c }}|{{ ns }}",
				"121|<Namespace {'a': 1, 'b': 2}>");
		assertRenderFails("{% set d = {} %}{% set d.x = 1 %}")
			.hasMessageContaining("cannot assign attribute on non-namespace object");
	}

	/**
	 * jinja2 resolves names per frame at compile time: a name a frame assigns before reading it starts undefined in
	 * that frame, even for loops and macros that read it earlier; a read first keeps the caller's value.
	 */
	@Test
	void assignmentsHideOuterValuesForTheWholeFrame() {
		assertRender(
				"{% for i in [1] %}[{{ x }}]{% endfor %}{% set x = 1 %}{{ x }}",
				"{'x': 'caller'}",
				"[]1");
		assertRender(
				"{% macro m() %}[{{ x }}]{% endmacro %}{{ m() }}{% set x = 1 %}{{ m() }}",
				"{'x': 'caller'}",
				"[][1]");
		assertRender(
				"{{ x }}{% macro m() %}[{{ x }}]{% endmacro %}{{ m() }}{% set x = 1 %}{{ m() }}",
				"{'x': 'caller'}",
				"caller[caller][1]");
		assertRender(
				"{% if false %}{% set x = 1 %}{% endif %}{{ x }} "
				+ "{% for i in [1] %}{% for j in [1] %}[{{ y }}]{% endfor %}{% set y = 2 %}{% endfor %}",
				"{'x': 'caller', 'y': 'caller'}",
				"caller []");
	}

	@Test
	void macros() {
		assertRender(
				"{% macro greet(name, punct='!') %}Hi {{ name }}{{ punct }}{% endmacro %}{{ greet('Bob') }}"
				+ " {{ greet('Al', punct='?') }} {{ greet(punct='.', name='Cy') }}",
				"Hi Bob! Hi Al? Hi Cy.");
		assertRender(
				"{% macro m(a, b=a * 2) %}{{ a }},{{ b }},[{{ c }}]{% endmacro %}{{ m(3) }} {{ m(b=1) }}",
				"3,6,[] ,1,[]");
		assertRender(
				"{% macro fact(n) %}{% if n <= 1 %}1{% else %}{{ n * fact(n - 1)|int }}"
				+ "{% endif %}{% endmacro %}{{ fact(10) }}",
				"3628800");
		assertRender(
				"{% set x = 'early' %}{% macro show() %}{{ x }}{% set x = 'local' %}{% endmacro %}"
				+ "{% set x = 'late' %}{{ show() }} {{ x }}",
				"late late");
		assertRender("{% macro v() %}{{ varargs }} {{ kwargs }}{% endmacro %}{{ v(1, 2, k=3) }}", "(1, 2) {'k': 3}");
		assertRender(
				"{%- macro render(m) -%}\n"
				+ "  <{{ m.role }}>{{ m.content | trim }}\n"
				+ "{%- endmacro -%}\n"
				+ "{% for m in messages %}{{ render(m) }}{% endfor %}",
				"{'messages': [{'role': 'system', 'content': 'S'}, {'role': 'user', 'content': 'U1'}, "
				+ "{'role': 'assistant', 'content': 'A1'}, {'role': 'user', 'content': 'U2'}]}",
				"<system>S<user>U1<assistant>A1<user>U2");
		assertRenderFails("{% macro m(a) %}{% endmacro %}{{ m(1, 2) }}")
			.hasMessageContaining("macro 'm' takes not more than 1 argument(s)");
		assertRenderFails("{% macro m(a) %}{% endmacro %}{{ m(b=1) }}")
			.hasMessageContaining("macro 'm' takes no keyword argument 'b'");
	}

	@Test
	void otherBlocks() {
		assertRender(
				"{% generation %}{% set g = 1 %}in {{ messages[1].content }}{% endgeneration %} [{{ g }}]",
				"{'messages': [{'role': 'system', 'content': 'S'}, {'role': 'user', 'content': 'U1'}, "
				+ "{'role': 'assistant', 'content': 'A1'}, {'role': 'user', 'content': 'U2'}]}",
				"in U1 []");
		assertRender(
				"{% with a = 1, b = d.y %}{{ a + b }}{% endwith %}[{{ a }}]",
				"{'d': {'x': 1, 'y': 2}}",
				"3[]");
		assertRender("{% filter upper %}shout {{ 'this' }}{% endfilter %}", "SHOUT THIS");
		assertRender("a{# a comment {{ 'not rendered' }} #}b{#- trimmed -#}  c", "abc");
		assertRender("{% print 'printed' %}", "printed");
	}

	@Test
	void globals() {
		assertRender(
				"{{ range(4)|list }} {{ range(2, 5)|list }} {{ range(10, 0, -3)|list }} {{ range(3) }} "
				+ "{{ range(0)|list }}",
				"[0, 1, 2, 3] [2, 3, 4] [10, 7, 4, 1] range(0, 3) []");
		assertRender("{{ dict(a=1) }} {{ dict({'a': 1}, b=2) }} {{ dict([('k', 'v')]) }}",
				"{'a': 1} {'a': 1, 'b': 2} {'k': 'v'}");
		assertRender(
				"{% set j = joiner(' | ') %}{% for x in 'abc' %}{{ j() }}{{ x }}{% endfor %} "
				+ "{% set c = cycler('x', 'y') %}{{ c.next() }}{{ c.next() }}{{ c.next() }}{{ c.current }}",
				"a | b | c xyxy");
		assertRender(
				"{{ strftime_now('%Y-%m-%d %H:%M:%S') }} {{ strftime_now('%d %b %Y') }} "
				+ "{{ strftime_now('%A, %B %-d, %y %I%p day %j %%') }}",
				"2024-07-09 05:06:07 09 Jul 2024 Tuesday, July 9, 24 05AM day 191 %");
		assertRenderFails(
				"{{ raise_exception('Conversation roles must alternate user/assistant/user/assistant/...') }}")
			.hasMessage("Conversation roles must alternate user/assistant/user/assistant/...");
		assertRenderFails("{{ range(100001)|length }}")
			.hasMessageContaining("Range too big. The sandbox blocks ranges larger than MAX_RANGE (100000).");
		assertRender("{% set range = 'shadowed' %}{{ range }} {{ namespace is defined }}", "shadowed True");
	}

}
