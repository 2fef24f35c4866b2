package dev.feedstore.cli;

import com.google.protobuf.ByteString;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Optional;

/** A block's data as text: its UTF-8 decoding when it is valid UTF-8, otherwise base64. Stateless. */
final class DataText {
  private DataText() {}

  /** The data decoded as UTF-8, or empty if it is not valid UTF-8. */
  static Optional<String> utf8(ByteString data) {
    try {
      return Optional.of(StandardCharsets.UTF_8.newDecoder()
          .onMalformedInput(CodingErrorAction.REPORT)
          .onUnmappableCharacter(CodingErrorAction.REPORT)
          .decode(ByteBuffer.wrap(data.toByteArray()))
          .toString());
    } catch (CharacterCodingException e) {
      return Optional.empty();
    }
  }

  static String base64(ByteString data) {
    return Base64.getEncoder().encodeToString(data.toByteArray());
  }

  /**
   * One line for a person: the text with control characters escaped ({@code \n}, {@code \t},
   * {@code \u0001}), or {@code base64:...} for other data; longer than {@code max} characters it
   * is cut, saying how many bytes the data has.
   */
  static String forPerson(ByteString data, int max) {
    String shown = utf8(data).map(DataText::escape).orElseGet(() -> "base64:" + base64(data));
    if (shown.length() > max) {
      return shown.substring(0, max) + "... (" + data.size() + " bytes)";
    }
    return shown;
  }

  private static String escape(String text) {
    StringBuilder out = new StringBuilder(text.length());
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      switch (c) {
        case '\n' -> out.append("\\n");
        case '\r' -> out.append("\\r");
        case '\t' -> out.append("\\t");
        case '\\' -> out.append("\\\\");
        default -> {
          if (c < 0x20 || c == 0x7f) {
            out.append(String.format("\\u%04x", (int) c));
          } else {
            out.append(c);
          }
        }
      }
    }
    return out.toString();
  }
}
