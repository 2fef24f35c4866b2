package dev.feedstore.cli;

import dev.feedstore.core.ActorId;
import dev.feedstore.core.FeedId;
import dev.feedstore.core.InvalidValueException;
import dev.feedstore.core.Namespace;
import dev.feedstore.core.SpaceId;
import java.util.function.Function;
import picocli.CommandLine;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/**
 * Option values as domain types, validated by their constructors, so that a bad value is refused
 * before anything is sent, with the rule it broke: {@code Invalid value for option '--feed':
 * feedId must be a ULID: ..., was 'x'}.
 */
final class Converters {
  private Converters() {}

  static void register(CommandLine line) {
    line.registerConverter(SpaceId.class, domain(SpaceId::new));
    line.registerConverter(FeedId.class, domain(FeedId::new));
    line.registerConverter(Namespace.class, domain(Namespace::new));
    line.registerConverter(ActorId.class, domain(ActorId::new));
    line.registerConverter(ServerAddress.class, domain(ServerAddress::parse));
  }

  private static <T> ITypeConverter<T> domain(Function<String, T> make) {
    return value -> {
      try {
        return make.apply(value);
      } catch (InvalidValueException e) {
        throw new TypeConversionException(e.getMessage());
      }
    };
  }
}
