// Hot paths that read the same text request after request (a client's Authorization header, one
// participant's path) remember their last answer instead of scanning it again.

/**
 * `compute`, remembering its last input and answer: the same text again gives the answer kept,
 * without computing it. An answer that is a string made from the input is then the same string
 * each time, and a Map it is looked up in has hashed it already (a request's own strings are new
 * each time, and hashed afresh). One entry only: a pure `compute` of the text, nothing of a world.
 */
export function rememberLast<R>(compute: (input: string) => R): (input: string) => R {
  let lastInput: string | undefined;
  let lastAnswer: R;
  return (input) => {
    if (input === lastInput) return lastAnswer;
    lastAnswer = compute(input);
    lastInput = input;
    return lastAnswer;
  };
}
