package io.infergate.tokenizers.template;

import org.junit.jupiter.api.Test;

import static io.infergate.tokenizers.template.TemplateAssertions.assertRender;

/**
 * Whitespace handling, the most common source of mismatches: {@code trim_blocks}, {@code lstrip_blocks}, the {@code -}
 * and {@code +} modifiers, raw blocks, comments, newline normalization and the dropped trailing newline.
 * <p>
 * Expected renderings and error messages came from jinja2 3.1.6 in Hugging Face's environment, through
 * {@code src/test/python/render_reference.py}.
 */
class WhitespaceControlTests {

	@Test
	void trimBlocksRemovesTheFirstNewlineAfterABlockTag() {
		assertRender("{% if true %}\nyes\n{% endif %}\nafter", "yes\nafter");
		assertRender("{% if true %}\n\nyes{% endif %}\n\nafter", "\nyes\nafter");
		assertRender("{% set a = 1 %}\n{{ a }}\n", "1");
		assertRender("{% for i in [1, 2] %}\n{{ i }}\n{% endfor %}\n", "1\n2\n");
	}

	@Test
	void trimBlocksAppliesToCommentsButNotToVariables() {
		assertRender("a{# comment #}\nb", "ab");
		assertRender("{{ 'x' }}\ny", "x\ny");
		assertRender("{{ 'x' }}\n\ny\n", "x\n\ny");
	}

	@Test
	void lstripBlocksRemovesIndentationBeforeBlockTagsAndComments() {
		assertRender("  {% if true %}\n    x\n  {% endif %}\n", "    x\n");
		assertRender("\t{% if true %}x{% endif %}", "x");
		assertRender(" \t {# comment #}\nx", "x");
		assertRender("line\n    {% if true %}\nbody\n    {% endif %}\nend", "line\nbody\nend");
		assertRender("\u00a0 {% if true %}x{% endif %}", "x");
	}

	@Test
	void lstripBlocksKeepsTextAndVariableIndentation() {
		assertRender("a {% if true %}b{% endif %}", "a b");
		assertRender("  {{ 'x' }}\n", "  x");
		assertRender("{{ 'a' }}  {% if true %}b{% endif %}", "a  b");
		assertRender("{% if true %}  {% if true %}x{% endif %}{% endif %}", "  x");
		assertRender("{% if true %}\n  {% if true %}x{% endif %}{% endif %}", "x");
	}

	@Test
	void minusStripsAllWhitespaceOnItsSide() {
		assertRender("a \n\n {%- if true %}b{% endif %}", "ab");
		assertRender("{% if true -%}\n\n  b{% endif %}", "b");
		assertRender("a  {%- if true -%}  b  {%- endif -%}  c", "abc");
		assertRender("x  {{- 'y' -}}  \n z", "xyz");
		assertRender("x\n  {#- comment -#}\n  y", "xy");
		assertRender("{%- if true %}\n    {{- 'a' }}\n{%- endif %}\n{{- 'b' }}", "ab");
	}

	/** {@code {%+} disables lstrip_blocks; {@code +%}} disables trim_blocks. */
	@Test
	void plusKeepsWhitespace() {
		assertRender("  {%+ if true %}x{% endif %}", "  x");
		assertRender("{% if true +%}\nx{% endif +%}\n", "\nx");
		assertRender("  {#+ comment +#}\nx", "  \nx");
	}

	@Test
	void rawBlocksKeepTheirContentVerbatim() {
		assertRender("{% raw %}{{ x }}{% if %}{% endraw %}", "{{ x }}{% if %}");
		assertRender("{% raw %}\n  {{ a }}\n  {% endraw %}\nX", "\n  {{ a }}\nX");
		assertRender("  {% raw %}\n  {{ a }}\n  {%- endraw %}\nX", "\n  {{ a }}X");
		assertRender("a {%- raw -%}  {{ b }}  {%- endraw -%}  c", "a{{ b }}c");
	}

	@Test
	void newlinesAreNormalizedAndOneTrailingNewlineDropped() {
		assertRender("x\n", "x");
		assertRender("x\n\n", "x\n");
		assertRender("a\r\nb\r{% if true %}\r\nc{% endif %}\r\n", "a\nb\nc");
		assertRender("{{ 'a\r\nb' }}", "a\nb");
		assertRender("", "");
	}

	/** Forty generated templates mixing every modifier, nested blocks, comments and raw blocks. */
	@Test
	void randomCombinationsMatchJinja() {
		assertRender(
				"{%- if not x +%}{%+ if x +%}b c{% set y = 1 -%}  \n"
				+ "  {% else +%}{%+ set y = 1 +%}{% set y = 1 -%}{% endif %}{% if x -%}\n"
				+ "\t {%- set y = 1 +%}{%- else +%}{# c -#}{%+ endif -%}{% endif %}{{ x }}",
				"{'x': 'X'}",
				"X");
		assertRender(
				"b c\n"
				+ "\n"
				+ "\t {{- x }}{% if x %}{% for i in [1, 2] -%}\n"
				+ "\t \n"
				+ "{% set y = 1 %}{% endfor %}a\n"
				+ "  \n"
				+ "  {% else -%}{%- raw -%}{{ a }}b c\n"
				+ "  \n"
				+ "{%- endraw +%}{% if x -%}{# c #}{{- x -}}{% else -%}\t\n"
				+ "  {% endif %}{% if not x %}{#+ c -#}\n"
				+ "  {%- endif %}{%- raw -%}\n"
				+ "    \n"
				+ "\n"
				+ "{{ a }}\n"
				+ "\n"
				+ "{%- endraw %}{%+ endif -%}{%+ set y = 1 %}\n",
				"{'x': 'X'}",
				"b cXa\n  \n");
		assertRender(
				"{% if not x +%}{{ x }}{% endif -%}{% if not x -%}{%+ if x +%}{# c #}{{ x }}"
				+ "{% set y = 1 +%}{# c #}{% else -%}{# c -#}{{- x }}{%+ endif %}{%- raw %}\t{{ a }}  \n"
				+ "  \n"
				+ "\n"
				+ "{%- endraw -%}{{- x -}}{% endif %}{%- if x %}  \n"
				+ "  {% if not x +%}{% set y = 1 %}{{- x -}}{# c +#}{#- c +#}{% endif %}{# c +#}{% else +%} \n"
				+ "   {{ x -}}{%- if not x +%}{{ x -}}\n"
				+ "\n"
				+ "\n"
				+ "{% endif +%}{% endif -%}\t \n"
				+ "\n"
				+ "\n",
				"{'x': 'X'}",
				"  \n");
		assertRender(
				"  \n"
				+ "  b c{% if not x %}{%+ if not x +%}{%- set y = 1 %}    \n"
				+ "\n"
				+ "\n"
				+ "\n"
				+ "\t \n"
				+ "  {% endif %}{% for i in [1, 2] %}{# c +#}{{ x }}{{- x -}}"
				+ "{%+ endfor %}{% endif -%}{%+ for i in [1, 2] -%}  {% endfor %}\n",
				"{'x': 'X'}",
				"  \n  b c");
		assertRender("{#+ c -#}{% set y = 1 %}\n", "");
		assertRender(
				"{% if x -%}{#- c #}{%+ else +%}{% raw -%}{{ a }}\n"
				+ "  {% endraw +%}{% if x %}{%- set y = 1 %}a{% else +%}b c{{- x -}}{{- x }}"
				+ "{%- endif -%}{# c +#}{%+ endif %}{% raw -%}a{{ a }}\n"
				+ "\t   \n"
				+ "{% endraw +%}{{- x }}{%+ for i in [1, 2] %}{{ x }}{% raw -%}a{{ a }}\n"
				+ "  {% endraw %}{%- for i in [1, 2] %}{# c +#}  a\n"
				+ "\t {#+ c +#}{% endfor %}{%- endfor %}\n",
				"{'x': 'X'}",
				"a{{ a }}\n\t   \nXXa{{ a }}\n  a\n\t   a\n\t Xa{{ a }}\n  a\n\t   a\n\t ");
		assertRender("{%- raw -%}aa\t{{ a }}b c \n\t{% endraw %}{{- x }}", "{'x': 'X'}", "aa\t{{ a }}b c \nX");
		assertRender(
				"{# c +#}{%+ if x %}{%+ if not x %}{%- set y = 1 %}{{ x -}}{%- endif %}{% else %}{{- x -}}"
				+ "{%- endif %}\n"
				+ "\t   \n"
				+ "\n",
				"{'x': 'X'}",
				"\t   \n");
		assertRender("{# c +#}{% raw %}\n\t {{ a }}\t{% endraw %}\n", "\n\t {{ a }}\t");
		assertRender(
				"{% for i in [1, 2] +%}\n"
				+ "\n"
				+ "\t\t\n"
				+ "\n"
				+ "\t{#- c #}{#- c +#}{%- endfor %}{{ x }}{% set y = 1 -%}",
				"{'x': 'X'}",
				"X");
		assertRender(" \n{{ x }}", "{'x': 'X'}", " \nX");
		assertRender("{% raw %}\n  {{ a }}\n{%- endraw %}{{ x -}}{% set y = 1 %}\n", "{'x': 'X'}", "\n  {{ a }}X");
		assertRender(
				"{%- for i in [1, 2] %}{% raw %}  \n"
				+ "  {{ a }}  \t  {% endraw -%}{% set y = 1 %}{% if x -%}{{ x -}}\n"
				+ "\t ab c{% else -%}{#- c -#}{%+ endif %}{%+ endfor %}\n"
				+ "\n"
				+ "{%- raw -%}\n"
				+ "\t   {{ a }}{% endraw %}{%- raw %}{{ a }}{%+ endraw -%}\n",
				"{'x': 'X'}",
				"  \n  {{ a }}  \t  Xab c  \n  {{ a }}  \t  Xab c{{ a }}{{ a }}");
		assertRender(
				"{#+ c +#}{% if not x -%}{%+ set y = 1 -%}{%+ for i in [1, 2] +%}\ta \n"
				+ "a{% endfor %}{# c #}{%- endif %}{% raw %} {{ a }}\t\n"
				+ "  \n"
				+ "{%+ endraw %}\n",
				"{'x': 'X'}",
				" {{ a }}\t\n  \n");
		assertRender(
				"{% for i in [1, 2] +%}{%- raw %}a\n  {{ a }}b c  {%+ endraw +%}{# c +#}{%- endfor -%}",
				"a\n  {{ a }}b c  a\n  {{ a }}b c  ");
		assertRender(
				"{%+ if not x %}{#+ c -#}\t{#- c -#}{# c #}{%+ endif %} \n\n{# c +#}",
				"{'x': 'X'}",
				" \n\n");
		assertRender(
				"{% for i in [1, 2] +%}{% if x %}{% set y = 1 %}{%+ set y = 1 %}\n"
				+ "\t {% else %}\n"
				+ "\t {# c #}{{ x -}}{% endif %}{% for i in [1, 2] +%}{%- set y = 1 %}{%- endfor %}{% raw -%}\tb c \n"
				+ "{{ a }}b c{% endraw -%} \n"
				+ "  \n"
				+ "  \n"
				+ "{% endfor +%}{{- x }}{% raw %}b c{{ a }}\t{%- endraw -%}",
				"{'x': 'X'}",
				"b c \n{{ a }}b cb c \n{{ a }}b cXb c{{ a }}");
		assertRender("{% raw -%}{{ a }}{%- endraw %}{{ x -}} \n\n", "{'x': 'X'}", "{{ a }}X");
		assertRender(
				"{%+ if not x -%}{%- set y = 1 +%}{% set y = 1 %}{%+ endif %}{% set y = 1 %}\n"
				+ "b c{%- set y = 1 %}\n",
				"{'x': 'X'}",
				"b c");
		assertRender(
				"{% for i in [1, 2] +%}{%+ set y = 1 +%}{# c -#}{%+ endfor +%}{%- set y = 1 -%}{# c #}\n",
				"");
		assertRender(
				"{%+ if not x +%}{% if x %}{{- x -}}{% set y = 1 +%}{%- else +%}{% set y = 1 %}"
				+ "{%+ endif +%}{%+ endif %}{#+ c #}{% for i in [1, 2] "
				+ "+%}{{- x -}}{% endfor +%}{% raw %}\t{{ a }}{%+ endraw %}\n",
				"{'x': 'X'}",
				"XX\t{{ a }}");
		assertRender(" \n{{- x }}\n", "{'x': 'X'}", "X");
		assertRender(
				"{% raw %} {{ a }} \n"
				+ "\n"
				+ "  {%- endraw -%}{%- if not x +%}{%+ set y = 1 %}{% set y = 1 %}{% endif -%}{% raw %}\n"
				+ "  {{ a }}a\n"
				+ "\t   {%+ endraw %}\n",
				"{'x': 'X'}",
				" {{ a }}\n  {{ a }}a\n\t   ");
		assertRender(
				"{%- if not x %}{%- if x -%}{#+ c -#}{%+ else %}{{- x -}}{% endif +%}{%- if not x %}\n"
				+ "  \n"
				+ "\t {{ x }}{{- x -}}{%- endif %}{%- endif -%}",
				"{'x': 'X'}",
				"");
		assertRender(
				"{% if not x %}{%- raw -%}a{{ a }}\n\n  \n  {%+ endraw %}{%+ endif %}\n",
				"{'x': 'X'}",
				"");
		assertRender("{% raw -%}\n  {{ a }}\t\n\n \n{%- endraw %}\n\t  \n\t\n", "{{ a }}\t  \n\t");
		assertRender(
				"  \n"
				+ "  \n"
				+ "\n"
				+ "{% if x -%}{%- for i in [1, 2] -%} \n"
				+ " \n"
				+ "\n"
				+ "\t {{ x }}\t\n"
				+ "  {%+ endfor +%}{%- set y = 1 +%}{%+ if x -%}{# c +#}{#+ c -#}{%+ set y = 1 +%}{% else +%}"
				+ " {# c +#}  \n"
				+ "  {%+ endif +%}{% if not x -%}\n"
				+ "  {{- x }}{% endif %}{% else -%}{{ x }}{#- c #}{#- c +#}{{ x }}{% endif -%}\n",
				"{'x': 'X'}",
				"  \n  \n\nX\t\n  X\t\n  ");
		assertRender("{% set y = 1 %}{% raw %}b c{{ a }}\n\nb c{% endraw %}\n", "b c{{ a }}\n\nb c");
		assertRender("{#- c #}{%- set y = 1 %}{%+ if not x -%}{{ x -}}{%- endif %}\n", "{'x': 'X'}", "");
		assertRender("{%- set y = 1 +%}{# c +#}{{- x }}\n", "{'x': 'X'}", "X");
		assertRender(
				"{%+ if x -%}{{- x }}{%- else -%}{% if not x -%}b c\t   \n"
				+ "  \n"
				+ "\t{%+ set y = 1 %}{% endif %}{%- if x %}{{ x -}}{%- else %}{%+ set y = 1 -%}{%- endif +%}\n"
				+ " \n"
				+ "{% set y = 1 +%}{%- endif -%}",
				"{'x': 'X'}",
				"X");
		assertRender("{% for i in [1, 2] +%} \n{{ x -}}{% endfor %}\n", "{'x': 'X'}", " \nX \nX");
		assertRender("{{ x }}{% raw -%} b c{{ a }}{% endraw -%} \n\t \n\t ", "{'x': 'X'}", "Xb c{{ a }}");
		assertRender("b ca {% set y = 1 %}\n", "b ca ");
		assertRender("{{ x }}{# c +#}\n\t \n\n ", "{'x': 'X'}", "X\n\t \n\n ");
		assertRender(
				"{% if not x +%}\n"
				+ "  {% if x -%}{{ x -}}{% set y = 1 %}{#+ c #}{%+ else %}{%- set y = 1 %}{%+ endif -%}"
				+ "{%+ endif %}{%+ if x -%} \t{%- raw %}\t{{ a }}\t{% endraw -%}{%- else %}{%- if not x %} \n"
				+ "  \n"
				+ "  \n"
				+ "b c{% endif +%}{%- endif -%}{% if x %} {#+ c #}{%+ set y = 1 %}{% else +%}{%+ if x -%}"
				+ "{{- x -}}{% set y = 1 %}{%+ else +%}{#+ c +#}{% set y = 1 %}{% set y = 1 %}\t\n"
				+ "\n"
				+ "{%- endif %}  \n"
				+ "  \n"
				+ "{{- x }}{#- c +#}{% endif -%}{{ x }}",
				"{'x': 'X'}",
				"\t{{ a }}\t X");
		assertRender(
				"{% if not x -%}{%- raw %}b c{{ a }} \n"
				+ "{%- endraw -%}{%- raw %}  \n"
				+ "    \n"
				+ "{{ a }}b c{%- endraw +%}  \n"
				+ "  {% if not x %}  \n"
				+ "  \n"
				+ "\t \n"
				+ "\n"
				+ "{{- x -}}{% endif %}{% endif +%}b c\t{% if not x +%}{#- c #}{% for i in [1, 2] %}{# c +#}\n"
				+ "\n"
				+ "{#+ c #}{#- c +#}{% endfor %}{% for i in [1, 2] "
				+ "%}{{- x }}{% endfor %}{% endif %}{%- for i in [1, 2] +%}{%+ for i in [1, 2] "
				+ "%}{{ x }}{{- x }}{% set y = 1 %}{%- endfor +%}\n"
				+ "\t {{- x }}{% endfor -%}",
				"{'x': 'X'}",
				"b c\tXXXXXXXXXX");
		assertRender(
				"{% if x +%}{% if x %}{% set y = 1 %}b c{% set y = 1 -%}{%+ else %}"
				+ "{#- c -#}{% set y = 1 -%}{% endif %}{#+ c +#} \n"
				+ "  \n"
				+ "\t {%- raw %}{{ a }}\n"
				+ "\t \t{% endraw +%}{% else %}a  \n"
				+ "  \n"
				+ "\t {% endif -%}{%- for i in [1, 2] %}{% if x %}{% set y = 1 %}a{%- else +%}{# c #}{{ x -}}"
				+ "{%- endif %}{%- endfor -%}{%- if x -%}{% if not x -%}\n"
				+ "\t  \n"
				+ "b c{% set y = 1 -%}{%- endif %}{% else -%}{%+ for i in [1, 2] %}{% set y = 1 %}  \n"
				+ "\n"
				+ "\n"
				+ "\n"
				+ " \n"
				+ "{% endfor +%}{% endif %}\t   ",
				"{'x': 'X'}",
				"b c{{ a }}\naa\t   ");
		assertRender(
				"{% if x %}{%- for i in [1, 2] %}{# c -#}{% endfor -%}{#+ c -#}{% else %}{% if not x +%}{% endif %}\n"
				+ "\t {{ x -}}{% endif +%}\n",
				"{'x': 'X'}",
				"");
		assertRender(
				"{% if x -%}\t \n"
				+ "\t\n"
				+ "\n"
				+ "{% else %}{% set y = 1 %}{# c -#}{%+ set y = 1 +%}{% endif +%}{{- x -}}{%- set y = 1 %}",
				"{'x': 'X'}",
				"X");
	}

}
