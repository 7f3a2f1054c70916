package io.infergate.tokenizers.template;

/** Anything a template can call: macros, global functions, bound methods. */
interface PyCallable {

	Object call(Context context, Args args);

}
