package dev.feedstore.server.internal.streams;

import java.util.ArrayList;
import java.util.List;

/**
 * The messages of a JSON-mode stream. An append's body is one JSON value (RFC 8259, checked
 * strictly); an array is flattened one level, each element a message, anything else is one
 * message. A stream's block holds its append's messages as a JSON array ({@link #block}), so a read
 * joins the blocks' elements into one array and a replica sees valid JSON in every block. Messages
 * keep their text as sent: nothing is re-encoded. Stateless and thread-safe.
 */
final class StreamJson {
  private final String text;
  private int at;

  private StreamJson(String text) {
    this.text = text;
  }

  /**
   * The messages of an append body.
   *
   * @throws StreamException (400) if the body is not one JSON value, naming where it goes wrong
   */
  static List<String> messages(String body) {
    StreamJson json = new StreamJson(body);
    json.space();
    List<String> messages = new ArrayList<>();
    if (json.peek() == '[') {
      json.elements(messages);
    } else {
      int start = json.at;
      json.value();
      messages.add(body.substring(start, json.at));
    }
    json.space();
    if (json.at != body.length()) {
      throw json.error("nothing may follow the value");
    }
    return messages;
  }

  /** The block that holds {@code messages}: a JSON array of them. */
  static String block(List<String> messages) {
    return "[" + String.join(",", messages) + "]";
  }

  /**
   * The messages of a stored block: the elements of its array, or the block whole when it is some
   * other JSON value (a replica may write one), or nothing when it is not JSON (then a reader gets
   * valid JSON still, and the block stays in the feed for whoever wrote it).
   */
  static List<String> ofBlock(String block) {
    try {
      return messages(block);
    } catch (StreamException e) {
      return List.of();
    }
  }

  private void elements(List<String> out) {
    at++; // [
    space();
    if (peek() == ']') {
      at++;
      return;
    }
    while (true) {
      space();
      int start = at;
      value();
      out.add(text.substring(start, at));
      space();
      char c = next();
      if (c == ']') {
        return;
      }
      if (c != ',') {
        throw error("expected ',' or ']' in an array");
      }
    }
  }

  private void value() {
    space();
    char c = peek();
    switch (c) {
      case '{' -> object();
      case '[' -> elements(new ArrayList<>());
      case '"' -> string();
      case 't' -> literal("true");
      case 'f' -> literal("false");
      case 'n' -> literal("null");
      default -> {
        if (c == '-' || (c >= '0' && c <= '9')) {
          number();
        } else {
          throw error("expected a JSON value");
        }
      }
    }
  }

  private void object() {
    at++; // {
    space();
    if (peek() == '}') {
      at++;
      return;
    }
    while (true) {
      space();
      if (peek() != '"') {
        throw error("expected a member name");
      }
      string();
      space();
      if (next() != ':') {
        throw error("expected ':' after a member name");
      }
      value();
      space();
      char c = next();
      if (c == '}') {
        return;
      }
      if (c != ',') {
        throw error("expected ',' or '}' in an object");
      }
    }
  }

  private void string() {
    at++; // "
    while (true) {
      char c = next();
      if (c == '"') {
        return;
      }
      if (c < 0x20) {
        throw error("control characters must be escaped in a string");
      }
      if (c == '\\') {
        char e = next();
        if (e == 'u') {
          for (int i = 0; i < 4; i++) {
            if (Character.digit(next(), 16) < 0) {
              throw error("expected 4 hex digits after \\u");
            }
          }
        } else if ("\"\\/bfnrt".indexOf(e) < 0) {
          throw error("unknown escape");
        }
      }
    }
  }

  private void number() {
    if (peek() == '-') {
      at++;
    }
    if (peek() == '0') {
      at++;
    } else {
      digits();
    }
    if (peek() == '.') {
      at++;
      digits();
    }
    if (peek() == 'e' || peek() == 'E') {
      at++;
      if (peek() == '+' || peek() == '-') {
        at++;
      }
      digits();
    }
  }

  private void digits() {
    if (peek() < '0' || peek() > '9') {
      throw error("expected a digit");
    }
    while (peek() >= '0' && peek() <= '9') {
      at++;
    }
  }

  private void literal(String word) {
    if (!text.startsWith(word, at)) {
      throw error("expected " + word);
    }
    at += word.length();
  }

  private void space() {
    while (at < text.length() && " \t\r\n".indexOf(text.charAt(at)) >= 0) {
      at++;
    }
  }

  private char peek() {
    return at < text.length() ? text.charAt(at) : '\0';
  }

  private char next() {
    if (at >= text.length()) {
      throw error("the body ends inside a value");
    }
    return text.charAt(at++);
  }

  private StreamException error(String what) {
    return StreamException.badRequest("the body of a JSON stream must be one JSON value: " + what
        + " at character " + at);
  }
}
