package io.infergate.tokenizers.template;

/**
 * A chat template failed to compile (a syntax error, whose message names the line and column) or to render (a
 * runtime error such as {@code raise_exception}, misuse of an undefined value or a type error).
 */
public class TemplateException extends RuntimeException {

	private static final long serialVersionUID = 1L;

	private int position = -1;

	private int line;

	private int column;

	public TemplateException(String message) {
		super(message);
	}

	public TemplateException(String message, Throwable cause) {
		super(message, cause);
	}

	/**
	 * The 1-based line of the template where the error was detected, or 0 if unknown.
	 * @return the line
	 */
	public int getLine() {
		return this.line;
	}

	/**
	 * The 1-based column of the template where the error was detected, or 0 if unknown.
	 * @return the column
	 */
	public int getColumn() {
		return this.column;
	}

	TemplateException at(int position) {
		if (this.position < 0) {
			this.position = position;
		}
		return this;
	}

	int position() {
		return this.position;
	}

	TemplateException locate(String source) {
		if (this.position >= 0 && this.line == 0) {
			int line = 1;
			int lineStart = 0;
			int end = Math.min(this.position, source.length());
			for (int i = 0; i < end; i++) {
				if (source.charAt(i) == '\n') {
					line++;
					lineStart = i + 1;
				}
			}
			this.line = line;
			this.column = end - lineStart + 1;
		}
		return this;
	}
}
