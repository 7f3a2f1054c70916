package io.infergate.tokenizers.template;

import org.junit.jupiter.api.Test;

import static io.infergate.tokenizers.template.TemplateAssertions.assertRender;
import static io.infergate.tokenizers.template.TemplateAssertions.assertRenderFails;

/**
 * Python methods templates call on strings, dicts and lists. Lists and dicts are immutable, as in Hugging Face's
 * ImmutableSandboxedEnvironment: methods that would modify them are refused.
 * <p>
 * Expected renderings and error messages came from jinja2 3.1.6 in Hugging Face's environment, through
 * {@code src/test/python/render_reference.py}.
 */
class MethodTests {

	@Test
	void stringCaseAndPredicates() {
		assertRender(
				"{{ s.upper() }} {{ s.lower() }} {{ 'hello wORLD'.title() }} {{ 'hELLO'.capitalize() }} "
				+ "{{ 'AbC'.swapcase() }}",
				"{'s': 'Hello World'}",
				"HELLO WORLD hello world Hello World Hello aBc");
		assertRender(
				"{{ '123'.isdigit() }} {{ '12a'.isdigit() }} {{ 'abc'.isalpha() }} {{ ' \\t\\n'.isspace() }} "
				+ "{{ 'abc'.islower() }} {{ 'ABC1'.isupper() }} {{ ''.isdigit() }} {{ 'a1'.isalnum() }}",
				"True False True True True True False True");
	}

	@Test
	void stringStripAndAffixes() {
		assertRender(
				"[{{ '  x  '.strip() }}] [{{ '  x  '.lstrip() }}] [{{ '  x  '.rstrip() }}] "
				+ "[{{ 'xxhixx'.strip('x') }}] [{{ '\\n\\nhi\\n'.lstrip('\\n') }}]",
				"[x] [x  ] [  x] [hi] [hi\n]");
		assertRender(
				"{{ s.startswith('He') }} {{ s.startswith(('x', 'Hell')) }} {{ s.endswith('ld') }} "
				+ "{{ s.startswith('World', 6) }} {{ s.endswith(('a', 'b')) }}",
				"{'s': 'Hello World'}",
				"True True True True False");
		assertRender(
				"{{ 'prefix_x'.removeprefix('prefix_') }} {{ 'x.txt'.removesuffix('.txt') }} "
				+ "{{ 'a.b.c'.partition('.') }} {{ 'a.b.c'.rpartition('.') }}",
				"x x ('a', '.', 'b.c') ('a.b', '.', 'c')");
	}

	@Test
	void stringSplitting() {
		assertRender(
				"{{ csv.split(',') }} {{ csv.split(',', 1) }} {{ ' a  b \\n c '.split() }} "
				+ "{{ 'a b c'.split(None, 1) }} {{ csv.rsplit(',', 1) }} {{ ''.split() }} {{ ''.split(',') }}",
				"{'csv': 'a,b,,c'}",
				"['a', 'b', '', 'c'] ['a', 'b,,c'] ['a', 'b', 'c'] ['a', 'b c'] ['a,b,', 'c'] [] ['']");
		assertRender("{{ 'x\\ny\\r\\nz\\n'.splitlines() }} {{ 'x\\ny\\n'.splitlines(true) }}",
				"['x', 'y', 'z'] ['x\\n', 'y\\n']");
		assertRender(
				"{{ t.split('</think>')[-1].lstrip('\\n') }}|{{ "
				+ "t.split('</think>')[0].rstrip('\\n').split('<think>')[-1].lstrip('\\n') }}",
				"{'t': '<think>\\nreason\\n</think>\\n\\nanswer'}",
				"answer|reason");
		assertRenderFails("{{ 'a'.split('') }}")
			.hasMessageContaining("empty separator");
	}

	@Test
	void stringSearchAndReplace() {
		assertRender(
				"{{ s.find('o') }} {{ s.rfind('o') }} {{ s.find('z') }} {{ s.find('o', 5) }} "
				+ "{{ s.index('W') }} {{ s.count('l') }} {{ emoji.find('y') }}",
				"{'s': 'Hello World', 'emoji': 'x\ud83d\ude00y', 'l': ['x', 'y', 'x']}",
				"4 7 -1 7 6 3 2");
		assertRender(
				"{{ s.replace('o', '0') }} {{ s.replace('o', '0', 1) }} {{ ', '.join(['a', 'b']) }} "
				+ "{{ '-'.join('abc') }}",
				"{'s': 'Hello World'}",
				"Hell0 W0rld Hell0 World a, b a-b-c");
		assertRender(
				"{{ '{} and {}'.format(1, 'b') }} {{ '{0}{1}{0}'.format('a', 'b') }} "
				+ "{{ '{name}!'.format(name='x') }} {{ '{:>6}|{:<3}|{:^5}|{:.2f}|{:,}'.format('r', 'l', 'c', "
				+ "3.14159, 1234567) }}",
				"1 and b aba x!      r|l  |  c  |3.14|1,234,567");
		assertRender(
				"{{ 'x'.center(5, '*') }} {{ 'x'.ljust(3, '.') }} {{ 'x'.rjust(3) }} {{ '42'.zfill(5) }} "
				+ "{{ '-42'.zfill(5) }}",
				"**x** x..   x 00042 -0042");
		assertRenderFails("{{ ','.join([1, 2]) }}")
			.hasMessageContaining("sequence item 0: expected str instance, int found");
		assertRenderFails("{{ s.index('z') }}", "{'s': 'Hello World'}")
			.hasMessageContaining("substring not found");
	}

	@Test
	void dictMethods() {
		assertRender(
				"{{ d.items()|list }} {{ d.keys()|list }} {{ d.values()|list }} {{ d.get('a') }} "
				+ "{{ d.get('z') }} {{ d.get('z', 'dflt') }} {{ d.get('b', 'dflt') }}",
				"{'d': {'a': 1, 'b': null}}",
				"[('a', 1), ('b', None)] ['a', 'b'] [1, None] 1 None dflt None");
		assertRender(
				"{% for k, v in d.items() %}{{ k }}={{ v }};{% endfor %} {{ d.items() }} {{ d.keys() }}",
				"{'d': {'a': 1, 'b': null}}",
				"a=1;b=None; dict_items([('a', 1), ('b', None)]) dict_keys(['a', 'b'])");
	}

	@Test
	void listMethods() {
		assertRender(
				"{{ l.index('y') }} {{ l.count('x') }} {{ (1, 2, 1).count(1) }} {{ (1, 2).index(2) }}",
				"{'l': ['x', 'y', 'x']}",
				"1 2 2 1");
		assertRenderFails("{{ l.index('z') }}", "{'l': ['x', 'y', 'x']}")
			.hasMessageContaining("'z' is not in list");
	}

	@Test
	void mutatingMethodsAreRefused() {
		assertRenderFails("{{ l.append('z') }}", "{'l': ['x', 'y', 'x']}")
			.hasMessageContaining("access to attribute 'append' of 'list' object is unsafe.");
		assertRenderFails("{{ l.pop() }}", "{'l': ['x', 'y', 'x']}")
			.hasMessageContaining("access to attribute 'pop' of 'list' object is unsafe.");
		assertRenderFails("{{ d.update({'c': 3}) }}", "{'d': {'a': 1, 'b': null}}")
			.hasMessageContaining("access to attribute 'update' of 'dict' object is unsafe.");
		assertRenderFails("{{ d.clear() }}", "{'d': {'a': 1, 'b': null}}")
			.hasMessageContaining("access to attribute 'clear' of 'dict' object is unsafe.");
		assertRender("[{{ l.append }}] {{ l.append is defined }} {{ l }}", "{'l': ['x', 'y', 'x']}",
				"[] False ['x', 'y', 'x']");
	}

}
