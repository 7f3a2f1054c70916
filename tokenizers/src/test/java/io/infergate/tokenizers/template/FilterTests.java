package io.infergate.tokenizers.template;

import org.junit.jupiter.api.Test;

import static io.infergate.tokenizers.template.TemplateAssertions.assertRender;
import static io.infergate.tokenizers.template.TemplateAssertions.assertRenderFails;

/**
 * jinja2's built-in filters, with Python's semantics for the values they receive and return.
 * <p>
 * Expected renderings and error messages came from jinja2 3.1.6 in Hugging Face's environment, through
 * {@code src/test/python/render_reference.py}.
 */
class FilterTests {

	@Test
	void stringFilters() {
		assertRender(
				"[{{ s|trim }}] [{{ 'xxhixx'|trim('x') }}] [{{ s|lower }}] [{{ s|upper }}] "
				+ "[{{ 'hELLO wORLD'|capitalize }}]",
				"{'s': '  Hello World  '}",
				"[Hello World] [hi] [  hello world  ] [  HELLO WORLD  ] [Hello world]");
		assertRender(
				"{{ 'hello wORLD-foo(bar [baz'|title }} {{ 'a b'|center(7) }}| {{ 'Hello World, hi!'|wordcount }}",
				"Hello World-Foo(Bar [Baz   a b  | 3");
		assertRender(
				"{{ 'a-b-c'|replace('-', '+') }} {{ 'a-b-c'|replace('-', '', 1) }} "
				+ "{{ 'ab'|replace('', '.') }} {{ 1.5|string }} {{ n|string }} {{ [1, 'a']|string }}",
				"{'n': null}",
				"a+b+c ab-c .a.b. 1.5 None [1, 'a']");
		assertRender(
				"{{ 'a\\nb\\n\\nc'|indent }}|{{ 'a\\nb'|indent(2, true) }}|{{ 'a\\n\\nb'|indent('> ', blank=true) }}",
				"a\n    b\n\n    c|  a\n  b|a\n> \n> b");
		assertRender(
				"{{ '<a href=\"x\">Tom & \\'Jerry\\'</a>'|e }} {{ '<b>'|escape }} {{ '<i>'|safe }} {{ none|e }}",
				"&lt;a href=&#34;x&#34;&gt;Tom &amp; &#39;Jerry&#39;&lt;/a&gt; &lt;b&gt; <i> None");
		assertRender(
				"{{ n|lower }} {{ missing|upper }}|{{ missing|trim }}|{{ 42|string|length }}",
				"{'n': null}",
				"none ||2");
	}

	@Test
	void sequenceFilters() {
		assertRender(
				"{{ [3, 1, 2]|first }} {{ [3, 1, 2]|last }} {{ 'xyz'|first }} {{ 'xyz'|last }} "
				+ "{{ d|first }} {{ []|first }}|",
				"{'d': {'b': 2, 'a': 1, 'C': 3}}",
				"3 2 x z b |");
		assertRender(
				"{{ [1, 2, 3]|length }} {{ 'a\ud83d\ude00b'|length }} {{ d|count }} {{ missing|length }} "
				+ "{{ [1, 2]|join }} {{ [1, none, 'a']|join(', ') }}",
				"{'d': {'b': 2, 'a': 1, 'C': 3}}",
				"3 3 3 0 12 1, None, a");
		assertRender(
				"{{ 'abc'|list }} {{ d|list }} {{ (1, 2)|list }} {{ [3, 1, 2]|reverse|list }} {{ 'abc'|reverse }}",
				"{'d': {'b': 2, 'a': 1, 'C': 3}}",
				"['a', 'b', 'c'] ['b', 'a', 'C'] [1, 2] [2, 1, 3] cba");
		assertRender(
				"{{ [3, 1, 2]|sort }} {{ ['b', 'A', 'c']|sort }} "
				+ "{{ ['b', 'A', 'c']|sort(case_sensitive=true) }} {{ [3, 1, 2]|sort(reverse=true) }}",
				"[1, 2, 3] ['A', 'b', 'c'] ['A', 'b', 'c'] [3, 2, 1]");
		assertRender(
				"{{ users|sort(attribute='name')|map(attribute='name')|join(',') }} "
				+ "{{ users|sort(attribute='age,name', reverse=true)|map(attribute='name')|join(',') }}",
				"{'users': [{'name': 'Bob', 'age': 30, 'admin': true}, {'name': 'alice', 'age': 25}, "
				+ "{'name': 'Carl', 'age': 30, 'tags': ['x']}]}",
				"alice,Bob,Carl Carl,Bob,alice");
		assertRender(
				"{{ [1, 2, 2, 'a', 'A']|unique|list }} {{ ['a', 'A']|unique(case_sensitive=true)|list }} "
				+ "{{ users|unique(attribute='age')|map(attribute='name')|list }}",
				"{'users': [{'name': 'Bob', 'age': 30, 'admin': true}, {'name': 'alice', 'age': 25}, "
				+ "{'name': 'Carl', 'age': 30, 'tags': ['x']}]}",
				"[1, 2, 'a'] ['a', 'A'] ['Bob', 'alice']");
		assertRender(
				"{{ [1, 2, 3, 4, 5]|batch(2)|list }} {{ [1, 2, 3, 4, 5]|batch(2, 0)|list }} "
				+ "{{ [1, 2, 3, 4, 5]|slice(2)|list }}",
				"[[1, 2], [3, 4], [5]] [[1, 2], [3, 4], [5, 0]] [[1, 2, 3], [4, 5]]");
		assertRender(
				"{{ [1, 2, 3]|sum }} {{ users|sum(attribute='age') }} {{ [0.5, 1]|sum(start=10) }} "
				+ "{{ [3, 1, 2]|min }} {{ [3, 1, 2]|max }} {{ ['b', 'A']|min }} "
				+ "{{ users|max(attribute='age')|attr('name') }} {{ []|max }}|",
				"{'users': [{'name': 'Bob', 'age': 30, 'admin': true}, {'name': 'alice', 'age': 25}, "
				+ "{'name': 'Carl', 'age': 30, 'tags': ['x']}]}",
				"6 85 11.5 1 3 A  |");
		assertRender(
				"{{ d|dictsort }} {{ d|dictsort(true) }} {{ d|dictsort(by='value', reverse=true) }} {{ d|items|list }}",
				"{'d': {'b': 2, 'a': 1, 'C': 3}}",
				"[('a', 1), ('b', 2), ('C', 3)] [('C', 3), ('a', 1), ('b', 2)] "
				+ "[('C', 3), ('b', 2), ('a', 1)] [('b', 2), ('a', 1), ('C', 3)]");
	}

	@Test
	void mapSelectAndReject() {
		assertRender(
				"{{ users|map(attribute='name')|join(', ') }} {{ users|map(attribute='tags.0', "
				+ "default='-')|list }} {{ ['A', 'b']|map('lower')|list }} {{ [1, 2]|map('tojson')|join(' | ') }}",
				"{'users': [{'name': 'Bob', 'age': 30, 'admin': true}, {'name': 'alice', 'age': 25}, "
				+ "{'name': 'Carl', 'age': 30, 'tags': ['x']}]}",
				"Bob, alice, Carl ['-', '-', 'x'] ['a', 'b'] 1 | 2");
		assertRender(
				"{{ users|selectattr('admin')|map(attribute='name')|list }} "
				+ "{{ users|rejectattr('admin')|map(attribute='name')|list }} "
				+ "{{ users|selectattr('age', 'equalto', 30)|map(attribute='name')|list }}",
				"{'users': [{'name': 'Bob', 'age': 30, 'admin': true}, {'name': 'alice', 'age': 25}, "
				+ "{'name': 'Carl', 'age': 30, 'tags': ['x']}]}",
				"['Bob'] ['alice', 'Carl'] ['Bob', 'Carl']");
		assertRender(
				"{{ users|selectattr('name', 'in', ['Bob', 'alice'])|list|length }} "
				+ "{{ [0, 1, '', 'a', none]|select|list }} {{ [1, 2, 3, 4]|reject('odd')|list }} "
				+ "{{ [1, 2, 3]|select('gt', 1)|list }}",
				"{'users': [{'name': 'Bob', 'age': 30, 'admin': true}, {'name': 'alice', 'age': 25}, "
				+ "{'name': 'Carl', 'age': 30, 'tags': ['x']}]}",
				"2 [1, 'a'] [2, 4] [2, 3]");
		assertRender(
				"{{ ['a', 1, none]|select('string')|list }} {{ ['a', 1, none]|reject('none')|list }} "
				+ "{{ missing|map('upper')|list }} {{ missing|select|list }}",
				"['a'] ['a', 1] [] []");
		assertRenderFails("{{ [1]|map('nosuch')|list }}")
			.hasMessageContaining("No filter named 'nosuch'");
	}

	@Test
	void defaultFilter() {
		assertRender(
				"{{ missing|default('dflt') }} {{ ''|default('empty') }} {{ ''|default('empty', true) }} "
				+ "{{ n|d('none is defined') }} {{ 0|d(5, boolean=true) }}",
				"{'d': {'b': 2, 'a': 1, 'C': 3}, 'n': null}",
				"dflt  empty None 5");
	}

	@Test
	void numberFilters() {
		assertRender(
				"{{ '42'|int }} {{ ' 7 '|int }} {{ '4.7'|int }} {{ 'x'|int }} {{ 'x'|int(5) }} "
				+ "{{ 3.9|int }} {{ -3.9|int }} {{ '0x1A'|int(base=16) }} {{ '0b11'|int(0, 0) }} "
				+ "{{ true|int }} {{ n|int }}",
				"{'n': null}",
				"42 7 4 0 5 3 -3 26 3 1 0");
		assertRender(
				"{{ '4.5'|float }} {{ 'x'|float }} {{ 3|float }} {{ '1e3'|float }} {{ n|float(-1.0) }}",
				"{'n': null}",
				"4.5 0.0 3.0 1000.0 -1.0");
		assertRender(
				"{{ -3|abs }} {{ -3.5|abs }} {{ 2.5|round }} {{ 3.5|round }} {{ 2.675|round(2) }} "
				+ "{{ 42.55|round(1, 'floor') }} {{ 42.51|round(1, 'ceil') }} {{ 7|round }} {{ 1234|round(-2) }}",
				"3 3.5 2.0 4.0 2.67 42.5 42.6 7 1200");
	}

	@Test
	void filterBlocksAndChains() {
		assertRender(
				"{{ '  A b  '|trim|lower|replace(' ', '_') }} {{ "
				+ "users|map(attribute='name')|map('upper')|sort|join('') }}",
				"{'users': [{'name': 'Bob', 'age': 30, 'admin': true}, {'name': 'alice', 'age': 25}, "
				+ "{'name': 'Carl', 'age': 30, 'tags': ['x']}]}",
				"a_b ALICEBOBCARL");
	}

}
