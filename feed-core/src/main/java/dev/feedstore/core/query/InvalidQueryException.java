package dev.feedstore.core.query;

/**
 * A live query that cannot be evaluated, refused when it is built or parsed. The message names the
 * clause ({@link #clause()}: {@code space}, {@code scope}, {@code key}, {@code filter[2]}, {@code
 * tombstone[0]}, {@code projection[1]}, {@code order}, {@code limit}, or {@code text} and {@code
 * json} for the forms themselves), shows it when that helps, and says what is wrong with it, for
 * example {@code "filter[1] (/n lt true): lt takes a number or a string, was true"}. Nothing has
 * been built when it is thrown.
 */
public final class InvalidQueryException extends IllegalArgumentException {
  private static final long serialVersionUID = 1L;

  /** The clause's name. */
  private final String clause;
  /** The clause as written, or empty. */
  private final String shown;
  /** What is wrong, without the clause. */
  private final String problem;

  /** {@code problem} in the clause named {@code clause}, not shown as written. */
  public InvalidQueryException(String clause, String problem) {
    this(clause, "", problem);
  }

  /**
   * @param clause the clause's name, e.g. {@code filter[1]}
   * @param shown the clause as written, e.g. {@code /n lt true}; empty to show nothing
   * @param problem what is wrong, e.g. {@code lt takes a number or a string, was true}
   */
  public InvalidQueryException(String clause, String shown, String problem) {
    super(clause + (shown.isEmpty() ? "" : " (" + shown + ")") + ": " + problem);
    this.clause = clause;
    this.shown = shown;
    this.problem = problem;
  }

  /** The clause that cannot be evaluated, e.g. {@code filter[2]}. */
  public String clause() {
    return clause;
  }

  /** What is wrong with it, without the clause. */
  public String problem() {
    return problem;
  }

  /** The same problem, told of a clause named more precisely ({@code filter[2]} for {@code predicate}). */
  InvalidQueryException in(String outerClause) {
    InvalidQueryException renamed = new InvalidQueryException(outerClause, shown, problem);
    renamed.initCause(this);
    return renamed;
  }
}
