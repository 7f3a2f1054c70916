package io.infergate.tokenizers.template;

import java.time.Clock;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.util.Map;

import org.assertj.core.api.AbstractThrowableAssert;
import tools.jackson.core.json.JsonReadFeature;
import tools.jackson.core.type.TypeReference;
import tools.jackson.databind.json.JsonMapper;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Shared helpers of the template tests. Variables are written as JSON (single quotes allowed), parsed as a caller
 * would pass them; {@code strftime_now} sees a fixed clock (2024-07-09 05:06:07 local time), the time
 * {@code render_reference.py} is pinned to with {@code INFERGATE_NOW}.
 */
final class TemplateAssertions {

	static final Clock CLOCK = Clock.fixed(
			LocalDateTime.parse("2024-07-09T05:06:07").atZone(ZoneId.systemDefault()).toInstant(),
			ZoneId.systemDefault());

	private static final JsonMapper JSON = JsonMapper.builder().enable(JsonReadFeature.ALLOW_SINGLE_QUOTES).build();

	private TemplateAssertions() {
	}

	static Map<String, Object> vars(String json) {
		return JSON.readValue(json, new TypeReference<Map<String, Object>>() {
		});
	}

	static String render(String template, String varsJson) {
		return ChatTemplate.compile(template).render(vars(varsJson), CLOCK);
	}

	static void assertRender(String template, String expected) {
		assertRender(template, "{}", expected);
	}

	static void assertRender(String template, String varsJson, String expected) {
		assertThat(render(template, varsJson)).as(template).isEqualTo(expected);
	}

	static AbstractThrowableAssert<?, ? extends Throwable> assertRenderFails(String template) {
		return assertRenderFails(template, "{}");
	}

	static AbstractThrowableAssert<?, ? extends Throwable> assertRenderFails(String template, String varsJson) {
		return assertThatThrownBy(() -> render(template, varsJson)).as(template).isExactlyInstanceOf(
				TemplateException.class);
	}

}
