package io.infergate.tokenizers.template;

import org.junit.jupiter.api.Test;

import static io.infergate.tokenizers.template.TemplateAssertions.assertRender;
import static io.infergate.tokenizers.template.TemplateAssertions.assertRenderFails;

/**
 * Hugging Face's {@code tojson}: {@code json.dumps} with ensure_ascii off (non-ASCII kept), default separators
 * {@code ", "} and {@code ": "}, and the indent, separators, sort_keys and ensure_ascii keyword arguments.
 * <p>
 * Expected renderings and error messages came from jinja2 3.1.6 in Hugging Face's environment, through
 * {@code src/test/python/render_reference.py}.
 */
class JsonTests {

	@Test
	void scalarsAndEscapes() {
		assertRender(
				"{{ 'text'|tojson }} {{ 1|tojson }} {{ 2.5|tojson }} {{ 1e20|tojson }} {{ true|tojson }} "
				+ "{{ none|tojson }} {{ (1, 'a')|tojson }}",
				"\"text\" 1 2.5 1e+20 true null [1, \"a\"]");
		assertRender(
				"{{ msg.content|tojson }}",
				"{'msg': {'role': 'user', 'content': 'Grüße \ud83d\ude00\\n\"quoted\"\\t\\\\ \\u0001\u007f\u2028'}}",
				"\"Grüße \ud83d\ude00\\n\\\"quoted\\\"\\t\\\\ \\u0001\u007f\u2028\"");
		assertRender(
				"{{ msg.content|tojson(ensure_ascii=true) }}",
				"{'msg': {'role': 'user', 'content': 'Grüße \ud83d\ude00\\n\"quoted\"\\t\\\\ \\u0001\u007f\u2028'}}",
				"\"Gr\\u00fc\\u00dfe \\ud83d\\ude00\\n\\\"quoted\\\"\\t\\\\ \\u0001\\u007f\\u2028\"");
	}

	@Test
	void nestedValuesKeepInsertionOrder() {
		assertRender(
				"{{ args|tojson }}",
				"{'args': {'city': 'Köln', 'days': 3, 'ratio': 0.5, 'tags': ['a', 'b'], "
				+ "'nested': {'ok': true, 'none': null, 'empty': [], 'obj': {}}}}",
				"{\"city\": \"Köln\", \"days\": 3, \"ratio\": 0.5, \"tags\": [\"a\", \"b\"], \"nested\": {\"ok\": true, "
				+ "\"none\": null, \"empty\": [], \"obj\": {}}}");
		assertRender(
				"{{ msg|tojson }}",
				"{'msg': {'role': 'user', 'content': 'Grüße \ud83d\ude00\\n\"quoted\"\\t\\\\ \\u0001\u007f\u2028'}}",
				"{\"role\": \"user\", \"content\": \"Grüße \ud83d\ude00\\n\\\"quoted\\\"\\t\\\\ \\u0001\u007f\u2028\"}");
		assertRender(
				"{{ {1: 'int key', none: 'none key', 2.5: 'float key', false: 'bool key'}|tojson }}",
				"{\"1\": \"int key\", \"null\": \"none key\", \"2.5\": \"float key\", \"false\": \"bool key\"}");
	}

	@Test
	void keywordArguments() {
		assertRender(
				"{{ args|tojson(indent=2) }}",
				"{'args': {'city': 'Köln', 'days': 3, 'ratio': 0.5, 'tags': ['a', 'b'], "
				+ "'nested': {'ok': true, 'none': null, 'empty': [], 'obj': {}}}}",
				"{\n"
				+ "  \"city\": \"Köln\",\n"
				+ "  \"days\": 3,\n"
				+ "  \"ratio\": 0.5,\n"
				+ "  \"tags\": [\n"
				+ "    \"a\",\n"
				+ "    \"b\"\n"
				+ "  ],\n"
				+ "  \"nested\": {\n"
				+ "    \"ok\": true,\n"
				+ "    \"none\": null,\n"
				+ "    \"empty\": [],\n"
				+ "    \"obj\": {}\n"
				+ "  }\n"
				+ "}");
		assertRender(
				"{{ args|tojson(indent=4, sort_keys=true) }}",
				"{'args': {'city': 'Köln', 'days': 3, 'ratio': 0.5, 'tags': ['a', 'b'], "
				+ "'nested': {'ok': true, 'none': null, 'empty': [], 'obj': {}}}}",
				"{\n"
				+ "    \"city\": \"Köln\",\n"
				+ "    \"days\": 3,\n"
				+ "    \"nested\": {\n"
				+ "        \"empty\": [],\n"
				+ "        \"none\": null,\n"
				+ "        \"obj\": {},\n"
				+ "        \"ok\": true\n"
				+ "    },\n"
				+ "    \"ratio\": 0.5,\n"
				+ "    \"tags\": [\n"
				+ "        \"a\",\n"
				+ "        \"b\"\n"
				+ "    ]\n"
				+ "}");
		assertRender(
				"{{ args|tojson(separators=(',', ':')) }}",
				"{'args': {'city': 'Köln', 'days': 3, 'ratio': 0.5, 'tags': ['a', 'b'], "
				+ "'nested': {'ok': true, 'none': null, 'empty': [], 'obj': {}}}}",
				"{\"city\":\"Köln\",\"days\":3,\"ratio\":0.5,\"tags\":[\"a\",\"b\"],\"nested\":{\"ok\":true,\"none\":null,\"empt"
				+ "y\":[],\"obj\":{}}}");
		assertRender("{{ [1, [2, {}], []]|tojson(indent='\\t') }}", "[\n\t1,\n\t[\n\t\t2,\n\t\t{}\n\t],\n\t[]\n]");
		assertRender(
				"{{ [1, 2]|tojson(indent=0) }}|{{ [1]|tojson(indent=2, separators=(', ', ' = ')) }}|{{ 'é'|tojson(4) }}",
				"[\n1,\n2\n]|[\n  1\n]|\"\\u00e9\"");
	}

	@Test
	void unserializableValuesFail() {
		assertRenderFails("{{ missing|tojson }}")
			.hasMessageContaining("Object of type Undefined is not JSON serializable");
		assertRenderFails("{{ namespace()|tojson }}")
			.hasMessageContaining("Object of type Namespace is not JSON serializable");
		assertRenderFails("{{ {'a': 1, 1: 2}|tojson(sort_keys=true) }}")
			.hasMessageContaining("'<' not supported between instances of 'int' and 'str'");
	}

}
