package io.infergate.tokenizers.template;

import java.util.LinkedHashMap;
import java.util.Map;

/** jinja2's {@code namespace()}: the one object a template may modify, with {@code set ns.attr = value}. */
final class Namespace {

	final Map<String, Object> attributes = new LinkedHashMap<>();

}
