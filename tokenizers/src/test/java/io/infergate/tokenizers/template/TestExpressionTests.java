package io.infergate.tokenizers.template;

import org.junit.jupiter.api.Test;

import static io.infergate.tokenizers.template.TemplateAssertions.assertRender;
import static io.infergate.tokenizers.template.TemplateAssertions.assertRenderFails;

/**
 * The tests of {@code is} expressions, negated with {@code is not}, with arguments in parentheses or after a space.
 * <p>
 * Expected renderings and error messages came from jinja2 3.1.6 in Hugging Face's environment, through
 * {@code src/test/python/render_reference.py}.
 */
class TestExpressionTests {

	@Test
	void typeTests() {
		assertRender(
				"{{ s is string }} {{ i is string }} {{ i is number }} {{ f is number }} {{ b is number }} "
				+ "{{ s is number }}",
				"{'s': 'text', 'i': 7, 'f': 2.5, 'b': true}",
				"True False True True True False");
		assertRender(
				"{{ i is integer }} {{ f is integer }} {{ b is integer }} {{ f is float }} "
				+ "{{ i is float }} {{ b is boolean }} {{ i is boolean }}",
				"{'i': 7, 'f': 2.5, 'b': true}",
				"True False False True False True False");
		assertRender(
				"{{ d is mapping }} {{ l is mapping }} {{ l is sequence }} {{ s is sequence }} "
				+ "{{ d is sequence }} {{ i is sequence }}",
				"{'s': 'text', 'i': 7, 'l': [1, 2], 'd': {'k': 'v'}}",
				"True False True True True False");
		assertRender(
				"{{ l is iterable }} {{ s is iterable }} {{ d is iterable }} {{ i is iterable }} "
				+ "{{ n is iterable }} {{ missing is iterable }}",
				"{'s': 'text', 'i': 7, 'n': null, 'l': [1, 2], 'd': {'k': 'v'}}",
				"True True True False False True");
		assertRender(
				"{{ range is callable }} {{ s.upper is callable }} {{ s is callable }} {{ missing is callable }}",
				"{'s': 'text'}",
				"True True False True");
	}

	@Test
	void valueTests() {
		assertRender(
				"{{ n is none }} {{ n is not none }} {{ s is none }} {{ b is true }} {{ 1 is true }} "
				+ "{{ false is false }} {{ 0 is false }}",
				"{'s': 'text', 'b': true, 'n': null}",
				"True False False True False True False");
		assertRender(
				"{{ s is defined }} {{ missing is defined }} {{ missing is undefined }} {{ n is defined }} "
				+ "{{ d.k is defined }} {{ d.x is defined }}",
				"{'s': 'text', 'n': null, 'd': {'k': 'v'}}",
				"True False True True True False");
		assertRender(
				"{{ i is odd }} {{ i is even }} {{ 0 is even }} {{ i is divisibleby 7 }} "
				+ "{{ i is divisibleby(2) }} {{ 2.0 is even }}",
				"{'i': 7}",
				"True False True True False True");
		assertRender(
				"{{ s is lower }} {{ 'ABC' is upper }} {{ 'Abc' is lower }} {{ '123' is upper }}",
				"{'s': 'text'}",
				"True True False False");
	}

	@Test
	void comparisonTests() {
		assertRender(
				"{{ i is eq 7 }} {{ i is equalto 7 }} {{ i is ne 7 }} {{ n is sameas none }} "
				+ "{{ b is sameas true }} {{ 1 is sameas true }}",
				"{'i': 7, 'b': true, 'n': null}",
				"True True False True True False");
		assertRender(
				"{{ i is gt 3 }} {{ i is greaterthan 7 }} {{ i is ge 7 }} {{ i is lt 3 }} "
				+ "{{ i is lessthan 8 }} {{ i is le 6 }} {{ [1, 2]|select('>', 1)|list }}",
				"{'i': 7}",
				"True False True False True False [2]");
		assertRender(
				"{{ i is in [7, 8] }} {{ 'ex' is in s }} {{ 'k' is in d }} {{ 'upper' is filter }} "
				+ "{{ 'odd' is test }} {{ 'nope' is filter }}",
				"{'s': 'text', 'i': 7, 'd': {'k': 'v'}}",
				"True True True True True False");
	}

	@Test
	void testsInFiltersAndNegation() {
		assertRender(
				"{{ [1, 2, 3, 4]|select('even')|list }} {{ l|reject('eq', 1)|list }} {{ not s is none }} "
				+ "{{ s is not string }}",
				"{'s': 'text', 'l': [1, 2]}",
				"[2, 4] [2] True False");
		assertRenderFails("{{ 1 is nosuchtest }}")
			.hasMessageContaining("No test named 'nosuchtest'.");
	}

}
