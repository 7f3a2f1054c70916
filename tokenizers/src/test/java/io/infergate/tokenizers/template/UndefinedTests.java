package io.infergate.tokenizers.template;

import org.junit.jupiter.api.Test;

import static io.infergate.tokenizers.template.TemplateAssertions.assertRender;
import static io.infergate.tokenizers.template.TemplateAssertions.assertRenderFails;

/**
 * jinja2's default Undefined: printing, truthiness, iteration, length and {@code default} work on it; attribute and
 * item access, calls, arithmetic and comparisons raise an error saying what was undefined.
 * <p>
 * Expected renderings and error messages came from jinja2 3.1.6 in Hugging Face's environment, through
 * {@code src/test/python/render_reference.py}.
 */
class UndefinedTests {

	@Test
	void undefinedIsEmptyFalsyAndIterable() {
		assertRender(
				"[{{ missing }}] {{ missing is defined }} {% if missing %}truthy{% else %}falsy{% endif %} "
				+ "{% for x in missing %}never{% endfor %}{{ missing|length }} {{ missing|list }}",
				"[] False falsy 0 []");
		assertRender(
				"[{{ missing ~ 'x' }}] [{{ missing|string }}] [{{ missing|join }}] [{{ missing|first }}] "
				+ "[{{ missing|trim }}] {{ missing == missing }} {{ missing == none }} {{ missing in [1] }} "
				+ "{{ 1 in missing }}",
				"[x] [] [] [] [] True False False False");
		assertRender(
				"[{{ d.missing }}] [{{ d['missing'] }}] [{{ l[9] }}] [{{ d.missing|default('dflt') }}] {{ [missing] }}",
				"{'d': {}, 'l': []}",
				"[] [] [] [dflt] [Undefined]");
	}

	@Test
	void misusingUndefinedFails() {
		assertRenderFails("{{ missing.attr }}")
			.hasMessageContaining("'missing' is undefined");
		assertRenderFails("{{ missing['key'] }}")
			.hasMessageContaining("'missing' is undefined");
		assertRenderFails("{{ missing() }}")
			.hasMessageContaining("'missing' is undefined");
		assertRenderFails("{{ missing + 1 }}")
			.hasMessageContaining("'missing' is undefined");
		assertRenderFails("{{ 'a' + missing }}")
			.hasMessageContaining("'missing' is undefined");
		assertRenderFails("{{ missing < 1 }}")
			.hasMessageContaining("'missing' is undefined");
		assertRenderFails("{{ -missing }}")
			.hasMessageContaining("'missing' is undefined");
		assertRenderFails("{{ d.role.upper() }}", "{'d': {}}")
			.hasMessageContaining("'dict object' has no attribute 'role'");
		assertRenderFails("{{ l[3].content }}", "{'l': [1]}")
			.hasMessageContaining("list object has no element 3");
		assertRenderFails("{{ n.content.strip() }}", "{'n': null}")
			.hasMessageContaining("'None' has no attribute 'content'");
		assertRenderFails("{{ (1 if false).x }}")
			.hasMessageContaining("the inline if-expression on line 1 evaluated to false and no else section was defined.");
		assertRenderFails("{% macro m(a) %}{{ a.x }}{% endmacro %}{{ m() }}")
			.hasMessageContaining("parameter 'a' was not provided");
	}

}
