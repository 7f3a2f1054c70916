package io.infergate.tokenizers.template;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

import io.infergate.tokenizers.template.Lexer.Token;
import io.infergate.tokenizers.template.Lexer.Type;

/** Parses tokens into statement and expression nodes, following jinja2's grammar and precedence. */
final class Parser {

	private static final int MAX_NESTING = 150;

	private static final Set<String> COMPARE_OPERATORS = Set.of("==", "!=", "<", "<=", ">", ">=");

	private static final Set<String> UNSUPPORTED_TAGS = Set.of("block", "extends", "include", "import", "from",
			"call", "autoescape");

	private final String source;

	private final List<Token> tokens;

	private int index;

	private int nesting;

	/** Loops enclosing the current statement within its function (break and continue need one). */
	private int loopDepth;

	/** Inside an if or a conditional expression, where jinja2 reports unknown filters only when they run. */
	private boolean soft;

	private boolean usesVarargs;

	private boolean usesKwargs;

	/** Unknown filters and tests, reported after parsing unless they were in a soft frame. */
	private final List<Unknown> unknowns = new ArrayList<>();

	private final List<Frame> frames = new ArrayList<>();

	private Frame frame;

	/** Where the current frame's (or if branch's) symbol events go. */
	private List<Object> events;

	/** False while parsing assignment targets, whose names are stores, not loads. */
	private boolean recordLoads = true;

	private final Deque<List<String>> endTokenStack = new ArrayDeque<>();

	private final Deque<String> tagStack = new ArrayDeque<>();

	private record Unknown(String kind, String name, int pos, boolean[] soft) {

	}

	/** A namespace attribute reference, only valid as an assignment target. */
	private static final class NamespaceRef extends Expr {

		final String name;

		final String attribute;

		NamespaceRef(int pos, String name, String attribute) {
			super(pos);
			this.name = name;
			this.attribute = attribute;
		}

		@Override
		Object eval(Context context) {
			throw new TemplateException("namespace reference used as a value");
		}

	}

	private Parser(String source, List<Token> tokens) {
		this.source = source;
		this.tokens = tokens;
	}

	/** A parsed template: its statements and the frame of its top level. */
	record Parsed(Node[] body, Frame frame) {

	}

	/** Parses a source already passed through {@link Lexer#normalize(String)}. */
	static Parsed parse(String normalizedSource) {
		Parser parser = new Parser(normalizedSource, Lexer.tokenize(normalizedSource));
		Frame root = parser.newFrame();
		parser.frame = root;
		parser.events = root.events();
		List<Node> body = parser.subparse(null);
		for (Unknown unknown : parser.unknowns) {
			if (!unknown.soft()[0]) {
				throw Lexer.syntax("No " + unknown.kind() + " named '" + unknown.name() + "'.", unknown.pos());
			}
		}
		for (Frame frame : parser.frames) {
			frame.analyze();
		}
		return new Parsed(body.toArray(new Node[0]), root);
	}

	// frames (jinja2's symbol tracking)

	private Frame newFrame() {
		Frame created = new Frame(this.frame);
		this.frames.add(created);
		return created;
	}

	private interface BodyParser {

		Node[] parse();

	}

	/** Parses a body in a frame of its own. */
	private Node[] inFrame(Frame inner, BodyParser body) {
		Frame savedFrame = this.frame;
		List<Object> savedEvents = this.events;
		this.frame = inner;
		this.events = inner.events();
		try {
			return body.parse();
		}
		finally {
			this.frame = savedFrame;
			this.events = savedEvents;
		}
	}

	/** Records an assignment target as jinja2's symbol visitor sees it: names stored, namespaces loaded. */
	private void recordTarget(Node.Target target, List<Object> events, boolean asParameters) {
		if (target instanceof Node.NameTarget name) {
			if (asParameters) {
				Frame.parameter(events, name.name());
			}
			else {
				Frame.store(events, name.name());
			}
		}
		else if (target instanceof Node.TupleTarget tuple) {
			for (Node.Target item : tuple.targets()) {
				recordTarget(item, events, asParameters);
			}
		}
		else if (target instanceof Node.NamespaceTarget ns) {
			Frame.load(events, ns.name());
		}
	}

	// token stream

	private Token cur() {
		return this.tokens.get(this.index);
	}

	private Token look() {
		return this.tokens.get(Math.min(this.index + 1, this.tokens.size() - 1));
	}

	private Token next() {
		Token token = cur();
		if (token.type() != Type.EOF) {
			this.index++;
		}
		return token;
	}

	private boolean isOp(String op) {
		return cur().isOp(op);
	}

	private boolean skipOp(String op) {
		if (isOp(op)) {
			next();
			return true;
		}
		return false;
	}

	private boolean skipName(String name) {
		if (cur().isName(name)) {
			next();
			return true;
		}
		return false;
	}

	private TemplateException fail(String message, int pos) {
		return Lexer.syntax(message, pos);
	}

	private Token expect(Type type, String text, String description) {
		Token token = cur();
		if (token.type() == type && (text == null || token.text().equals(text))) {
			return next();
		}
		if (token.type() == Type.EOF) {
			throw fail("unexpected end of template, expected '" + description + "'.", token.pos());
		}
		throw fail("expected token '" + description + "', got '" + token.describe() + "'", token.pos());
	}

	private Token expectOp(String op) {
		return expect(Type.OPERATOR, op, op);
	}

	private Token expectName() {
		return expect(Type.NAME, null, "name");
	}

	private void enter(int pos) {
		if (++this.nesting > MAX_NESTING) {
			throw fail("the template is nested too deeply", pos);
		}
	}

	private int line(int pos) {
		int line = 1;
		for (int i = 0; i < pos && i < this.source.length(); i++) {
			if (this.source.charAt(i) == '\n') {
				line++;
			}
		}
		return line;
	}

	// statements

	private List<Node> subparse(List<String> endTokens) {
		List<Node> body = new ArrayList<>();
		if (endTokens != null) {
			this.endTokenStack.push(endTokens);
		}
		try {
			while (cur().type() != Type.EOF) {
				Token token = cur();
				switch (token.type()) {
					case DATA -> {
						body.add(new Node.Text(token.pos(), token.text()));
						next();
					}
					case VARIABLE_BEGIN -> {
						next();
						Expr expr = parseTuple(false, true, null, false, false);
						expect(Type.VARIABLE_END, null, "end of print statement");
						body.add(new Node.Output(expr.pos, expr));
					}
					case BLOCK_BEGIN -> {
						next();
						if (endTokens != null && cur().type() == Type.NAME && endTokens.contains(cur().text())) {
							return body;
						}
						body.add(parseStatement());
						expect(Type.BLOCK_END, null, "end of statement block");
					}
					default -> throw fail("unexpected '" + token.describe() + "'", token.pos());
				}
			}
			return body;
		}
		finally {
			if (endTokens != null) {
				this.endTokenStack.pop();
			}
		}
	}

	private Node parseStatement() {
		Token token = cur();
		if (token.type() != Type.NAME) {
			throw fail("tag name expected", token.pos());
		}
		enter(token.pos());
		this.tagStack.push(token.text());
		try {
			switch (token.text()) {
				case "for":
					return parseFor();
				case "if":
					return parseIf();
				case "set":
					return parseSet();
				case "macro":
					return parseMacro();
				case "with":
					return parseWith();
				case "filter":
					return parseFilterBlock();
				case "print":
					return parsePrint();
				case "generation": {
					next();
					Frame inner = newFrame();
					Node[] body = inFrame(inner, () -> parseBody(List.of("endgeneration"), true, 0));
					return new Node.Scoped(token.pos(), new String[0], new Expr[0], body, inner);
				}
				case "break":
				case "continue": {
					next();
					if (this.loopDepth == 0) {
						throw fail("'" + token.text() + "' outside loop", token.pos());
					}
					return token.text().equals("break") ? new Node.Break(token.pos())
							: new Node.Continue(token.pos());
				}
				default:
					if (UNSUPPORTED_TAGS.contains(token.text())) {
						throw fail("the '" + token.text() + "' tag is not supported", token.pos());
					}
					this.tagStack.pop();
					this.tagStack.push("");
					throw unknownTag(token.text(), token.pos());
			}
		}
		finally {
			this.tagStack.pop();
			this.nesting--;
		}
	}

	private TemplateException unknownTag(String name, int pos) {
		Set<String> expected = new LinkedHashSet<>();
		for (List<String> tokens : this.endTokenStack) {
			expected.addAll(tokens);
		}
		StringBuilder message = new StringBuilder(
				(name == null) ? "Unexpected end of template." : "Encountered unknown tag '" + name + "'.");
		if (!this.endTokenStack.isEmpty()) {
			List<String> looking = new ArrayList<>();
			for (String token : this.endTokenStack.peek()) {
				looking.add("'" + token + "'");
			}
			String currently = String.join(" or ", looking);
			if (name != null && expected.contains(name)) {
				message.append(" You probably made a nesting mistake. Jinja is expecting this tag, but currently"
						+ " looking for ").append(currently).append('.');
			}
			else {
				message.append(" Jinja was looking for the following tags: ").append(currently).append('.');
			}
		}
		for (String tag : this.tagStack) {
			if (!tag.isEmpty()) {
				message.append(" The innermost block that needs to be closed is '").append(tag).append("'.");
				break;
			}
		}
		return fail(message.toString(), pos);
	}

	/** Parses a statement body up to one of the end tags, in a non-soft frame with the given loop depth. */
	private Node[] parseBody(List<String> endTokens, boolean dropNeedle, int loopDepth) {
		boolean savedSoft = this.soft;
		int savedLoopDepth = this.loopDepth;
		this.soft = false;
		this.loopDepth = loopDepth;
		try {
			return parseStatements(endTokens, dropNeedle);
		}
		finally {
			this.soft = savedSoft;
			this.loopDepth = savedLoopDepth;
		}
	}

	private Node[] parseStatements(List<String> endTokens, boolean dropNeedle) {
		skipOp(":");
		expect(Type.BLOCK_END, null, "end of statement block");
		List<Node> body = subparse(endTokens);
		if (cur().type() == Type.EOF) {
			this.endTokenStack.push(endTokens);
			try {
				throw unknownTag(null, cur().pos());
			}
			finally {
				this.endTokenStack.pop();
			}
		}
		if (dropNeedle) {
			next();
		}
		return body.toArray(new Node[0]);
	}

	private Node parseFor() {
		int pos = next().pos();
		Node.Target target = parseAssignTarget(true, List.of("in"), false);
		expect(Type.NAME, "in", "in");
		Expr iterable = parseTuple(false, false, List.of("recursive"), false, false);
		Expr condition = null;
		if (cur().isName("if")) {
			next();
			boolean savedSoft = this.soft;
			List<Object> savedEvents = this.events;
			this.soft = false;
			this.events = new ArrayList<>();
			condition = parseExpression(true);
			this.soft = savedSoft;
			this.events = savedEvents;
		}
		boolean recursive = skipName("recursive");
		Frame bodyFrame = newFrame();
		recordTarget(target, bodyFrame.events(), true);
		Frame.parameter(bodyFrame.events(), "loop");
		Node[] body = inFrame(bodyFrame, () -> parseBody(List.of("endfor", "else"), false, this.loopDepth + 1));
		Node[] otherwise = new Node[0];
		Frame elseFrame = newFrame();
		if (next().text().equals("else")) {
			otherwise = inFrame(elseFrame, () -> parseBody(List.of("endfor"), true, this.loopDepth));
		}
		return new Node.For(pos, target, iterable, condition, body, otherwise, recursive, bodyFrame, elseFrame);
	}

	private Node parseIf() {
		int pos = next().pos();
		List<Expr> tests = new ArrayList<>();
		List<Node[]> bodies = new ArrayList<>();
		Node[] otherwise = new Node[0];
		boolean savedSoft = this.soft;
		List<Object> outer = this.events;
		List<Object> bodyEvents = new ArrayList<>();
		List<Object> elifEvents = new ArrayList<>();
		List<Object> elseEvents = new ArrayList<>();
		this.soft = true;
		try {
			tests.add(parseTuple(false, false, null, false, false));
			this.events = bodyEvents;
			while (true) {
				bodies.add(parseStatements(List.of("elif", "else", "endif"), false));
				Token token = next();
				if (token.isName("elif")) {
					this.events = elifEvents;
					tests.add(parseTuple(false, false, null, false, false));
					List<Object> elifBody = new ArrayList<>();
					Frame.branches(elifEvents, List.of(elifBody, List.of(), List.of()));
					this.events = elifBody;
					continue;
				}
				if (token.isName("else")) {
					this.events = elseEvents;
					otherwise = parseStatements(List.of("endif"), true);
				}
				break;
			}
		}
		finally {
			this.soft = savedSoft;
			this.events = outer;
		}
		Frame.branches(outer, List.of(bodyEvents, elifEvents, elseEvents));
		return new Node.If(pos, tests.toArray(new Expr[0]), bodies.toArray(new Node[0][]), otherwise);
	}

	private Node parseSet() {
		int pos = next().pos();
		Node.Target target = parseAssignTarget(true, null, true);
		if (skipOp("=")) {
			Expr value = parseTuple(false, true, null, false, false);
			recordTarget(target, this.events, false);
			return new Node.Assign(pos, target, value);
		}
		recordTarget(target, this.events, false);
		Expr.FilterCall filter = (Expr.FilterCall) parseFilter(null, false);
		Frame inner = newFrame();
		Node[] body = inFrame(inner, () -> parseBody(List.of("endset"), true, this.loopDepth));
		return new Node.AssignBlock(pos, target, filter, body, inner);
	}

	private Node parseMacro() {
		int pos = next().pos();
		String name = expectName().text();
		expectOp("(");
		Frame inner = newFrame();
		List<Object> outer = this.events;
		List<Object> defaultEvents = new ArrayList<>();
		Frame savedFrame = this.frame;
		this.frame = inner;
		this.events = defaultEvents;
		List<String> parameters = new ArrayList<>();
		List<Expr> defaults = new ArrayList<>();
		boolean anyDefault = false;
		try {
			while (!isOp(")")) {
				if (!parameters.isEmpty()) {
					expectOp(",");
				}
				String parameter = expectName().text();
				parameters.add(parameter);
				Frame.parameter(inner.events(), parameter);
				if (skipOp("=")) {
					defaults.add(parseExpression(true));
					anyDefault = true;
				}
				else if (anyDefault) {
					throw fail("non-default argument follows default argument", cur().pos());
				}
				else {
					defaults.add(null);
				}
			}
			expectOp(")");
		}
		finally {
			this.frame = savedFrame;
			this.events = outer;
		}
		inner.events().addAll(defaultEvents);
		boolean savedVarargs = this.usesVarargs;
		boolean savedKwargs = this.usesKwargs;
		this.usesVarargs = false;
		this.usesKwargs = false;
		Node[] body = inFrame(inner, () -> parseBody(List.of("endmacro"), true, 0));
		Node.MacroDef macro = new Node.MacroDef(pos, name, parameters.toArray(new String[0]),
				defaults.toArray(new Expr[0]), body, this.usesVarargs, this.usesKwargs, inner);
		this.usesVarargs = savedVarargs;
		this.usesKwargs = savedKwargs;
		Frame.store(this.events, name);
		return macro;
	}

	private Node parseWith() {
		int pos = next().pos();
		List<String> names = new ArrayList<>();
		List<Expr> values = new ArrayList<>();
		while (cur().type() != Type.BLOCK_END) {
			if (!names.isEmpty()) {
				expectOp(",");
			}
			names.add(expectName().text());
			expectOp("=");
			values.add(parseExpression(true));
		}
		Frame inner = newFrame();
		for (String name : names) {
			Frame.parameter(inner.events(), name);
		}
		Node[] body = inFrame(inner, () -> parseBody(List.of("endwith"), true, this.loopDepth));
		return new Node.Scoped(pos, names.toArray(new String[0]), values.toArray(new Expr[0]), body, inner);
	}

	private Node parseFilterBlock() {
		int pos = next().pos();
		Expr.FilterCall filter = (Expr.FilterCall) parseFilter(null, true);
		Frame inner = newFrame();
		Node[] body = inFrame(inner, () -> parseBody(List.of("endfilter"), true, this.loopDepth));
		return new Node.FilterBlock(pos, filter, body, inner);
	}

	private Node parsePrint() {
		int pos = next().pos();
		List<Node> outputs = new ArrayList<>();
		while (cur().type() != Type.BLOCK_END) {
			if (!outputs.isEmpty()) {
				expectOp(",");
			}
			Expr expr = parseExpression(true);
			outputs.add(new Node.Output(expr.pos, expr));
		}
		return new Node.Sequence(pos, outputs.toArray(new Node[0]));
	}

	private Node.Target parseAssignTarget(boolean withTuple, List<String> extraEnd, boolean withNamespace) {
		boolean savedRecord = this.recordLoads;
		this.recordLoads = false;
		try {
			Expr target = withTuple ? parseTuple(true, true, extraEnd, false, withNamespace)
					: parsePrimary(withNamespace);
			return toTarget(target);
		}
		finally {
			this.recordLoads = savedRecord;
		}
	}

	private Node.Target toTarget(Expr expr) {
		if (expr instanceof Expr.Name name) {
			return new Node.NameTarget(name.name);
		}
		if (expr instanceof NamespaceRef ref) {
			return new Node.NamespaceTarget(ref.name, ref.attribute);
		}
		if (expr instanceof Expr.TupleExpr tuple) {
			Node.Target[] targets = new Node.Target[tuple.items.length];
			for (int i = 0; i < targets.length; i++) {
				targets[i] = toTarget(tuple.items[i]);
			}
			return new Node.TupleTarget(targets);
		}
		String kind = (expr instanceof Expr.Const) ? "const" : expr.getClass().getSimpleName().toLowerCase();
		throw fail("can't assign to '" + kind + "'", expr.pos);
	}

	// expressions

	private Expr parseExpression(boolean withCondexpr) {
		return withCondexpr ? parseCondexpr() : parseOr();
	}

	private Expr parseCondexpr() {
		int pos = cur().pos();
		int mark = this.unknowns.size();
		Expr expr = parseOr();
		while (skipName("if")) {
			Expr test = parseOr();
			Expr otherwise = skipName("else") ? parseCondexpr() : null;
			expr = new Expr.Conditional(pos, test, expr, otherwise, line(pos));
			for (int i = mark; i < this.unknowns.size(); i++) {
				this.unknowns.get(i).soft()[0] = true;
			}
			pos = cur().pos();
		}
		return expr;
	}

	private Expr parseOr() {
		int pos = cur().pos();
		Expr left = parseAnd();
		while (skipName("or")) {
			left = new Expr.Or(pos, left, parseAnd());
		}
		return left;
	}

	private Expr parseAnd() {
		int pos = cur().pos();
		Expr left = parseNot();
		while (skipName("and")) {
			left = new Expr.And(pos, left, parseNot());
		}
		return left;
	}

	private Expr parseNot() {
		if (cur().isName("not")) {
			int pos = next().pos();
			enter(pos);
			try {
				return new Expr.Not(pos, parseNot());
			}
			finally {
				this.nesting--;
			}
		}
		return parseCompare();
	}

	private Expr parseCompare() {
		int pos = cur().pos();
		Expr first = parseMath1();
		List<String> ops = new ArrayList<>();
		List<Expr> operands = new ArrayList<>();
		while (true) {
			Token token = cur();
			if (token.type() == Type.OPERATOR && COMPARE_OPERATORS.contains(token.text())) {
				next();
				ops.add(token.text());
			}
			else if (token.isName("in")) {
				next();
				ops.add("in");
			}
			else if (token.isName("not") && look().isName("in")) {
				next();
				next();
				ops.add("notin");
			}
			else {
				break;
			}
			operands.add(parseMath1());
		}
		if (ops.isEmpty()) {
			return first;
		}
		return new Expr.Compare(pos, first, ops.toArray(new String[0]), operands.toArray(new Expr[0]));
	}

	private Expr parseMath1() {
		Expr left = parseConcat();
		while (isOp("+") || isOp("-")) {
			Token op = next();
			left = new Expr.Binary(op.pos(), op.text(), left, parseConcat());
		}
		return left;
	}

	private Expr parseConcat() {
		int pos = cur().pos();
		List<Expr> parts = new ArrayList<>();
		parts.add(parseMath2());
		while (skipOp("~")) {
			parts.add(parseMath2());
		}
		return (parts.size() == 1) ? parts.get(0) : new Expr.Concat(pos, parts.toArray(new Expr[0]));
	}

	private Expr parseMath2() {
		Expr left = parsePow();
		while (isOp("*") || isOp("/") || isOp("//") || isOp("%")) {
			Token op = next();
			left = new Expr.Binary(op.pos(), op.text(), left, parsePow());
		}
		return left;
	}

	private Expr parsePow() {
		Expr left = parseUnary(true);
		while (isOp("**")) {
			Token op = next();
			left = new Expr.Binary(op.pos(), "**", left, parseUnary(true));
		}
		return left;
	}

	private Expr parseUnary(boolean withFilter) {
		Token token = cur();
		enter(token.pos());
		try {
			Expr node;
			if (token.isOp("-") || token.isOp("+")) {
				next();
				node = new Expr.Unary(token.pos(), token.text().equals("-"), parseUnary(false));
			}
			else {
				node = parsePrimary(false);
			}
			node = parsePostfix(node);
			if (withFilter) {
				node = parseFilterExpr(node);
			}
			return node;
		}
		finally {
			this.nesting--;
		}
	}

	private Expr parsePrimary(boolean withNamespace) {
		Token token = cur();
		switch (token.type()) {
			case NAME -> {
				next();
				switch (token.text()) {
					case "true", "True" -> {
						return new Expr.Const(token.pos(), Boolean.TRUE);
					}
					case "false", "False" -> {
						return new Expr.Const(token.pos(), Boolean.FALSE);
					}
					case "none", "None" -> {
						return new Expr.Const(token.pos(), null);
					}
					default -> {
						if (withNamespace && isOp(".")) {
							next();
							return new NamespaceRef(token.pos(), token.text(), expectName().text());
						}
						this.usesVarargs |= token.text().equals("varargs");
						this.usesKwargs |= token.text().equals("kwargs");
						if (this.recordLoads) {
							Frame.load(this.events, token.text());
						}
						return new Expr.Name(token.pos(), token.text());
					}
				}
			}
			case STRING -> {
				next();
				StringBuilder sb = new StringBuilder((String) token.value());
				while (cur().type() == Type.STRING) {
					sb.append((String) next().value());
				}
				return new Expr.Const(token.pos(), sb.toString());
			}
			case INTEGER, FLOAT -> {
				next();
				return new Expr.Const(token.pos(), token.value());
			}
			default -> {
				if (token.isOp("(")) {
					next();
					Expr expr = parseTuple(false, true, null, true, false);
					expectOp(")");
					return expr;
				}
				if (token.isOp("[")) {
					return parseList();
				}
				if (token.isOp("{")) {
					return parseDict();
				}
				if (token.type() == Type.EOF) {
					throw fail("unexpected end of template", token.pos());
				}
				throw fail("unexpected '" + token.describe() + "'", token.pos());
			}
		}
	}

	private boolean isTupleEnd(List<String> extraEnd) {
		Token token = cur();
		if (token.type() == Type.VARIABLE_END || token.type() == Type.BLOCK_END || token.isOp(")")) {
			return true;
		}
		return extraEnd != null && token.type() == Type.NAME && extraEnd.contains(token.text());
	}

	private Expr parseTuple(boolean simplified, boolean withCondexpr, List<String> extraEnd,
			boolean explicitParentheses, boolean withNamespace) {
		int pos = cur().pos();
		List<Expr> items = new ArrayList<>();
		boolean isTuple = false;
		while (true) {
			if (!items.isEmpty()) {
				expectOp(",");
			}
			if (isTupleEnd(extraEnd)) {
				break;
			}
			items.add(simplified ? parsePrimary(withNamespace) : parseExpression(withCondexpr));
			if (isOp(",")) {
				isTuple = true;
			}
			else {
				break;
			}
		}
		if (!isTuple) {
			if (!items.isEmpty()) {
				return items.get(0);
			}
			if (!explicitParentheses) {
				throw fail("Expected an expression, got '" + cur().describe() + "'", cur().pos());
			}
		}
		return new Expr.TupleExpr(pos, items.toArray(new Expr[0]));
	}

	private Expr parseList() {
		int pos = expectOp("[").pos();
		List<Expr> items = new ArrayList<>();
		while (!isOp("]")) {
			if (!items.isEmpty()) {
				expectOp(",");
			}
			if (isOp("]")) {
				break;
			}
			items.add(parseExpression(true));
		}
		expectOp("]");
		return new Expr.ListExpr(pos, items.toArray(new Expr[0]));
	}

	private Expr parseDict() {
		int pos = expectOp("{").pos();
		List<Expr> keys = new ArrayList<>();
		List<Expr> values = new ArrayList<>();
		while (!isOp("}")) {
			if (!keys.isEmpty()) {
				expectOp(",");
			}
			if (isOp("}")) {
				break;
			}
			keys.add(parseExpression(true));
			expectOp(":");
			values.add(parseExpression(true));
		}
		expectOp("}");
		return new Expr.DictExpr(pos, keys.toArray(new Expr[0]), values.toArray(new Expr[0]));
	}

	private Expr parsePostfix(Expr node) {
		while (true) {
			if (isOp(".") || isOp("[")) {
				node = parseSubscript(node);
			}
			else if (isOp("(")) {
				node = parseCall(node);
			}
			else {
				return node;
			}
		}
	}

	private Expr parseFilterExpr(Expr node) {
		while (true) {
			if (isOp("|")) {
				node = parseFilter(node, false);
			}
			else if (cur().isName("is")) {
				node = parseTest(node);
			}
			else if (isOp("(")) {
				node = parseCall(node);
			}
			else {
				return node;
			}
		}
	}

	private Expr parseSubscript(Expr node) {
		Token token = next();
		if (token.isOp(".")) {
			Token attribute = next();
			if (attribute.type() == Type.NAME) {
				return new Expr.GetAttr(token.pos(), node, attribute.text());
			}
			if (attribute.type() != Type.INTEGER) {
				throw fail("expected name or number", attribute.pos());
			}
			return new Expr.GetItem(token.pos(), node, new Expr.Const(attribute.pos(), attribute.value()));
		}
		List<Expr> args = new ArrayList<>();
		while (!isOp("]")) {
			if (!args.isEmpty()) {
				expectOp(",");
			}
			args.add(parseSubscribed());
		}
		expectOp("]");
		Expr key = (args.size() == 1) ? args.get(0) : new Expr.TupleExpr(token.pos(), args.toArray(new Expr[0]));
		return new Expr.GetItem(token.pos(), node, key);
	}

	private Expr parseSubscribed() {
		int pos = cur().pos();
		Expr start = null;
		if (isOp(":")) {
			next();
		}
		else {
			Expr expr = parseExpression(true);
			if (!isOp(":")) {
				return expr;
			}
			next();
			start = expr;
		}
		Expr stop = null;
		if (!isOp(":") && !isOp("]") && !isOp(",")) {
			stop = parseExpression(true);
		}
		Expr step = null;
		if (isOp(":")) {
			next();
			if (!isOp("]") && !isOp(",")) {
				step = parseExpression(true);
			}
		}
		return new Expr.Slice(pos, start, stop, step);
	}

	private Expr.CallArgs parseCallArgs() {
		Token open = expectOp("(");
		List<Expr> args = new ArrayList<>();
		List<String> names = new ArrayList<>();
		List<Expr> values = new ArrayList<>();
		Expr starArgs = null;
		Expr starKwargs = null;
		boolean requireComma = false;
		while (!isOp(")")) {
			if (requireComma) {
				expectOp(",");
				if (isOp(")")) {
					break;
				}
			}
			if (isOp("*")) {
				if (starArgs != null || starKwargs != null) {
					throw fail("invalid syntax for function call expression", open.pos());
				}
				next();
				starArgs = parseExpression(true);
			}
			else if (isOp("**")) {
				if (starKwargs != null) {
					throw fail("invalid syntax for function call expression", open.pos());
				}
				next();
				starKwargs = parseExpression(true);
			}
			else if (cur().type() == Type.NAME && look().isOp("=")) {
				if (starKwargs != null) {
					throw fail("invalid syntax for function call expression", open.pos());
				}
				names.add(next().text());
				next();
				values.add(parseExpression(true));
			}
			else {
				if (starArgs != null || starKwargs != null || !names.isEmpty()) {
					throw fail("invalid syntax for function call expression", open.pos());
				}
				args.add(parseExpression(true));
			}
			requireComma = true;
		}
		expectOp(")");
		if (args.isEmpty() && names.isEmpty() && starArgs == null && starKwargs == null) {
			return Expr.CallArgs.NONE;
		}
		return new Expr.CallArgs(args.toArray(new Expr[0]), names.toArray(new String[0]), values.toArray(new Expr[0]),
				starArgs, starKwargs);
	}

	private Expr parseCall(Expr node) {
		int pos = cur().pos();
		return new Expr.Call(pos, node, parseCallArgs());
	}

	private Expr parseFilter(Expr node, boolean startInline) {
		while (isOp("|") || startInline) {
			if (!startInline) {
				next();
			}
			Token token = expectName();
			String name = dottedName(token.text());
			Expr.CallArgs args = isOp("(") ? parseCallArgs() : Expr.CallArgs.NONE;
			Filters.Filter filter = Filters.filter(name);
			if (filter == null) {
				this.unknowns.add(new Unknown("filter", name, token.pos(), new boolean[] { this.soft }));
			}
			node = new Expr.FilterCall(token.pos(), node, name, filter, args);
			startInline = false;
		}
		return node;
	}

	private String dottedName(String first) {
		StringBuilder name = new StringBuilder(first);
		while (isOp(".")) {
			next();
			name.append('.').append(expectName().text());
		}
		return name.toString();
	}

	private Expr parseTest(Expr node) {
		Token is = next();
		boolean negated = skipName("not");
		Token token = expectName();
		String name = dottedName(token.text());
		Expr.CallArgs args = Expr.CallArgs.NONE;
		Token current = cur();
		if (isOp("(")) {
			args = parseCallArgs();
		}
		else if ((current.type() == Type.NAME || current.type() == Type.STRING || current.type() == Type.INTEGER
				|| current.type() == Type.FLOAT || current.isOp("[") || current.isOp("{"))
				&& !current.isName("else") && !current.isName("or") && !current.isName("and")) {
			if (current.isName("is")) {
				throw fail("You cannot chain multiple tests with is", current.pos());
			}
			Expr arg = parsePostfix(parsePrimary(false));
			args = new Expr.CallArgs(new Expr[] { arg }, new String[0], new Expr[0], null, null);
		}
		Filters.Test test = Filters.test(name);
		if (test == null) {
			this.unknowns.add(new Unknown("test", name, token.pos(), new boolean[] { this.soft }));
		}
		Expr result = new Expr.TestCall(is.pos(), node, name, test, args);
		return negated ? new Expr.Not(is.pos(), result) : result;
	}

}
