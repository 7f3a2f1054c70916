package io.infergate.tokenizers.template;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

import org.junit.jupiter.api.Test;

import static io.infergate.tokenizers.template.TemplateAssertions.CLOCK;
import static io.infergate.tokenizers.template.TemplateAssertions.assertRender;
import static io.infergate.tokenizers.template.TemplateAssertions.assertRenderFails;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/**
 * Errors: syntax errors name the line and column, runtime errors carry a short message (jinja2's where it has one),
 * and runaway templates (recursion, loops, huge output) stop with a {@link TemplateException}, never another
 * exception. The jinja2 messages came from jinja2 3.1.6 through {@code src/test/python/render_reference.py}.
 */
class ErrorTests {

	@Test
	void raiseExceptionFailsWithItsMessage() {
		assertRenderFails("{% if messages[0].role == 'system' %}{{ raise_exception('System role not supported') }}"
				+ "{% endif %}", "{'messages': [{'role': 'system'}]}")
			.hasMessage("System role not supported");
	}

	@Test
	void syntaxErrorsNameTheLineAndColumn() {
		TemplateException ex = catchThrowableOfType(() -> ChatTemplate.compile("{% if x %}\nabc\n{{ 1 + }}\n{% endif %}"),
				TemplateException.class);
		assertThat(ex).hasMessage("unexpected 'end of print statement' (line 3, column 8)");
		assertThat(ex.getLine()).isEqualTo(3);
		assertThat(ex.getColumn()).isEqualTo(8);
	}

	@Test
	void syntaxErrorsUseJinjaMessages() {
		assertCompileFails("{% for x in y %}", "Unexpected end of template. Jinja was looking for the following tags: "
				+ "'endfor' or 'else'. The innermost block that needs to be closed is 'for'. (line 1, column 17)");
		assertCompileFails("{% if x %}{% endfor %}", "Encountered unknown tag 'endfor'. Jinja was looking for the "
				+ "following tags: 'elif' or 'else' or 'endif'. The innermost block that needs to be closed is 'if'. "
				+ "(line 1, column 14)");
		assertCompileFails("{% foo %}", "Encountered unknown tag 'foo'. (line 1, column 4)");
		assertCompileFails("{{ x", "unexpected end of template, expected 'end of print statement'. (line 1, column 5)");
		assertCompileFails("{# never closed", "Missing end of comment tag (line 1, column 1)");
		assertCompileFails("{% raw %}never closed", "Missing end of raw directive (line 1, column 1)");
		assertCompileFails("{{ (1, 2 }}", "unexpected '}', expected ')' (line 1, column 10)");
		assertCompileFails("{{ a ! b }}", "unexpected char '!' at 5 (line 1, column 6)");
		assertCompileFails("{{ 1 2 }}", "expected token 'end of print statement', got 'integer' (line 1, column 6)");
		assertCompileFails("{% set 1 = 2 %}", "can't assign to 'const' (line 1, column 8)");
		assertCompileFails("{% macro m(a=1, b) %}{% endmacro %}",
				"non-default argument follows default argument (line 1, column 18)");
		assertCompileFails("{{ '\\x4' }}", "truncated \\xXX escape (line 1, column 4)");
		assertCompileFails("{% break %}", "'break' outside loop (line 1, column 4)");
		assertCompileFails("{% include 'other.jinja' %}", "the 'include' tag is not supported (line 1, column 4)");
	}

	@Test
	void unknownFiltersAndTestsFailAtCompileTimeUnlessInsideAnIf() {
		assertCompileFails("{{ 1|nosuchfilter }}", "No filter named 'nosuchfilter'. (line 1, column 6)");
		assertCompileFails("{{ 1 is nosuchtest }}", "No test named 'nosuchtest'. (line 1, column 9)");
		assertRender("{% if false %}{{ 1|nosuchfilter }}{% endif %}ok", "ok");
		assertRender("{{ 2 if true else 1|nosuchfilter }}", "2");
		assertRenderFails("{% if true %}{{ 1|nosuchfilter }}{% endif %}").hasMessage("No filter named 'nosuchfilter'.");
		assertCompileFails("{% if false %}{% for i in [] %}{{ 1|nosuchfilter }}{% endfor %}{% endif %}",
				"No filter named 'nosuchfilter'. (line 1, column 37)");
	}

	@Test
	void runtimeErrorsCarryTheirPosition() {
		TemplateException ex = catchThrowableOfType(
				() -> ChatTemplate.compile("a\n  {% if x %}\n {{ y.z }}{% endif %}").render(Map.of("x", true)),
				TemplateException.class);
		assertThat(ex).hasMessage("'y' is undefined");
		assertThat(ex.getLine()).isEqualTo(3);
		assertThat(ex.getColumn()).isEqualTo(6);
	}

	@Test
	void typeErrorsUsePythonMessages() {
		assertRenderFails("{{ 5|length }}").hasMessage("object of type 'int' has no len()");
		assertRenderFails("{% for x in none %}{% endfor %}").hasMessage("'NoneType' object is not iterable");
		assertRenderFails("{% set a, b = [1] %}").hasMessage("not enough values to unpack (expected 2, got 1)");
		assertRenderFails("{% set a, b = [1, 2, 3] %}").hasMessage("too many values to unpack (expected 2)");
		assertRenderFails("{{ 'abc'() }}").hasMessage("'str' object is not callable");
		assertRenderFails("{{ 'abc'.nosuch() }}").hasMessage("'str object' has no attribute 'nosuch'");
		assertRenderFails("{{ [1, 'a']|sort }}").hasMessage("'<' not supported between instances of 'str' and 'int'");
	}

	@Test
	void runawayRecursionStops() {
		assertRenderFails("{% macro m(n) %}{{ m(n + 1) }}{% endmacro %}{{ m(0) }}")
			.hasMessage("maximum recursion depth exceeded (macro 'm')");
		assertRenderFails("{% macro m(n) %}{% for i in [1] %}{% if true %}{% set x %}{{ ((m(n + 1) ~ 'a') | trim) }}"
				+ "{% endset %}{{ x }}{% endif %}{% endfor %}{% endmacro %}{{ m(0) }}")
			.hasMessageStartingWith("maximum recursion depth exceeded");
		assertRender("{% macro m(n) %}{% if n < 90 %}{{ m(n + 1) }}{% else %}deep{% endif %}{% endmacro %}{{ m(0) }}",
				"deep");
	}

	@Test
	void runawayLoopsStop() {
		assertRenderFails("{% for i in range(100000) %}{% for j in range(100000) %}{% endfor %}{% endfor %}")
			.hasMessage("the template ran more than 10000000 loop iterations");
	}

	@Test
	void runawayOutputStops() {
		assertRenderFails("{% for i in range(100000) %}{{ 'x' * 1000 }}{% endfor %}")
			.hasMessage("the template produced more than 67108864 characters");
		assertRenderFails("{% set ns = namespace(s='ab') %}{% for i in range(40) %}{% set ns.s = ns.s + ns.s %}"
				+ "{% endfor %}")
			.hasMessageStartingWith("the template built a string longer than");
		assertRenderFails("{% set ns = namespace(l=[1]) %}{% for i in range(40) %}{% set ns.l = ns.l + ns.l %}"
				+ "{% endfor %}")
			.hasMessageStartingWith("the template built a list longer than");
		assertRenderFails("{{ 'ab' * 1000000000000 }}").hasMessageStartingWith("the template built a string longer");
		assertRenderFails("{{ 'a'.center(2000000000) }}").hasMessageStartingWith("the template built a string longer");
		assertRenderFails("{{ 7 ** 100000000 }}").hasMessage("integer result too large");
	}

	@Test
	void deeplyNestedTemplatesAndValuesFail() {
		assertCompileFails("{{ " + "(".repeat(5000) + "1" + ")".repeat(5000) + " }}",
				"the template is nested too deeply (line 1, column 154)");
		assertThatThrownBy(() -> ChatTemplate.compile("{% if true %}".repeat(3000)))
			.isExactlyInstanceOf(TemplateException.class)
			.hasMessageStartingWith("the template is nested too deeply");
		List<Object> deep = nested(100_000);
		List<Object> cyclic = new ArrayList<>();
		cyclic.add(cyclic);
		List<Object> otherCyclic = new ArrayList<>();
		otherCyclic.add(otherCyclic);
		for (String template : List.of("{{ v }}", "{{ v|tojson }}", "{{ v|string }}", "{{ v == w }}")) {
			assertThatThrownBy(() -> ChatTemplate.compile(template).render(Map.of("v", deep, "w", nested(100_000))))
				.isExactlyInstanceOf(TemplateException.class)
				.hasMessage("values nested deeper than 400 levels");
			assertThatThrownBy(() -> ChatTemplate.compile(template).render(Map.of("v", cyclic, "w", otherCyclic)))
				.isExactlyInstanceOf(TemplateException.class)
				.hasMessage("values nested deeper than 400 levels");
		}
		assertThat(ChatTemplate.compile("{{ v == v }}").render(Map.of("v", cyclic))).isEqualTo("True");
	}

	@Test
	void unusualCallerValuesDoNotBreakRendering() {
		Map<String, Object> variables = new HashMap<>();
		variables.put("none", null);
		variables.put("object", new Object() {

			@Override
			public String toString() {
				return "custom";
			}

		});
		variables.put("fixed", Map.of("a", 1));
		variables.put("set", java.util.Set.of("only"));
		ChatTemplate template = ChatTemplate.compile("{{ object }}|{{ object.x }}|{{ fixed[none] }}|{{ fixed[1] }}|"
				+ "{{ none in fixed }}|{{ set|list }}|{{ none }}");
		assertThat(template.render(variables, CLOCK)).isEqualTo("custom||||False|['only']|None");
		assertThat(ChatTemplate.compile("[{{ anything }}]").render(null)).isEqualTo("[]");
	}

	@Test
	void arbitraryTemplatesOnlyEverThrowTemplateException() {
		String[] fragments = { "{{", "}}", "{%", "%}", "{#", "#}", "-", "+", "if", "for", "in", "endif", "endfor", "set",
				"=", "x", "y", "'s'", "\"", "(", ")", "[", "]", "{", "}", ",", ".", "|", "length", "tojson", "is",
				"defined", "not", "and", "or", "1", "0", "2.5", "~", "*", "/", "//", "%", "**", "<", "==", "macro",
				"endmacro", "raw", "endraw", "loop", "range", "namespace", "ns.a", ":", "::-1", "\n", " ", "  ",
				"else", "elif", "break", "continue", "none", "true", "'", "\\", "items()", "split", "m(", "recursive",
				"endset", "filter", "upper", "endfilter", "call", "with", "endwith", "generation", "endgeneration" };
		Random random = new Random(42);
		Map<String, Object> variables = new HashMap<>();
		variables.put("x", List.of(1, "two", Collections.singletonMap("k", null)));
		variables.put("y", Map.of("a", List.of()));
		int rendered = 0;
		for (int i = 0; i < 5000; i++) {
			StringBuilder source = new StringBuilder();
			for (int n = random.nextInt(24); n >= 0; n--) {
				source.append(fragments[random.nextInt(fragments.length)]).append(random.nextBoolean() ? " " : "");
			}
			try {
				ChatTemplate.compile(source.toString()).render(variables, CLOCK);
				rendered++;
			}
			catch (TemplateException ex) {
				assertThat(ex.getMessage()).as(source.toString()).isNotBlank();
			}
		}
		assertThat(rendered).isGreaterThan(100);
	}

	@Test
	void aNullSourceIsRefused() {
		assertThatThrownBy(() -> ChatTemplate.compile(null)).isExactlyInstanceOf(TemplateException.class);
	}

	private static List<Object> nested(int depth) {
		List<Object> outer = new ArrayList<>();
		List<Object> current = outer;
		for (int i = 0; i < depth; i++) {
			List<Object> inner = new ArrayList<>();
			current.add(inner);
			current = inner;
		}
		return outer;
	}

	private static void assertCompileFails(String source, String message) {
		assertThatThrownBy(() -> ChatTemplate.compile(source)).as(source)
			.isExactlyInstanceOf(TemplateException.class)
			.hasMessage(message);
	}

}
