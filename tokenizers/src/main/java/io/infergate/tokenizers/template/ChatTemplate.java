package io.infergate.tokenizers.template;

import java.time.Clock;
import java.util.Map;

/**
 * A Hugging Face chat template, compiled once and rendered as transformers' {@code apply_chat_template} (and so vLLM)
 * renders it: jinja2's sandboxed environment with {@code trim_blocks}, {@code lstrip_blocks}, loop controls,
 * {@code raise_exception}, {@code strftime_now}, a {@code tojson} that keeps non-ASCII text, and the
 * {@code generation} tag. Thread-safe: each render has its own state.
 */
public final class ChatTemplate {

	private final String source;

	private final Node[] body;

	private final Frame frame;

	private ChatTemplate(String source, Parser.Parsed parsed) {
		this.source = source;
		this.body = parsed.body();
		this.frame = parsed.frame();
	}

	/**
	 * Parses a template.
	 * @param source the template text
	 * @return the compiled template
	 * @throws TemplateException on a syntax error; its message names the line and column
	 */
	public static ChatTemplate compile(String source) {
		if (source == null) {
			throw new TemplateException("no template source");
		}
		String normalized = Lexer.normalize(source);
		try {
			return new ChatTemplate(normalized, Parser.parse(normalized));
		}
		catch (TemplateException ex) {
			ex.locate(normalized);
			TemplateException located = new TemplateException(
					ex.getMessage() + " (line " + ex.getLine() + ", column " + ex.getColumn() + ")");
			throw located.at(Math.max(0, ex.position())).locate(normalized);
		}
		catch (StackOverflowError ex) {
			throw new TemplateException("the template is nested too deeply");
		}
		catch (RuntimeException ex) {
			throw new TemplateException("internal error: " + ex, ex);
		}
	}

	/**
	 * Renders the template.
	 * @param variables the template's variables: {@code String}, {@code Number}, {@code Boolean}, {@code null},
	 * {@code List} and {@code Map} values, nested as JSON would be
	 * @return the rendered text
	 * @throws TemplateException on a runtime error, such as {@code raise_exception} or misuse of an undefined value
	 */
	public String render(Map<String, ?> variables) {
		return render(variables, Clock.systemDefaultZone());
	}

	String render(Map<String, ?> variables, Clock clock) {
		Context context = new Context((variables != null) ? variables : Map.of(), clock);
		this.frame.enter(context.scope);
		try {
			Node.renderAll(this.body, context);
			return context.out.toString();
		}
		catch (TemplateException ex) {
			throw ex.locate(this.source);
		}
		catch (StackOverflowError ex) {
			throw new TemplateException("maximum recursion depth exceeded");
		}
		catch (RuntimeException ex) {
			throw new TemplateException("internal error: " + ex, ex);
		}
	}

	@Override
	public String toString() {
		return "ChatTemplate[" + this.source.length() + " chars]";
	}

}
